import { ActivityKind, ActivitySource, AlertEvent, AlertStatus } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';

/**
 * One entry to append to a timeline (activity_entries), decided by a plan and written by the data
 * layer in the transaction of the change it records. It is on the timeline of an alert or of an
 * incident (database ids as decimal strings); an entry about both (an alert linked to an incident)
 * is written once on each.
 */
export interface ActivityEntryOut {
  projectId: string;
  subject: { alertId: string } | { incidentId: string };
  kind: ActivityKind;
  /** The user who did it; null: the service (a payload, a heartbeat, a setting) or the administrator token. */
  actorUserId: string | null;
  source: ActivitySource;
  reason: string | null;
  details: JsonObject;
  at: Date;
}

/** The timeline's source and actor of a change an alert event reports, from its cause. */
export function activityOrigin(cause: AlertEvent.AlertEventCause): Pick<ActivityEntryOut, 'source' | 'actorUserId'> {
  switch (cause.type) {
    case 'user':
      return { source: 'api', actorUserId: cause.user_id == null ? null : String(cause.user_id) };
    case 'payload':
      return { source: 'payload', actorUserId: null };
    case 'heartbeat':
      return { source: 'heartbeat', actorUserId: null };
    case 'incident':
      return { source: 'incident', actorUserId: null };
  }
}

/** The `status_changed` entry of an alert whose status went from `from` to `to`, made by `cause`. */
export function statusChangeEntry(
  alert: { id: string; project_id: string },
  from: AlertStatus,
  to: AlertStatus,
  cause: AlertEvent.AlertEventCause,
  at: Date,
  reason: string | null = null,
): ActivityEntryOut {
  const details: JsonObject = { from, to };
  if (cause.type === 'payload' && cause.integration_id !== undefined) details['integration_id'] = cause.integration_id;
  if (cause.type === 'incident' && cause.incident_iid !== undefined) details['incident_iid'] = cause.incident_iid;
  return { projectId: alert.project_id, subject: { alertId: alert.id }, kind: 'status_changed', ...activityOrigin(cause), reason, details, at };
}
