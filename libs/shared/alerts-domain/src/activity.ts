import { ActivityKind, ActivitySource, AlertEvent, AlertStatus } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';
import { StoredAssignee } from './stored-alert';

/** Whose timeline an entry is on: an alert's or an incident's (database ids as decimal strings). */
export type ActivitySubject = { alertId: string } | { incidentId: string };

/**
 * One entry to append to a timeline (activity_entries), decided by a plan and written by the data
 * layer in the transaction of the change it records. It is on the timeline of an alert or of an
 * incident (database ids as decimal strings); an entry about both (an alert linked to an incident)
 * is written once on each.
 */
export interface ActivityEntryOut {
  projectId: string;
  /**
   * The timeline it is on; `{alertIid}`: the alert of that iid in `projectId`, for an alert the same
   * transaction may have just created (a batch that creates and resolves it), whose id no plan knows.
   */
  subject: ActivitySubject | { alertIid: number };
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

/**
 * The `status_changed` entry of an alert whose status went from `from` to `to`, made by `cause`: on
 * the alert of that id, or, for an alert not stored yet (no id), of that iid.
 */
export function statusChangeEntry(
  alert: { id: string; project_id: string } | { iid: number; project_id: string },
  from: AlertStatus,
  to: AlertStatus,
  cause: AlertEvent.AlertEventCause,
  at: Date,
  reason: string | null = null,
): ActivityEntryOut {
  const details: JsonObject = { from, to };
  if (cause.type === 'payload' && cause.integration_id !== undefined) details['integration_id'] = cause.integration_id;
  if (cause.type === 'incident' && cause.incident_iid !== undefined) details['incident_iid'] = cause.incident_iid;
  const subject = 'id' in alert ? { alertId: alert.id } : { alertIid: alert.iid };
  return { projectId: alert.project_id, subject, kind: 'status_changed', ...activityOrigin(cause), reason, details, at };
}

/** The `assignees_changed` entry of an alert whose assignees went from `before` to `after`: who was added and removed. */
export function assigneesChangeEntry(
  alert: { id: string; project_id: string },
  before: readonly StoredAssignee[],
  after: readonly StoredAssignee[],
  cause: AlertEvent.AlertEventCause,
  at: Date,
): ActivityEntryOut {
  const view = ({ id, username }: StoredAssignee) => ({ id: Number(id), username });
  const details: JsonObject = {
    added: after.filter((assignee) => !before.some((other) => other.id === assignee.id)).map(view),
    removed: before.filter((assignee) => !after.some((other) => other.id === assignee.id)).map(view),
  };
  return { projectId: alert.project_id, subject: { alertId: alert.id }, kind: 'assignees_changed', ...activityOrigin(cause), reason: null, details, at };
}
