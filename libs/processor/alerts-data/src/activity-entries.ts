import { ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { sqlLiteral } from '@alert-ingestion/sql';

/** An entry as a row of activity_entries (json_to_recordset takes the columns it names). */
export function activityEntryRow(entry: ActivityEntryOut) {
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
  const rows = entries.map(activityEntryRow);
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
