import { AlertBulkUpdateResult, AlertEvent, AlertStatus } from '@alert-ingestion/contracts';
import { ActivityEntryOut, assigneesChangeEntry, statusChangeEntry } from './activity';
import { AlertStatusUpdate, alertNotFound, StatusChangeState, statusChange, withStatusUpdate } from './alert-status';
import { CommandPlan, refuse, refusal, CommandRefusal, unchanged } from './command-plan';
import { alertEvent, AlertEventOut, StoredAlert, StoredAssignee } from './stored-alert';

/** What a person asks of one alert: a status, assignees (replacing the alert's), or both. */
export interface AlertChangeRequest {
  status?: AlertStatus;
  assignees?: readonly StoredAssignee[];
}

/** One alert's decided change: the columns to write, its events and its timeline entries, in order. */
export interface AlertChange {
  update: AlertStatusUpdate;
  events: AlertEventOut[];
  activity: ActivityEntryOut[];
}

/**
 * The change `request` makes to `alert`, or null when it changes nothing (the status it has, the
 * assignees it has, in any order). Acknowledging an alert nobody is assigned to assigns the one who
 * acknowledged it (`acknowledger`: the user; none for the administrator token), in the same change.
 * Events: `alert.status_changed` (or `alert.resolved`) for the status, then `alert.assigned` for the
 * assignees, each carrying the alert after the whole change. Whether a status may change at all
 * (a resolved alert, a reopening) is the caller's rule: planStatusChange, planBulkUpdate.
 */
export function alertChange(
  alert: StoredAlert,
  request: AlertChangeRequest,
  now: Date,
  cause: AlertEvent.AlertEventCause,
  acknowledger?: StoredAssignee,
): AlertChange | null {
  const status = request.status === undefined ? { changed: false as const } : statusChange(alert.status, alert.ended_at, request.status, now);
  const assignees =
    request.assignees ?? (status.changed && status.status === 'acknowledged' && alert.assignees.length === 0 && acknowledger ? [acknowledger] : undefined);
  const assigned = assignees !== undefined && !sameAssignees(alert.assignees, assignees);
  if (!status.changed && !assigned) return null;
  const update: AlertStatusUpdate = {
    id: alert.id,
    status: status.changed ? status.status : alert.status,
    ended_at: status.changed ? status.endedAt : alert.ended_at,
    updated_at: now,
    ...(assigned && { assignees: [...assignees] }),
  };
  const after = withStatusUpdate(alert, update);
  const events: AlertEventOut[] = [];
  const activity: ActivityEntryOut[] = [];
  if (status.changed) {
    events.push(alertEvent(status.eventType, after, now, cause));
    activity.push(statusChangeEntry(alert, alert.status, status.status, cause, now));
  }
  if (assigned) {
    events.push(alertEvent('alert.assigned', after, now, cause));
    activity.push(assigneesChangeEntry(alert, alert.assignees, assignees, cause, now));
  }
  return { update, events, activity };
}

function sameAssignees(a: readonly StoredAssignee[], b: readonly StoredAssignee[]): boolean {
  return a.length === b.length && a.every((assignee) => b.some((other) => other.id === assignee.id));
}

/**
 * `PUT .../alerts/:iid {status}` (CONTRACT.md "Alerts query API"), decided over the stored alert
 * (statusChange, alertChange): one event per change, none when unchanged. A resolved alert reopens
 * only when asked for `triggered`: an acknowledge or ignore that reaches it after a recovery resolved
 * it (a stale change) is refused rather than reopening it. Reopening a resolved alert while another
 * alert of its fingerprint is not resolved would make two not-resolved alerts of one fingerprint,
 * which grouping (spec 3) rules out: refused. Acknowledging an alert nobody is assigned to assigns
 * `acknowledger`. A status change is a person's act, not a notification: the alert's silence is not
 * evaluated again. The changes are recorded on the alert's timeline.
 */
export function planStatusChange(
  state: StatusChangeState,
  iid: number,
  requested: AlertStatus,
  now: Date,
  cause: AlertEvent.AlertEventCause,
  acknowledger?: StoredAssignee,
): CommandPlan<AlertStatusUpdate> {
  const { alert } = state;
  if (!alert) return { refused: alertNotFound(String(iid)) };
  if (alert.status === requested) return unchanged();
  if (alert.status === 'resolved' && requested !== 'triggered') {
    return refuse('conflict', 'alert_resolved', `Alert ${iid} is resolved: set it to triggered to reopen it.`);
  }
  if (alert.status === 'resolved' && state.openDuplicateIid !== null) {
    return refuse('conflict', 'conflict', `Alert ${iid} cannot be reopened: another alert with the same fingerprint is not resolved.`);
  }
  const change = alertChange(alert, { status: requested }, now, cause, acknowledger);
  return change ? { changes: change.update, events: change.events, activity: change.activity } : unchanged();
}

/**
 * The assignees `requested` (user ids, in the request's order, repeats once) among the project's
 * `candidates` (developer+ members, by user id): a user who is not one is refused, naming the element
 * (`assignee_ids[1]`).
 */
export function requestedAssignees(requested: readonly number[], candidates: ReadonlyMap<string, string>): StoredAssignee[] | CommandRefusal {
  const assignees: StoredAssignee[] = [];
  for (const [index, id] of requested.entries()) {
    const username = candidates.get(String(id));
    if (username === undefined) {
      return refusal('invalid', 'invalid_assignee', `User ${id} cannot be assigned: not a member of the project with at least the Developer role.`, `assignee_ids[${index}]`);
    }
    if (!assignees.some((assignee) => assignee.id === String(id))) assignees.push({ id: String(id), username });
  }
  return assignees;
}

/** What an assignment is decided on: the alert, locked (undefined: the project has none of that iid). */
export interface AssignmentState {
  alert: StoredAlert | undefined;
}

/**
 * `PUT .../alerts/:iid/assignees {assignee_ids}`: the alert's assignees become exactly those (empty:
 * none), each a developer+ member; `alert.assigned` and an `assignees_changed` entry, nothing when
 * they are the ones it has. Allowed whatever the status (a resolved alert keeps its owner).
 */
export function planAssignment(
  state: AssignmentState,
  iid: number,
  requested: readonly number[],
  candidates: ReadonlyMap<string, string>,
  now: Date,
  cause: AlertEvent.AlertEventCause,
): CommandPlan<AlertStatusUpdate> {
  if (!state.alert) return { refused: alertNotFound(String(iid)) };
  const assignees = requestedAssignees(requested, candidates);
  if (!Array.isArray(assignees)) return { refused: assignees };
  const change = alertChange(state.alert, { assignees }, now, cause);
  return change ? { changes: change.update, events: change.events, activity: change.activity } : unchanged();
}


/** `POST .../alerts/bulk_update`: what it asks, for each of `iids`. */
export interface BulkUpdateRequest {
  iids: readonly number[];
  status?: AlertStatus;
  assigneeIds?: readonly number[];
}

/** The writes of a bulk update and its answer: the iids it changed, and the others with the reason. */
export interface BulkUpdateChanges {
  updates: AlertStatusUpdate[];
  updated: number[];
  skipped: AlertBulkUpdateResult['skipped'];
}

/**
 * `POST .../alerts/bulk_update` (a pager storm acknowledged at once): each alert of `iids` (in the
 * request's order, repeats once) gets the status and the assignees asked, as alertChange decides
 * them (acknowledging assigns the acknowledger where nobody is), over `alerts`, those of the iids the
 * project has, locked. A resolved alert is skipped, whatever is asked: a change made from a list
 * that was already stale (an acknowledge racing a recovery) never reopens it, nor reassigns it. An
 * assignee who is not a developer+ member refuses the whole request.
 */
export function planBulkUpdate(
  alerts: readonly StoredAlert[],
  request: BulkUpdateRequest,
  candidates: ReadonlyMap<string, string>,
  now: Date,
  cause: AlertEvent.AlertEventCause,
  acknowledger?: StoredAssignee,
): CommandPlan<BulkUpdateChanges> {
  let assignees: StoredAssignee[] | undefined;
  if (request.assigneeIds !== undefined) {
    const requested = requestedAssignees(request.assigneeIds, candidates);
    if (!Array.isArray(requested)) return { refused: requested };
    assignees = requested;
  }
  if (request.status === undefined && assignees === undefined) return refuse('invalid', 'nothing_to_update', 'Give status, assignee_ids or both.');
  const byIid = new Map(alerts.map((alert) => [alert.iid, alert]));
  const changes: BulkUpdateChanges = { updates: [], updated: [], skipped: [] };
  const events: AlertEventOut[] = [];
  const activity: ActivityEntryOut[] = [];
  for (const iid of new Set(request.iids)) {
    const alert = byIid.get(iid);
    if (!alert) {
      changes.skipped.push({ iid, reason: 'not_found' });
      continue;
    }
    if (alert.status === 'resolved') {
      changes.skipped.push({ iid, reason: 'resolved' });
      continue;
    }
    const change = alertChange(alert, { status: request.status, assignees }, now, cause, acknowledger);
    if (!change) {
      changes.skipped.push({ iid, reason: 'unchanged' });
      continue;
    }
    changes.updates.push(change.update);
    changes.updated.push(iid);
    events.push(...change.events);
    activity.push(...change.activity);
  }
  return { changes, events, activity };
}
