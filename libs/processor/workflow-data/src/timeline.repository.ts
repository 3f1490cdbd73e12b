import { activityEntryRow, AlertsDatabase } from '@alert-ingestion/alerts-data';
import { ActivityEntryOut, ActivitySubject } from '@alert-ingestion/alerts-domain';
import { StoredActivityEntry } from '@alert-ingestion/workflow-domain';

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
 * The timelines of alerts and incidents (activity_entries, the processor owns it): read a page of
 * one, or append one entry on its own (a note; a change's entries are appended in its transaction:
 * alerts-data's activityStatements).
 */
export class TimelineRepository {
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
      [id, JSON.stringify(derived.map(activityEntryRow))],
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
