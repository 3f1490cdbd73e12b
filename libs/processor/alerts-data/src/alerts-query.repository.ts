import { AlertStatusUpdate, StatusChangeState, StoredAlert } from '@alert-ingestion/alerts-domain';
import { AlertStatus, Severity } from '@alert-ingestion/contracts';
import { isUniqueViolation, likePattern, sqlLiteral } from '@alert-ingestion/sql';
import { AlertsDatabase, ScriptedTransaction } from './alerts-database';

/**
 * The columns of an alert `a` and of its silence `s` (ALERTS_WITH_SILENCE), read as an AlertRow
 * (node-postgres: bigint as decimal strings, timestamptz as Date). The silence counts only while it
 * is active: once it has ended (or was expired) the alert shows `silenced_by: null`.
 */
export const ALERT_COLUMNS = `a.id, a.project_id, a.iid, a.integration_id, a.title, a.description, a.severity, a.status, a.events,
  a.started_at, a.ended_at, a.service, a.monitoring_tool, a.hosts, a.platform_environment_name, a.fingerprint,
  a.fingerprint_sha256, a.payload, a.incident_id, (SELECT i.iid FROM incidents i WHERE i.id = a.incident_id) AS incident_iid, a.created_at, a.updated_at,
  a.assignee_ids, a.assignee_usernames, a.first_grouped_at, a.last_grouped_at,
  CASE WHEN s.ends_at > now() THEN s.id END AS silence_id, s.comment AS silence_comment, s.ends_at AS silence_ends_at`;

/** `alerts a` with the silence that matched the payload of its last change. */
export const ALERTS_WITH_SILENCE = 'alerts a LEFT JOIN silences s ON s.id = a.silence_id';

/** Whether the alert `a` is silenced now (`?silenced=true`). */
const SILENCED = 's.ends_at > now()';

/** A row read with ALERT_COLUMNS. */
export type AlertRow = Omit<StoredAlert, 'silenced_by' | 'assignees'> & {
  silence_id: string | null;
  silence_comment: string | null;
  silence_ends_at: Date | null;
  assignee_ids: string[];
  assignee_usernames: string[];
};

export function storedAlert({ silence_id, silence_comment, silence_ends_at, assignee_ids, assignee_usernames, ...alert }: AlertRow): StoredAlert {
  return {
    ...alert,
    silenced_by: silence_id === null ? null : { id: silence_id, comment: silence_comment ?? '', ends_at: silence_ends_at ?? new Date(0) },
    assignees: assignee_ids.map((id, index) => ({ id, username: assignee_usernames[index] ?? '' })),
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
  /** Only alerts assigned to this user (id), or to nobody (`none`); `nobody`: no alert (the administrator's "me"). */
  assignee?: string | 'none' | 'nobody';
  /** Only alerts assigned to the member of this username. */
  assigneeUsername?: string;
  /** Only alerts of these severities (none or empty: any). */
  severities?: readonly Severity[];
  /** What to sort by (none: the iid), and which way (default desc). */
  sort?: AlertListSort;
  order?: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export type AlertListSort = 'severity' | 'started_at' | 'events' | 'updated_at';

/**
 * The ORDER BY of an alert list: by `sort` in `order` (desc by default), ties by iid the same way so
 * a page never shows an alert twice or skips one. Severity is the enum `alert_severity`, declared
 * from critical to unknown: "desc", most severe first, is the enum's ascending order.
 */
export function alertOrderBy(sort: AlertListSort | undefined, order: 'asc' | 'desc' = 'desc'): string {
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  if (!sort) return `a.iid ${direction}`;
  const column = sort === 'severity' ? `a.severity ${order === 'asc' ? 'DESC' : 'ASC'}` : `a.${sort} ${direction}`;
  return `${column}, a.iid ${direction}`;
}

export interface AlertPage {
  alerts: StoredAlert[];
  total: number;
}

/** Reads alerts for the alerts query API, and the alerts its changes are decided on, locked (CONTRACT.md "Alerts query API"). */
export class AlertsQueryRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** Newest first (highest iid first: iids are given in creation order), or as `sort` and `order` say (alertOrderBy). */
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
    if (query.assignee === 'none') conditions.push('cardinality(a.assignee_ids) = 0');
    else if (query.assignee === 'nobody') conditions.push('false');
    else if (query.assignee !== undefined) {
      parameters.push(query.assignee);
      conditions.push(`a.assignee_ids @> ARRAY[$${parameters.length}::bigint]`);
    }
    if (query.assigneeUsername !== undefined) {
      parameters.push(query.assigneeUsername);
      conditions.push(`a.assignee_usernames @> ARRAY[$${parameters.length}::text]`);
    }
    if (query.severities && query.severities.length > 0) {
      parameters.push([...new Set(query.severities)]);
      conditions.push(`a.severity = ANY($${parameters.length}::alert_severity[])`);
    }
    if (query.search) {
      parameters.push(likePattern(query.search));
      const p = `$${parameters.length}`;
      conditions.push(
        `(a.title ILIKE ${p} OR a.description ILIKE ${p} OR a.service ILIKE ${p} OR a.monitoring_tool ILIKE ${p} OR array_to_string(a.hosts, ' ') ILIKE ${p})`,
      );
    }
    const where = conditions.join(' AND ');
    const offset = (query.page - 1) * query.perPage;
    const page = `ORDER BY ${alertOrderBy(query.sort, query.order)} LIMIT ${query.perPage} OFFSET ${offset}`;
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
   * What a status change is decided on (planStatusChange): the alert and any other not-resolved
   * alert of its fingerprint, locked. Another transaction that creates a not-resolved alert of the
   * fingerprint meanwhile makes the update fail on alerts_open_fingerprint_key (lostStatusRace):
   * run again, the plan sees that alert and refuses the reopening.
   */
  async lockForStatusChange(transaction: ScriptedTransaction, projectId: string, iid: number): Promise<StatusChangeState> {
    const alert = await lockedAlert(transaction, projectId, iid);
    if (!alert?.fingerprint_sha256) return { alert, openDuplicateIid: null };
    const duplicate = await transaction.query<{ iid: number }>(
      `SELECT iid FROM alerts WHERE project_id = $1 AND fingerprint_sha256 = $2 AND status <> 'resolved' AND id <> $3 FOR UPDATE`,
      [projectId, alert.fingerprint_sha256, alert.id],
    );
    return { alert, openDuplicateIid: duplicate.rows[0]?.iid ?? null };
  }

  /** The alert of `iid` in the project, locked for a change (an assignment: planAssignment). */
  async lockForChange(transaction: ScriptedTransaction, projectId: string, iid: number): Promise<{ alert: StoredAlert | undefined }> {
    return { alert: await lockedAlert(transaction, projectId, iid) };
  }

  /** The alerts of the iids, locked in iid order (a bulk update: planBulkUpdate). */
  async lockAll(transaction: ScriptedTransaction, projectId: string, iids: readonly number[]): Promise<StoredAlert[]> {
    const rows = await transaction.query<AlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.project_id = $1 AND a.iid = ANY($2::int[]) ORDER BY a.iid FOR UPDATE OF a`,
      [projectId, [...iids]],
    );
    return rows.rows.map(storedAlert);
  }
}

/** A status change lost to a transaction that created a not-resolved alert of the same fingerprint: run it again. */
export function lostStatusRace(error: unknown): boolean {
  return isUniqueViolation(error, 'alerts_open_fingerprint_key');
}

/** The alert of `iid` in the project, locked for a change; undefined when there is none. */
async function lockedAlert(transaction: ScriptedTransaction, projectId: string, iid: number): Promise<StoredAlert | undefined> {
  const current = await transaction.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.project_id = $1 AND a.iid = $2 FOR UPDATE OF a`, [
    projectId,
    iid,
  ]);
  return current.rows[0] && storedAlert(current.rows[0]);
}

/**
 * The statement writing status changes and assignments (assignees only where the update has them),
 * values inlined, for a command's COMMIT; none when there is nothing to write.
 */
export function alertUpdateStatements(updates: readonly AlertStatusUpdate[]): string[] {
  if (updates.length === 0) return [];
  const rows = updates.map(({ id, status, ended_at, updated_at, assignees }) => ({
    id,
    status,
    ended_at: ended_at?.toISOString() ?? null,
    updated_at: updated_at.toISOString(),
    assigned: assignees !== undefined,
    assignee_ids: assignees?.map((assignee) => assignee.id) ?? [],
    assignee_usernames: assignees?.map((assignee) => assignee.username) ?? [],
  }));
  return [
    `UPDATE alerts a SET status = u.status::alert_status, ended_at = u.ended_at, updated_at = u.updated_at,
       assignee_ids = CASE WHEN u.assigned THEN u.assignee_ids ELSE a.assignee_ids END,
       assignee_usernames = CASE WHEN u.assigned THEN u.assignee_usernames ELSE a.assignee_usernames END
     FROM json_to_recordset(${sqlLiteral.json(rows)}) AS u(id bigint, status text, ended_at timestamptz, updated_at timestamptz,
       assigned boolean, assignee_ids bigint[], assignee_usernames text[])
     WHERE a.id = u.id`,
  ];
}
