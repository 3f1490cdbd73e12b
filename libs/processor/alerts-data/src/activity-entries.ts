import { ActivityEntryOut, ActivitySubject, StoredActivityEntry } from '@alert-ingestion/alerts-domain';
import { sqlLiteral } from '@alert-ingestion/sql';
import { AlertsDatabase } from './alerts-database';

/**
 * The statement that appends timeline entries in the caller's transaction (values inlined, for a
 * ScriptedTransaction step or commit): one INSERT for all of them, ids in the order given (a function
 * scan returns its rows in array order). None: no statement.
 */
export function activityStatements(entries: readonly ActivityEntryOut[]): string[] {
  if (entries.length === 0) return [];
  const rows = entries.map((entry) => ({
    project_id: entry.projectId,
    alert_id: 'alertId' in entry.subject ? entry.subject.alertId : null,
    incident_id: 'incidentId' in entry.subject ? entry.subject.incidentId : null,
    kind: entry.kind,
    actor_user_id: entry.actorUserId,
    source: entry.source,
    reason: entry.reason,
    details: entry.details,
    created_at: entry.at.toISOString(),
  }));
  return [
    `INSERT INTO activity_entries (project_id, alert_id, incident_id, kind, actor_user_id, source, reason, details, created_at)
     SELECT project_id, alert_id, incident_id, kind, actor_user_id, source, reason, details, created_at
     FROM json_to_recordset(${sqlLiteral.json(rows)}) AS e(project_id bigint, alert_id bigint, incident_id bigint, kind text,
       actor_user_id bigint, source text, reason text, details jsonb, created_at timestamptz)`,
  ];
}

const ENTRY_COLUMNS = 'id, kind, actor_user_id, source, reason, details, created_at';

/** The column an entry of `subject` names it in, and its id. */
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

  /** One page of the timeline of an alert or an incident, oldest first. */
  async activityPage(subject: ActivitySubject, page: { offset: number; perPage: number }): Promise<ActivityPage> {
    const [column, id] = subjectColumn(subject);
    const { rows, total } = await this.database.page<StoredActivityEntry>(
      ENTRY_COLUMNS,
      `activity_entries WHERE ${column} = $1`,
      `ORDER BY created_at, id LIMIT ${page.perPage} OFFSET ${page.offset}`,
      [id],
    );
    return { entries: rows, total };
  }

  /** Appends one entry and answers it as stored. */
  async append(entry: ActivityEntryOut): Promise<StoredActivityEntry> {
    const [column, id] = subjectColumn(entry.subject);
    const result = await this.database.pool.query<StoredActivityEntry>(
      `INSERT INTO activity_entries (project_id, ${column}, kind, actor_user_id, source, reason, details, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${ENTRY_COLUMNS}`,
      [entry.projectId, id, entry.kind, entry.actorUserId, entry.source, entry.reason, entry.details, entry.at],
    );
    return result.rows[0];
  }
}
