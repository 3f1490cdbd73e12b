import { ActivityEntryOut, ActivitySubject, StoredActivityEntry } from '@alert-ingestion/alerts-domain';
import { sqlLiteral } from '@alert-ingestion/sql';
import { AlertsDatabase } from './alerts-database';

/** An entry as a row of activity_entries (json_to_recordset takes the columns it names). */
function entryRow(entry: ActivityEntryOut) {
  return {
    project_id: entry.projectId,
    alert_id: 'alertId' in entry.subject ? entry.subject.alertId : null,
    alert_iid: 'alertIid' in entry.subject ? entry.subject.alertIid : null,
    incident_id: 'incidentId' in entry.subject ? entry.subject.incidentId : null,
    kind: entry.kind,
    actor_user_id: entry.actorUserId,
    source: entry.source,
    reason: entry.reason,
    details: entry.details,
    created_at: entry.at.toISOString(),
  };
}

/**
 * The statement that appends timeline entries in the caller's transaction (values inlined, for a
 * ScriptedTransaction step or commit): one INSERT for all of them, ids in the order given (a function
 * scan returns its rows in array order). An entry on an alert named by its iid (`{alertIid}`) finds
 * the alert in its project, so it must come after the statement that inserts the alert. None: no statement.
 */
export function activityStatements(entries: readonly ActivityEntryOut[]): string[] {
  if (entries.length === 0) return [];
  const rows = entries.map(entryRow);
  const byIid = rows.some((row) => row.alert_iid !== null);
  return [
    `INSERT INTO activity_entries (project_id, alert_id, incident_id, kind, actor_user_id, source, reason, details, created_at)
     SELECT e.project_id, ${byIid ? 'COALESCE(e.alert_id, a.id)' : 'e.alert_id'}, e.incident_id, e.kind, e.actor_user_id, e.source, e.reason, e.details, e.created_at
     FROM ROWS FROM (json_to_recordset(${sqlLiteral.json(rows)}) AS (project_id bigint, alert_id bigint, alert_iid int, incident_id bigint, kind text,
       actor_user_id bigint, source text, reason text, details jsonb, created_at timestamptz)) WITH ORDINALITY AS e
     ${byIid ? 'LEFT JOIN alerts a ON a.project_id = e.project_id AND a.iid = e.alert_iid' : ''}
     ORDER BY e.ordinality`,
  ];
}

const ENTRY_COLUMNS = 'id, kind, actor_user_id, source, reason, details, created_at';

/** The column an entry of a timeline names it in, and its id. */
function subjectColumn(subject: ActivitySubject): ['alert_id' | 'incident_id', string] {
  return 'alertId' in subject ? ['alert_id', subject.alertId] : ['incident_id', subject.incidentId];
}

export interface ActivityPage {
  entries: StoredActivityEntry[];
  /** How many entries the timeline holds in all. */
  total: number;
}

/**
 * The timelines of alerts and incidents (activity_entries): read a page of one, or append one entry
 * on its own (a note; a change's entries are appended in its transaction: activityStatements).
 */
export class ActivityEntriesRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * One page of the timeline of an alert or an incident, oldest first. `derived`: entries its row
   * holds rather than a row each (an alert's creation and grouped events: derivedAlertEntries),
   * placed among the stored ones by time, with id 0.
   */
  async activityPage(subject: ActivitySubject, page: { offset: number; perPage: number }, derived: readonly ActivityEntryOut[] = []): Promise<ActivityPage> {
    const [column, id] = subjectColumn(subject);
    const source = `(SELECT ${ENTRY_COLUMNS} FROM activity_entries WHERE ${column} = $1
       UNION ALL
       SELECT 0, kind, actor_user_id, source, reason, details, created_at
       FROM json_to_recordset($2::json) AS d(kind text, actor_user_id bigint, source text, reason text, details jsonb, created_at timestamptz)) AS e`;
    const result = await this.database.page<StoredActivityEntry>(
      ENTRY_COLUMNS,
      source,
      `ORDER BY created_at, id LIMIT ${page.perPage} OFFSET ${page.offset}`,
      [id, JSON.stringify(derived.map(entryRow))],
    );
    return { entries: result.rows, total: result.total };
  }

  /** Appends one entry to a timeline and answers it as stored. */
  async append(entry: ActivityEntryOut & { subject: ActivitySubject }): Promise<StoredActivityEntry> {
    const [column, id] = subjectColumn(entry.subject);
    const result = await this.database.pool.query<StoredActivityEntry>(
      `INSERT INTO activity_entries (project_id, ${column}, kind, actor_user_id, source, reason, details, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${ENTRY_COLUMNS}`,
      [entry.projectId, id, entry.kind, entry.actorUserId, entry.source, entry.reason, entry.details, entry.at],
    );
    return result.rows[0];
  }
}
