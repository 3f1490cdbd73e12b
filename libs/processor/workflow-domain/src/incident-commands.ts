import {
  ActivityEntryOut,
  AlertEventOut,
  alertEvent,
  alertNotFound,
  AlertStatusUpdate,
  CommandPlan,
  refusal,
  refuse,
  statusChange,
  statusChangeEntry,
  StoredAlert,
  StoredAssignee,
  unchanged,
  withStatusUpdate,
} from '@alert-ingestion/alerts-domain';
import { AlertEvent, IncidentStatus, Severity } from '@alert-ingestion/contracts';
import { JsonObject, JsonValue } from '@alert-ingestion/json';
import {
  IncidentActor,
  incidentCreatedRecords,
  incidentEntry,
  incidentEvent,
  IncidentEventOut,
  IncidentFields,
  incidentFromAlert,
  incidentNotFound,
  linkEntries,
  StoredIncident,
} from './incident';

// The commands that change incidents (docs/api-guide.md "Incidents"), each a pure plan over the
// rows the data layer read and locked for it (libs/processor/README.md): open one, open one from an
// alert, link an alert, edit, close (resolving its alerts) and reopen. The alert settings'
// automation (incident-automation.ts) writes the same changes.

/**
 * The numbers a command may give new incidents, read by the data layer: each project's iid counter
 * as it stands (locked until the command commits, so iids are given in commit order), and ids taken
 * from the incidents' sequence (as many as it might open; one not used is a gap, as after a rollback).
 */
export interface IncidentNumbering {
  lastIids: ReadonlyMap<string, number>;
  ids: readonly string[];
}

/** Everything an incident command writes besides its timeline entries and alert events (which its plan carries). */
export interface IncidentChanges {
  /** New incidents, with the ids and iids the plan gave them. */
  created: StoredIncident[];
  /** Incidents whose fields, owner or status changed, as they are after the change. */
  updated: StoredIncident[];
  /** Alerts linked to incidents (alerts.incident_id, set only while it is null). */
  links: Array<{ alertId: string; incidentId: string }>;
  /** Alerts resolved by closing their incident. */
  resolvedAlerts: AlertStatusUpdate[];
  /** Each project's iid counter after the incidents it opened. */
  lastIids: Map<string, number>;
  incidentEvents: IncidentEventOut[];
}

export function noIncidentChanges(): IncidentChanges {
  return { created: [], updated: [], links: [], resolvedAlerts: [], lastIids: new Map(), incidentEvents: [] };
}

/** Gives new incidents their ids and iids, in the order asked, from what the data layer reserved. */
export class IncidentNumbers {
  private next = 0;
  readonly lastIids: Map<string, number>;

  constructor(private readonly numbering: IncidentNumbering) {
    this.lastIids = new Map();
  }

  take(projectId: string): { id: string; iid: number } {
    const id = this.numbering.ids[this.next++];
    const last = this.lastIids.get(projectId) ?? this.numbering.lastIids.get(projectId);
    if (id === undefined || last === undefined) throw new Error(`no incident number reserved for project ${projectId}`);
    this.lastIids.set(projectId, last + 1);
    return { id, iid: last + 1 };
  }
}

/** A new incident as stored, numbered. */
export function newIncident(
  numbers: IncidentNumbers,
  projectId: string,
  fields: IncidentFields,
  createdBy: { userId: string | null } | { alert: StoredAlert },
  now: Date,
): StoredIncident {
  const { id, iid } = numbers.take(projectId);
  const alert = 'alert' in createdBy ? createdBy.alert : null;
  return {
    id,
    project_id: projectId,
    iid,
    ...fields,
    status: 'open',
    created_by_user_id: 'userId' in createdBy ? createdBy.userId : null,
    created_by_alert_id: alert?.id ?? null,
    created_by_alert_iid: alert?.iid ?? null,
    owner: null,
    alert_iids: alert ? [alert.iid] : [],
    closed_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** `POST .../incidents`: an incident a user opens, linked to no alert. */
export function planIncidentCreation(
  state: { numbering: IncidentNumbering },
  projectId: string,
  fields: IncidentFields,
  actor: IncidentActor & { type: 'user' },
  now: Date,
  usernames?: ReadonlyMap<string, string>,
): CommandPlan<IncidentChanges> {
  const numbers = new IncidentNumbers(state.numbering);
  const incident = newIncident(numbers, projectId, fields, { userId: actor.userId }, now);
  const { entries, events } = incidentCreatedRecords(incident, null, actor, now, usernames);
  return { changes: { ...noIncidentChanges(), created: [incident], lastIids: numbers.lastIids, incidentEvents: events }, events: [], activity: entries };
}

/**
 * `POST .../alerts/:iid/incident`: an incident opened from an alert, linked to it; refused when the
 * project has no such alert, or when the alert has an incident already (so two clicks at once open one).
 */
export function planIncidentFromAlert(
  state: { alert: StoredAlert | undefined; numbering: IncidentNumbering },
  alertIid: number,
  actor: IncidentActor & { type: 'user' },
  now: Date,
  usernames?: ReadonlyMap<string, string>,
): CommandPlan<IncidentChanges> {
  const { alert } = state;
  if (!alert) return { refused: alertNotFound(String(alertIid)) };
  if (alert.incident_id !== null) return refuse('conflict', 'alert_has_incident', `Alert ${alertIid} already has an incident.`);
  const numbers = new IncidentNumbers(state.numbering);
  const incident = newIncident(numbers, alert.project_id, incidentFromAlert(alert), { alert }, now);
  incident.created_by_user_id = actor.userId;
  const { entries, events } = incidentCreatedRecords(incident, alert, actor, now, usernames);
  return {
    changes: { ...noIncidentChanges(), created: [incident], links: [{ alertId: alert.id, incidentId: incident.id }], lastIids: numbers.lastIids, incidentEvents: events },
    events: [],
    activity: entries,
  };
}

/**
 * `POST .../incidents/:iid/alerts {alert_iid}`: an alert has at most one incident, so an alert of
 * another incident is refused (409); linking an alert already linked to this one changes nothing.
 * Only an open incident takes new alerts.
 */
export function planAlertLink(
  state: { incident: StoredIncident | undefined; alert: StoredAlert | undefined },
  incidentIid: string,
  alertIid: number,
  actor: IncidentActor,
  now: Date,
): CommandPlan<IncidentChanges> {
  const { incident, alert } = state;
  if (!incident) return { refused: incidentNotFound(incidentIid) };
  if (!alert) return refuse('invalid', 'alert_not_found', `Alert ${alertIid} not found.`, 'alert_iid');
  if (alert.incident_id === incident.id) return unchanged();
  if (alert.incident_id !== null) return refuse('conflict', 'alert_has_incident', `Alert ${alertIid} already belongs to another incident.`, 'alert_iid');
  if (incident.status === 'closed') return refuse('conflict', 'incident_closed', `Incident ${incident.iid} is closed: reopen it to link alerts.`);
  return {
    changes: { ...noIncidentChanges(), links: [{ alertId: alert.id, incidentId: incident.id }] },
    events: [],
    activity: linkEntries(alert, incident, actor, now),
  };
}

/** `PUT .../incidents/:iid`: any of these (their shapes already checked by the DTO). */
export interface IncidentUpdateRequest {
  status?: IncidentStatus;
  title?: string;
  description?: string | null;
  severity?: Severity;
  /** The member who owns it (a user id), or null: nobody. */
  ownerId?: number | null;
}

/** What an incident's update is decided on: the incident and its linked alerts, locked. */
export interface IncidentUpdateState {
  incident: StoredIncident | undefined;
  linkedAlerts: readonly StoredAlert[];
}

/**
 * An incident's update, decided over the incident and its linked alerts (locked):
 * - title, description, severity and owner are set as given, noted as one `incident_updated` entry
 *   listing each field with its old and new value (who: the entry's actor); an owner must be one of
 *   `owners` (the project's developer+ members, by user id);
 * - closing resolves every linked alert that is not resolved yet, each with its `alert.resolved`
 *   event (caused by the incident) and its `status_changed` entry, and notes `incident_closed`;
 *   reopening notes `incident_reopened` and leaves the alerts as they are.
 * Nothing that changes nothing is written.
 */
export function planIncidentUpdate(
  state: IncidentUpdateState,
  iid: string,
  request: IncidentUpdateRequest,
  owners: ReadonlyMap<string, string>,
  actor: IncidentActor,
  now: Date,
  usernames?: ReadonlyMap<string, string>,
): CommandPlan<IncidentChanges> {
  const { incident } = state;
  if (!incident) return { refused: incidentNotFound(iid) };
  let owner = incident.owner;
  if (request.ownerId !== undefined) {
    const username = request.ownerId === null ? undefined : owners.get(String(request.ownerId));
    if (request.ownerId !== null && username === undefined) {
      return { refused: refusal('invalid', 'invalid_owner', `User ${request.ownerId} cannot own the incident: not a member of the project with at least the Developer role.`, 'owner_id') };
    }
    owner = request.ownerId === null ? null : { id: String(request.ownerId), username: username as string };
  }
  const edited: StoredIncident = {
    ...incident,
    title: request.title ?? incident.title,
    description: request.description !== undefined ? request.description : incident.description,
    severity: request.severity ?? incident.severity,
    owner,
  };
  const fieldChanges = editedFields(incident, edited);
  const closing = request.status === 'closed' && incident.status !== 'closed';
  const reopening = request.status === 'open' && incident.status !== 'open';
  if (fieldChanges.length === 0 && !closing && !reopening) return unchanged();
  const after: StoredIncident = {
    ...edited,
    status: request.status ?? incident.status,
    closed_at: closing ? now : reopening ? null : incident.closed_at,
    updated_at: now,
  };
  const activity: ActivityEntryOut[] = [];
  if (fieldChanges.length > 0) activity.push(incidentEntry(incident.project_id, { incidentId: incident.id }, 'incident_updated', actor, { changes: fieldChanges }, now));
  const changes: IncidentChanges = { ...noIncidentChanges(), updated: [after] };
  const events: AlertEventOut[] = [];
  if (closing) {
    const resolution = resolveLinkedAlerts(incident, state.linkedAlerts, now);
    changes.resolvedAlerts = resolution.updates;
    events.push(...resolution.events);
    activity.push(...resolution.activity);
    activity.push(incidentEntry(incident.project_id, { incidentId: incident.id }, 'incident_closed', actor, { resolved_alert_iids: resolution.iids }, now));
  } else if (reopening) {
    activity.push(incidentEntry(incident.project_id, { incidentId: incident.id }, 'incident_reopened', actor, {}, now));
  }
  if (closing || reopening) changes.incidentEvents.push(incidentEvent(closing ? 'incident.closed' : 'incident.reopened', after, now, usernames));
  return { changes, events, activity };
}

/** One edited field of an incident, its old and its new value. */
interface FieldChange extends JsonObject {
  field: string;
  from: JsonValue;
  to: JsonValue;
}

function editedFields(before: StoredIncident, after: StoredIncident): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of ['title', 'description', 'severity'] as const) {
    if (before[field] !== after[field]) changes.push({ field, from: before[field], to: after[field] });
  }
  if (before.owner?.id !== after.owner?.id) changes.push({ field: 'owner', from: ownerValue(before.owner), to: ownerValue(after.owner) });
  return changes;
}

function ownerValue(owner: StoredAssignee | null): JsonValue {
  return owner && { id: Number(owner.id), username: owner.username };
}

/** Closing an incident: each linked alert that is not resolved becomes resolved, with its event and entry caused by the incident. */
function resolveLinkedAlerts(
  incident: StoredIncident,
  linkedAlerts: readonly StoredAlert[],
  now: Date,
): { updates: AlertStatusUpdate[]; events: AlertEventOut[]; activity: ActivityEntryOut[]; iids: number[] } {
  const cause: AlertEvent.AlertEventCause = { type: 'incident', incident_iid: incident.iid };
  const result = { updates: [] as AlertStatusUpdate[], events: [] as AlertEventOut[], activity: [] as ActivityEntryOut[], iids: [] as number[] };
  for (const alert of linkedAlerts) {
    const change = statusChange(alert.status, alert.ended_at, 'resolved', now);
    if (!change.changed) continue;
    const update: AlertStatusUpdate = { id: alert.id, status: change.status, ended_at: change.endedAt, updated_at: now };
    result.updates.push(update);
    result.events.push(alertEvent(change.eventType, withStatusUpdate(alert, update), now, cause));
    result.activity.push(statusChangeEntry(alert, alert.status, 'resolved', cause, now));
    result.iids.push(alert.iid);
  }
  return result;
}
