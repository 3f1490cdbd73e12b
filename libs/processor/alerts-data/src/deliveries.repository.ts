import { AnsweredDelivery } from '@alert-ingestion/alerts-domain';
import { Delivery, DeliveryRecord } from '@alert-ingestion/contracts';
import { reclaimAfterDeleting, RETAINED_TABLE_RECLAIM, sqlLiteral } from '@alert-ingestion/sql';
import { AlertsDatabase } from './alerts-database';

/**
 * The statement recording deliveries with the processor's answer, inlined to travel with a batch's
 * other statements. A delivery the gateway reported first (a 202) takes the answer ("a 202 is
 * updated once processed"); a redelivered message writes the same again.
 */
export function deliveryStatements(rows: readonly AnsweredDelivery[]): string[] {
  if (rows.length === 0) return [];
  // One row per delivery: a message redelivered within one batch is one delivery (an upsert may
  // not touch a row twice).
  const unique = [...new Map(rows.map((row) => [row.delivery_id, row])).values()];
  return [
    `INSERT INTO alert_deliveries (delivery_id, project_id, integration_id, request_id, received_at, status, error, alerts, body, body_size, body_truncated, authorization_key, authorization_key_expires_at)
     SELECT d.delivery_id, d.project_id, d.integration_id, d.request_id, d.received_at, d.status, d.error, d.alerts, d.body, d.body_size, d.body_truncated, d.authorization_key, d.authorization_key_expires_at
     FROM json_to_recordset(${sqlLiteral.json(unique)}) AS d(delivery_id uuid, project_id bigint, integration_id bigint, request_id text,
       received_at timestamptz, status int, error text, alerts jsonb, body text, body_size int, body_truncated boolean, authorization_key text, authorization_key_expires_at timestamptz)
     ON CONFLICT (delivery_id) DO UPDATE SET status = EXCLUDED.status, error = EXCLUDED.error, alerts = EXCLUDED.alerts`,
  ];
}

/** Deliveries of integrations (the processor owns alert_deliveries): recorded, listed, pruned. */
export class DeliveriesRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * Deliveries the gateway reported (refusals and 202s). A delivery the processor has recorded
   * already keeps its answer: a 202 record that arrives after the processing changes nothing.
   */
  async recordFromGateway(records: readonly DeliveryRecord.DeliveryRecordValue[]): Promise<void> {
    if (records.length === 0) return;
    await this.database.pool.query(
      `INSERT INTO alert_deliveries (delivery_id, project_id, integration_id, request_id, received_at, status, error, body, body_size, body_truncated, authorization_key, authorization_key_expires_at)
       SELECT d.delivery_id, d.project_id, d.integration_id, d.request_id, d.received_at, d.status, d.error, d.body, d.body_size, d.body_truncated, d.authorization_key, d.authorization_key_expires_at
       FROM json_to_recordset($1::json) AS d(delivery_id uuid, project_id bigint, integration_id bigint, request_id text, received_at timestamptz,
         status int, error text, body text, body_size int, body_truncated boolean, authorization_key text, authorization_key_expires_at timestamptz)
       ON CONFLICT (delivery_id) DO NOTHING`,
      [JSON.stringify(records)],
    );
  }

  /** The latest deliveries of an integration, newest first. */
  async list(integrationId: string, limit: number, offset: number): Promise<{ deliveries: Delivery[]; total: number }> {
    const { rows, total } = await this.database.page<Delivery & { id: string; received_at: Date; authorization_key_expires_at: Date | null }>(
      'id, received_at, request_id, status, error, alerts, body, body_size, body_truncated, authorization_key, authorization_key_expires_at',
      'alert_deliveries WHERE integration_id = $1',
      `ORDER BY received_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
      [integrationId],
    );
    const iso = (time: Date | null) => (time === null ? null : new Date(time).toISOString());
    return {
      deliveries: rows.map((row) => ({ ...row, id: Number(row.id), received_at: new Date(row.received_at).toISOString(), authorization_key_expires_at: iso(row.authorization_key_expires_at) })),
      total,
    };
  }

  /**
   * Keeps, per integration, the latest `keepPerIntegration` deliveries of the last `retentionMs`:
   * older ones go, and so do the ones beyond the count. Returns how many were removed.
   */
  async prune(now: Date, retentionMs: number, keepPerIntegration: number): Promise<number> {
    // One pass over the integration index: the ranking that finds the surplus sees the age too.
    const removed = await this.database.pool.query(
      `DELETE FROM alert_deliveries d USING (
         SELECT id FROM (
           SELECT id, received_at, row_number() OVER (PARTITION BY integration_id ORDER BY received_at DESC, id DESC) AS position FROM alert_deliveries
         ) ranked WHERE ranked.position > $1 OR ranked.received_at < $2
       ) due WHERE d.id = due.id`,
      [keepPerIntegration, new Date(now.getTime() - retentionMs)],
    );
    // With autovacuum off or late, the pruned rows' space is reused only once vacuumed.
    await reclaimAfterDeleting(this.database.query, 'alert_deliveries', removed.rowCount ?? 0, RETAINED_TABLE_RECLAIM);
    return removed.rowCount ?? 0;
  }
}
