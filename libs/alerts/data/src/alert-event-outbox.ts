import { AlertEvent } from '@alert-ingestion/contracts';
import { PoolClient } from 'pg';
import { sqlLiteral } from './alerts-database';

/** The channel a committed outbox write notifies, so the relay publishes without waiting for its poll. */
export const OUTBOX_CHANNEL = 'alert_event_outbox';

/**
 * Held from the moment a transaction allocates outbox ids until it commits. Outbox ids therefore
 * become visible in id order, which is what lets the relay keep a single position ("every id below
 * P is published") instead of tracking gaps left by transactions that commit late.
 */
const OUTBOX_WRITE_LOCK = 7_311_202_401;

export interface OutboxEvent {
  projectId: string;
  iid: number;
  value: AlertEvent.AlertEventValue;
}

/**
 * The statements that write alert events in the caller's transaction (transactional outbox): an
 * event exists exactly when the change it describes is committed. Events are stored in the order
 * given. Values are inlined (sqlLiteral), so the statements can travel with others in one query.
 */
export function outboxStatements(events: readonly OutboxEvent[]): string[] {
  if (events.length === 0) return [];
  const rows = events.map((event) => ({ project_id: event.projectId, iid: event.iid, type: event.value.type, value: event.value }));
  return [
    `SELECT pg_advisory_xact_lock(${OUTBOX_WRITE_LOCK}), pg_notify('${OUTBOX_CHANNEL}', '')`,
    `INSERT INTO alert_event_outbox (project_id, iid, type, value)
     SELECT e.project_id, e.iid, e.type, e.value
     FROM ROWS FROM (json_to_recordset(${sqlLiteral.json(rows)}) AS (project_id bigint, iid int, type text, value json)) WITH ORDINALITY AS e(project_id, iid, type, value, position)
     ORDER BY e.position`,
  ];
}

/** Writes alert events in the caller's transaction (see outboxStatements), in one round trip. */
export async function insertOutboxEvents(client: PoolClient, events: readonly OutboxEvent[]): Promise<void> {
  const statements = outboxStatements(events);
  if (statements.length > 0) await client.query(statements.join(';\n'));
}

/** One unpublished outbox row as the relay reads it. */
export interface OutboxRow {
  id: string;
  project_id: string;
  iid: number;
  /** The event (an AlertEvent.AlertEventValue) as JSON text, published as it is. */
  value: string;
}
