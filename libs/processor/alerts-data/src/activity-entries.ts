import { ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { sqlLiteral } from '@alert-ingestion/sql';

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
