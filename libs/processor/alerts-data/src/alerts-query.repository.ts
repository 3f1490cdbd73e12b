import { alertEvent, statusChange, StoredAlert } from '@alert-ingestion/alerts-domain';
import { AlertStatus } from '@alert-ingestion/contracts';
import { likePattern } from '@alert-ingestion/sql';
import { insertAlertEvents } from './alert-event-outbox';
import { AlertsDatabase, sqlState } from './alerts-database';

/** The columns of `alerts`, read as a StoredAlert (node-postgres: bigint as decimal strings, timestamptz as Date). */
export const ALERT_COLUMNS = `id, project_id, iid, integration_id, title, description, severity, status, events, started_at,
  ended_at, service, monitoring_tool, hosts, platform_environment_name, fingerprint, fingerprint_sha256, payload,
  created_at, updated_at`;

export interface AlertListQuery {
  projectId: string;
  /** One status, or `open`: triggered and acknowledged. */
  status?: AlertStatus | 'open';
  /** Case-insensitive text searched in title, description, service, monitoring tool and hosts. */
  search?: string;
  page: number;
  perPage: number;
}

export interface AlertPage {
  alerts: StoredAlert[];
  total: number;
}

export type StatusUpdateResult =
  | { outcome: 'not_found' }
  | { outcome: 'conflict' }
  | { outcome: 'unchanged' | 'changed'; alert: StoredAlert };

/** Reads alerts for the alerts query API and applies status changes (CONTRACT.md "Alerts query API"). */
export class AlertsQueryRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** Newest first (highest iid first: iids are given in creation order). */
  async list(query: AlertListQuery): Promise<AlertPage> {
    const conditions = ['project_id = $1'];
    const parameters: unknown[] = [query.projectId];
    if (query.status === 'open') {
      conditions.push(`status IN ('triggered', 'acknowledged')`);
    } else if (query.status) {
      parameters.push(query.status);
      conditions.push(`status = $${parameters.length}::alert_status`);
    }
    if (query.search) {
      parameters.push(likePattern(query.search));
      const p = `$${parameters.length}`;
      conditions.push(
        `(title ILIKE ${p} OR description ILIKE ${p} OR service ILIKE ${p} OR monitoring_tool ILIKE ${p} OR array_to_string(hosts, ' ') ILIKE ${p})`,
      );
    }
    const where = conditions.join(' AND ');
    const offset = (query.page - 1) * query.perPage;
    const [rows, count] = await Promise.all([
      this.database.pool.query<StoredAlert>(
        `SELECT ${ALERT_COLUMNS} FROM alerts WHERE ${where} ORDER BY iid DESC LIMIT ${query.perPage} OFFSET ${offset}`,
        parameters,
      ),
      this.database.pool.query<{ total: string }>(`SELECT count(*) AS total FROM alerts WHERE ${where}`, parameters),
    ]);
    return { alerts: rows.rows, total: Number(count.rows[0].total) };
  }

  async countByStatus(projectId: string): Promise<Map<AlertStatus, number>> {
    const result = await this.database.pool.query<{ status: AlertStatus; count: string }>(
      'SELECT status::text AS status, count(*) AS count FROM alerts WHERE project_id = $1 GROUP BY status',
      [projectId],
    );
    return new Map(result.rows.map((row) => [row.status, Number(row.count)]));
  }

  async find(projectId: string, iid: number): Promise<StoredAlert | undefined> {
    const result = await this.database.pool.query<StoredAlert>(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE project_id = $1 AND iid = $2`, [
      projectId,
      iid,
    ]);
    return result.rows[0];
  }

  /**
   * Sets an alert's status and, when it changed, writes its event in the same transaction (one event
   * per change, none when unchanged). Reopening a resolved alert whose fingerprint meanwhile has
   * another not-resolved alert would break "one not-resolved alert per fingerprint": a conflict.
   */
  async updateStatus(projectId: string, iid: number, requested: AlertStatus, now: Date): Promise<StatusUpdateResult> {
    try {
      return await this.database.transaction(async (client) => {
        const current = await client.query<StoredAlert>(
          `SELECT ${ALERT_COLUMNS} FROM alerts WHERE project_id = $1 AND iid = $2 FOR UPDATE`,
          [projectId, iid],
        );
        const row = current.rows[0];
        if (!row) return { outcome: 'not_found' as const };
        const change = statusChange(row.status, row.ended_at, requested, now);
        if (!change.changed) return { outcome: 'unchanged' as const, alert: row };
        const updated = await client.query<StoredAlert>(
          `UPDATE alerts SET status = $2::alert_status, ended_at = $3, updated_at = $4 WHERE id = $1 RETURNING ${ALERT_COLUMNS}`,
          [row.id, change.status, change.endedAt, now],
        );
        const alert = updated.rows[0];
        await insertAlertEvents(client, [alertEvent(change.eventType, alert, now)]);
        return { outcome: 'changed' as const, alert };
      });
    } catch (error) {
      if (sqlState(error) === '23505' && (error as { constraint?: string }).constraint === 'alerts_open_fingerprint_key') {
        return { outcome: 'conflict' };
      }
      throw error;
    }
  }
}
