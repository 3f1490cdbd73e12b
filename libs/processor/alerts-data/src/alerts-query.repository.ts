import { planStatusChange, StatusChangeState, StoredAlert, withStatusUpdate } from '@alert-ingestion/alerts-domain';
import { AlertEvent, AlertStatus } from '@alert-ingestion/contracts';
import { isUniqueViolation, likePattern } from '@alert-ingestion/sql';
import { AlertsDatabase } from './alerts-database';
import { CommandResult, runCommand } from './run-command';

/**
 * The columns of an alert `a` and of its silence `s` (ALERTS_WITH_SILENCE), read as an AlertRow
 * (node-postgres: bigint as decimal strings, timestamptz as Date). The silence counts only while it
 * is active: once it has ended (or was expired) the alert shows `silenced_by: null`.
 */
export const ALERT_COLUMNS = `a.id, a.project_id, a.iid, a.integration_id, a.title, a.description, a.severity, a.status, a.events,
  a.started_at, a.ended_at, a.service, a.monitoring_tool, a.hosts, a.platform_environment_name, a.fingerprint,
  a.fingerprint_sha256, a.payload, a.incident_id, (SELECT i.iid FROM incidents i WHERE i.id = a.incident_id) AS incident_iid, a.created_at, a.updated_at,
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

/** Reads alerts for the alerts query API and runs its status changes (CONTRACT.md "Alerts query API"). */
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
   * `PUT .../alerts/:iid {status}`: the alert and any other not-resolved alert of its fingerprint,
   * locked, decided by planStatusChange, written with the change's event. Another transaction that
   * creates a not-resolved alert of the fingerprint meanwhile makes the update fail on
   * alerts_open_fingerprint_key: run again, the plan sees that alert and refuses the reopening.
   */
  changeStatus(projectId: string, iid: number, requested: AlertStatus, now: Date, cause: AlertEvent.AlertEventCause): Promise<CommandResult<StoredAlert>> {
    return runCommand(this.database, {
      read: async (client): Promise<StatusChangeState> => {
        const current = await client.query<AlertRow>(
          `SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.project_id = $1 AND a.iid = $2 FOR UPDATE OF a`,
          [projectId, iid],
        );
        const alert = current.rows[0] && storedAlert(current.rows[0]);
        if (!alert?.fingerprint_sha256) return { alert, openDuplicateIid: null };
        const duplicate = await client.query<{ iid: number }>(
          `SELECT iid FROM alerts WHERE project_id = $1 AND fingerprint_sha256 = $2 AND status <> 'resolved' AND id <> $3 FOR UPDATE`,
          [projectId, alert.fingerprint_sha256, alert.id],
        );
        return { alert, openDuplicateIid: duplicate.rows[0]?.iid ?? null };
      },
      plan: (state) => planStatusChange(state, iid, requested, now, cause),
      write: async (client, update, { alert }) => {
        if (!update || !alert) return alert as StoredAlert;
        await client.query(`UPDATE alerts SET status = $2::alert_status, ended_at = $3, updated_at = $4 WHERE id = $1`, [
          update.id,
          update.status,
          update.ended_at,
          update.updated_at,
        ]);
        return withStatusUpdate(alert, update);
      },
      lostRace: (error) => isUniqueViolation(error, 'alerts_open_fingerprint_key'),
    });
  }
}
