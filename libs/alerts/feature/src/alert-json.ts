import { AlertView } from '@alert-ingestion/contracts';
import { AlertRow, alertView } from '@alert-ingestion/alerts-data';

/**
 * The contract's `alert` in the HTTP API: the same fields as alert events carry, with ids as
 * numbers as everywhere in the HTTP API (Kafka messages carry them as decimal strings).
 */
export type AlertJson = Omit<AlertView, 'integration_id'> & { integration_id: number };

export function alertJson(row: AlertRow): AlertJson {
  return { ...alertView(row), integration_id: Number(row.integration_id) };
}
