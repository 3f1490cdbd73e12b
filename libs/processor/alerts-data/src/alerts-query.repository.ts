import { alertEvent, statusChange, StoredAlert } from '@alert-ingestion/alerts-domain';
import { AlertStatus } from '@alert-ingestion/contracts';
import { likePattern } from '@alert-ingestion/sql';
import { insertAlertEvents } from './alert-event-outbox';
import { AlertsDatabase, sqlState } from './alerts-database';

/**
 * The columns of an alert `a` and of its silence `s` (ALERTS_WITH_SILENCE), read as an AlertRow
 * (node-postgres: bigint as decimal strings, timestamptz as Date). The silence counts only while it
 * is active: once it has ended (or was expired) the alert shows `silenced_by: null`.
 */
export const ALERT_COLUMNS = `a.id, a.project_id, a.iid, a.integration_id, a.title, a.description, a.severity, a.status, a.events,
  a.started_at, a.ended_at, a.service, a.monitoring_tool, a.hosts, a.platform_environment_name, a.fingerprint,
  a.fingerprint_sha256, a.payload, a.created_at, a.updated_at,
  CASE WHEN s.ends_at > now() THEN s.id END AS silence_id, s.comment AS silence_comment, s.ends_at AS silence_ends_at`;

/** `alerts a` with the silence that matched the payload of its last change. */
export const ALERTS_WITH_SILENCE = 'alerts a LEFT JOIN silences s ON s.id = a.silence_id';

/** Whether the alert `a` is silenced now (`?silenced=true`). */
const SILENCED = 's.ends_at > now()';

/** A row read with ALERT_COLUMNS. */
export type AlertRow = Omit<StoredAlert, 'silenced_by'> & { silence_id: string | null; silence_comment: string | null; silence_ends_at: Date | null };

export function storedAlert({ silence_id, silence_comment, silence_ends_at, ...alert }: AlertRow): StoredAlert {
  return {
    ...alert,
    silenced_by: silence_id === null ? null : { id: silence_id, comment: silence_comment ?? '', ends_at: silence_ends_at ?? new Date(0) },
  };
}

export interface AlertListQuery {
  projectId: string;
  /** One status, or `open`: triggered and acknowledged. */
  status?: AlertStatus | 'open';
  /** Case-insensitive text searched in title, description, service, monitoring tool and hosts. */
  search?: string;
  /** Only alerts an active silence covers (true), or only the others (false). */
  silenced?: boolean;
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
    const conditions = ['a.project_id = $1'];
    const parameters: unknown[] = [query.projectId];
    if (query.status === 'open') {
      conditions.push(`a.status IN ('triggered', 'acknowledged')`);
    } else if (query.status) {
      parameters.push(query.status);
      conditions.push(`a.status = $${parameters.length}::alert_status`);
    }
    if (query.silenced !== undefined) conditions.push(query.silenced ? SILENCED : `(s.id IS NULL OR NOT ${SILENCED})`);
    if (query.search) {
      parameters.push(likePattern(query.search));
      const p = `$${parameters.length}`;
      conditions.push(
        `(a.title ILIKE ${p} OR a.description ILIKE ${p} OR a.service ILIKE ${p} OR a.monitoring_tool ILIKE ${p} OR array_to_string(a.hosts, ' ') ILIKE ${p})`,
      );
    }
    const where = conditions.join(' AND ');
    const offset = (query.page - 1) * query.perPage;
    const page = `ORDER BY a.iid DESC LIMIT ${query.perPage} OFFSET ${offset}`;
    const { rows, total } = await this.database.page<AlertRow>(ALERT_COLUMNS, `${ALERTS_WITH_SILENCE} WHERE ${where}`, page, parameters);
    return { alerts: rows.map(storedAlert), total };
  }

  async countByStatus(projectId: string): Promise<Map<AlertStatus, number>> {
    const result = await this.database.pool.query<{ status: AlertStatus; count: string }>(
      'SELECT status::text AS status, count(*) AS count FROM alerts WHERE project_id = $1 GROUP BY status',
      [projectId],
    );
    return new Map(result.rows.map((row) => [row.status, Number(row.count)]));
  }

  async find(projectId: string, iid: number): Promise<StoredAlert | undefined> {
    const result = await this.database.pool.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.project_id = $1 AND a.iid = $2`, [
      projectId,
      iid,
    ]);
    return result.rows[0] && storedAlert(result.rows[0]);
  }

  /**
   * Sets an alert's status and, when it changed, writes its event in the same transaction (one event
   * per change, none when unchanged). Reopening a resolved alert whose fingerprint meanwhile has
   * another not-resolved alert would break "one not-resolved alert per fingerprint": a conflict.
   */
  async updateStatus(projectId: string, iid: number, requested: AlertStatus, now: Date): Promise<StatusUpdateResult> {
    try {
      return await this.database.transaction(async (client) => {
        const current = await client.query<AlertRow>(
          `SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.project_id = $1 AND a.iid = $2 FOR UPDATE OF a`,
          [projectId, iid],
        );
        const row = current.rows[0] && storedAlert(current.rows[0]);
        if (!row) return { outcome: 'not_found' as const };
        const change = statusChange(row.status, row.ended_at, requested, now);
        if (!change.changed) return { outcome: 'unchanged' as const, alert: row };
        // A status change is a person's act, not a notification: the alert's silence is not evaluated again.
        const updated = await client.query<AlertRow>(
          `WITH a AS (UPDATE alerts SET status = $2::alert_status, ended_at = $3, updated_at = $4 WHERE id = $1 RETURNING *)
           SELECT ${ALERT_COLUMNS} FROM a LEFT JOIN silences s ON s.id = a.silence_id`,
          [row.id, change.status, change.endedAt, now],
        );
        const alert = storedAlert(updated.rows[0]);
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
