import { AlertsDatabase } from './alerts-database';

/** An integration whose heartbeat is on: it expires when its last request is older than `dueBefore`. */
export interface HeartbeatWatch {
  integrationId: string;
  dueBefore: Date;
}

/** A heartbeat found expired: the last request its silence follows. */
export interface SilentIntegration {
  integrationId: string;
  lastRequestAt: Date;
}

/**
 * integration_heartbeats as the heartbeat checker reads it. The batch transaction writes the last
 * requests (AlertBatchTransaction.write); claiming and marking a heartbeat expired happen in the
 * transaction that raises its alert (AlertBatchTransaction.claimHeartbeats, then write).
 */
export class HeartbeatsRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * The watched integrations whose last request is older than their due time and whose silence has
   * raised no alert yet (expired_for differs from last_request_at). A plain read, no lock: the
   * transaction that raises the alert claims each one again under lock.
   */
  async findSilent(watches: readonly HeartbeatWatch[]): Promise<SilentIntegration[]> {
    if (watches.length === 0) return [];
    const rows = JSON.stringify(watches.map((watch) => ({ integration_id: watch.integrationId, due_before: watch.dueBefore.toISOString() })));
    const { rows: silent } = await this.database.pool.query<{ integration_id: string; last_request_at: Date }>(
      `SELECT h.integration_id::text AS integration_id, h.last_request_at
       FROM json_to_recordset($1::json) AS w(integration_id bigint, due_before timestamptz)
       JOIN integration_heartbeats h ON h.integration_id = w.integration_id
       WHERE h.last_request_at < w.due_before AND h.expired_for IS DISTINCT FROM h.last_request_at
       ORDER BY h.integration_id`,
      [rows],
    );
    return silent.map((row) => ({ integrationId: row.integration_id, lastRequestAt: new Date(row.last_request_at) }));
  }
}
