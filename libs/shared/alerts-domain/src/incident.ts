import { AlertEvent, AlertSettingsView, IncidentEvent, IncidentStatus, IncidentView, Severity } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';
import { ActivityEntryOut, statusChangeEntry } from './activity';
import { alertNotFound, statusChange, withStatusUpdate } from './alert-status';
import { CommandRefusal, refusal } from './command-plan';
import { compareIds } from './decimal-ids';
import { AlertEventOut, alertEvent, StoredAlert } from './stored-alert';

/** A stored incident (ids of bigint columns as decimal strings), with the iids of its linked alerts. */
export interface StoredIncident {
  id: string;
  project_id: string;
  iid: number;
  title: string;
  description: string | null;
  severity: Severity;
  status: IncidentStatus;
  created_by_user_id: string | null;
  /** Set when the incident was opened from an alert (by hand or by the create_incident setting). */
  created_by_alert_id: string | null;
  created_by_alert_iid: number | null;
  alert_iids: number[];
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An incident event to publish on incidents.events.v1, keyed by the incident's project and iid. */
export interface IncidentEventOut {
  projectId: string;
  iid: number;
  value: IncidentEvent.IncidentEventValue;
}

/**
 * Who asks for a change to an incident: a user (null id: the administrator token), or the service,
 * applying the alert settings (`settings`: create_incident) or a recovery payload (`payload`: auto_close_incident).
 */
export type IncidentActor = { type: 'user'; userId: string | null } | { type: 'service'; source: 'settings' | 'payload' };

/** What an incident's fields may be set to: a title of 1 to 255 characters, a description up to 100,000. */
export const INCIDENT_TITLE_MAX = 255;
export const INCIDENT_DESCRIPTION_MAX = 100_000;

/** The API's incident; `usernames` names the users it refers to (user id -> username) when known. */
export function incidentView(incident: StoredIncident, usernames: ReadonlyMap<string, string> = new Map()): IncidentView {
  return {
    iid: incident.iid,
    title: incident.title,
    description: incident.description,
    severity: incident.severity,
    status: incident.status,
    created_by:
      incident.created_by_alert_id !== null
        ? { type: 'alert', alert_iid: incident.created_by_alert_iid }
        : {
            type: 'user',
            id: incident.created_by_user_id === null ? null : Number(incident.created_by_user_id),
            username: incident.created_by_user_id === null ? null : (usernames.get(incident.created_by_user_id) ?? null),
          },
    alert_iids: [...incident.alert_iids].sort((a, b) => a - b),
    created_at: incident.created_at.toISOString(),
    updated_at: incident.updated_at.toISOString(),
    closed_at: incident.closed_at ? incident.closed_at.toISOString() : null,
  };
}

export function incidentEvent(type: IncidentEvent.IncidentEventType, incident: StoredIncident, now: Date, usernames?: ReadonlyMap<string, string>): IncidentEventOut {
  return {
    projectId: incident.project_id,
    iid: incident.iid,
    value: { type, occurred_at: now.toISOString(), project_id: Number(incident.project_id), incident: incidentView(incident, usernames) },
  };
}

/** The fields of a new incident. */
export interface IncidentFields {
  title: string;
  description: string | null;
  severity: Severity;
}

/** The payload copied into an incident opened from an alert, at most this many characters of its JSON. */
const COPIED_PAYLOAD_MAX = 20_000;

/**
 * An incident opened from an alert ("Create incident", or the create_incident setting): the alert's
 * title and severity, and a description (Markdown) with the alert's fields and payload and a
 * reference back to it.
 */
export function incidentFromAlert(alert: StoredAlert): IncidentFields {
  const rows: Array<[string, string | null]> = [
    ['Alert', `#${alert.iid}`],
    ['Severity', alert.severity],
    ['Started at', alert.started_at.toISOString()],
    ['Service', alert.service],
    ['Monitoring tool', alert.monitoring_tool],
    ['Hosts', alert.hosts && alert.hosts.length > 0 ? alert.hosts.join(', ') : null],
    ['Environment', alert.platform_environment_name],
    ['Fingerprint', alert.fingerprint],
  ];
  const payload = JSON.stringify(alert.payload, null, 2) ?? 'null';
  const copied = payload.length > COPIED_PAYLOAD_MAX ? `${payload.slice(0, COPIED_PAYLOAD_MAX)}\n… (truncated; the whole payload is on alert #${alert.iid})` : payload;
  const description = [
    `Opened from alert #${alert.iid}.`,
    ...(alert.description ? ['', alert.description] : []),
    '',
    ...rows.filter((row): row is [string, string] => row[1] !== null).map(([name, value]) => `- **${name}**: ${value}`),
    '',
    '```json',
    copied.replaceAll('```', '`\u200b``'),
    '```',
  ].join('\n');
  return { title: alert.title.slice(0, INCIDENT_TITLE_MAX), description, severity: alert.severity };
}

function entry(projectId: string, subject: ActivityEntryOut['subject'], kind: ActivityEntryOut['kind'], actor: IncidentActor, details: JsonObject, at: Date): ActivityEntryOut {
  return { projectId, subject, kind, ...actorOrigin(actor), reason: null, details, at };
}

function actorOrigin(actor: IncidentActor): Pick<ActivityEntryOut, 'source' | 'actorUserId'> {
  return actor.type === 'user' ? { source: 'api', actorUserId: actor.userId } : { source: actor.source, actorUserId: null };
}

/** The entries of an alert linked to an incident: one on each timeline. */
export function linkEntries(alert: StoredAlert, incident: Pick<StoredIncident, 'id' | 'iid'>, actor: IncidentActor, at: Date): ActivityEntryOut[] {
  return [alertLinkedEntry(alert, incident, actor, at), entry(alert.project_id, { incidentId: incident.id }, 'incident_linked', actor, linkDetails(alert, incident), at)];
}

/** The alert's side of a link: "linked this alert to incident #N" on the alert's timeline. */
function alertLinkedEntry(alert: StoredAlert, incident: Pick<StoredIncident, 'id' | 'iid'>, actor: IncidentActor, at: Date): ActivityEntryOut {
  return entry(alert.project_id, { alertId: alert.id }, 'incident_linked', actor, linkDetails(alert, incident), at);
}

function linkDetails(alert: StoredAlert, incident: Pick<StoredIncident, 'iid'>): JsonObject {
  return { incident_iid: incident.iid, alert_iid: alert.iid };
}

/** What opening an incident writes: the incident (its id and iid given by the data layer), the alert it links, its entries and event. */
export interface IncidentCreation {
  fields: IncidentFields;
  createdByUserId: string | null;
  /** The alert it is opened from and linked to, or null. */
  alert: StoredAlert | null;
}

/**
 * Opening an incident from an alert, decided over the alert as stored (locked): refused when the
 * project has no such alert, or when the alert already has an incident (one per alert).
 */
export function planIncidentFromAlert(alert: StoredAlert | undefined, iid: number, createdByUserId: string | null): IncidentCreation | { refused: CommandRefusal } {
  if (!alert) return { refused: alertNotFound(String(iid)) };
  if (alert.incident_id !== null) {
    return { refused: refusal('conflict', 'alert_has_incident', `Alert ${iid} already has an incident.`) };
  }
  return { fields: incidentFromAlert(alert), createdByUserId, alert };
}

/**
 * The entries and event of an incident just opened (`incident` as inserted; its alert, if any,
 * linked): `incident_created` on the incident, naming the alert it was opened from, and the link on
 * the alert's timeline. The incident's own timeline gets no `incident_linked` for that alert: its
 * `incident_created` already says it, and an automatic incident per alert would write it once more.
 */
export function incidentCreatedRecords(
  incident: StoredIncident,
  alert: StoredAlert | null,
  actor: IncidentActor,
  now: Date,
  usernames?: ReadonlyMap<string, string>,
): { entries: ActivityEntryOut[]; events: IncidentEventOut[] } {
  const details: JsonObject = alert ? { alert_iid: alert.iid } : {};
  return {
    entries: [entry(incident.project_id, { incidentId: incident.id }, 'incident_created', actor, details, now), ...(alert ? [alertLinkedEntry(alert, incident, actor, now)] : [])],
    events: [incidentEvent('incident.created', incident, now, usernames)],
  };
}

/**
 * Linking an alert to an incident (`POST .../incidents/:iid/alerts {alert_iid}`): an alert has at
 * most one incident, so an alert of another incident is refused (409); linking an alert already
 * linked to this one changes nothing. Only an open incident takes new alerts.
 */
export function planAlertLink(
  incident: StoredIncident | undefined,
  incidentIid: string,
  alert: StoredAlert | undefined,
  alertIid: number,
): { link: boolean } | { refused: CommandRefusal } {
  if (!incident) return { refused: incidentNotFound(incidentIid) };
  if (!alert) return { refused: refusal('invalid', 'alert_not_found', `Alert ${alertIid} not found.`, 'alert_iid') };
  if (alert.incident_id === incident.id) return { link: false };
  if (alert.incident_id !== null) return { refused: refusal('conflict', 'alert_has_incident', `Alert ${alertIid} already belongs to another incident.`, 'alert_iid') };
  if (incident.status === 'closed') return { refused: refusal('conflict', 'incident_closed', `Incident ${incident.iid} is closed: reopen it to link alerts.`) };
  return { link: true };
}

/** `PUT .../incidents/:iid`: any of these (already validated by their DTO). */
export interface IncidentUpdateRequest {
  status?: IncidentStatus;
  title?: string;
  description?: string | null;
  severity?: Severity;
}

/** What an incident update writes. */
export interface IncidentUpdatePlan {
  incident: StoredIncident;
  /** The linked alerts that closing resolves, as they are after it. */
  resolvedAlerts: StoredAlert[];
  entries: ActivityEntryOut[];
  incidentEvents: IncidentEventOut[];
  alertEvents: AlertEventOut[];
}

/**
 * An incident's update, decided over the incident and its linked alerts (locked). Closing resolves
 * every linked alert that is not resolved yet, each with its `alert.resolved` event (caused by the
 * incident) and its `status_changed` entry, and notes `incident_closed` on the incident's timeline;
 * reopening notes `incident_reopened` and leaves the alerts as they are. Title, description and
 * severity are set as given. Nothing that changes nothing is written.
 */
export function planIncidentUpdate(
  incident: StoredIncident | undefined,
  iid: string,
  linkedAlerts: readonly StoredAlert[],
  request: IncidentUpdateRequest,
  actor: IncidentActor,
  now: Date,
  usernames?: ReadonlyMap<string, string>,
): IncidentUpdatePlan | { refused: CommandRefusal } {
  if (!incident) return { refused: incidentNotFound(iid) };
  let next: StoredIncident = { ...incident };
  if (request.title !== undefined) next.title = request.title;
  if (request.description !== undefined) next.description = request.description;
  if (request.severity !== undefined) next.severity = request.severity;
  const statusChanged = request.status !== undefined && request.status !== incident.status;
  if (statusChanged) next = { ...next, status: request.status as IncidentStatus, closed_at: request.status === 'closed' ? now : null };
  const fieldsChanged = next.title !== incident.title || next.description !== incident.description || next.severity !== incident.severity;
  if (!statusChanged && !fieldsChanged) return { incident, resolvedAlerts: [], entries: [], incidentEvents: [], alertEvents: [] };
  next.updated_at = now;
  const entries: ActivityEntryOut[] = [];
  const alertEvents: AlertEventOut[] = [];
  const resolvedAlerts: StoredAlert[] = [];
  if (statusChanged && next.status === 'closed') {
    const cause: AlertEvent.AlertEventCause = { type: 'incident', incident_iid: incident.iid };
    for (const alert of linkedAlerts) {
      const change = statusChange(alert.status, alert.ended_at, 'resolved', now);
      if (!change.changed) continue;
      const resolved = withStatusUpdate(alert, { id: alert.id, status: change.status, ended_at: change.endedAt, updated_at: now });
      resolvedAlerts.push(resolved);
      alertEvents.push(alertEvent(change.eventType, resolved, now, cause));
      entries.push(statusChangeEntry(alert, alert.status, 'resolved', cause, now));
    }
    entries.push(entry(incident.project_id, { incidentId: incident.id }, 'incident_closed', actor, { resolved_alert_iids: resolvedAlerts.map((alert) => alert.iid) }, now));
  } else if (statusChanged) {
    entries.push(entry(incident.project_id, { incidentId: incident.id }, 'incident_reopened', actor, {}, now));
  }
  const incidentEvents = statusChanged ? [incidentEvent(next.status === 'closed' ? 'incident.closed' : 'incident.reopened', next, now, usernames)] : [];
  return { incident: next, resolvedAlerts, entries, incidentEvents, alertEvents };
}

/** What the alert settings automation does about one alert event, if anything. */
export type IncidentAutomation = { action: 'create_incident'; alertIid: number } | { action: 'close_incident'; alertIid: number } | null;

/** The switches the automation reads, and when they were last changed. */
export type AutomationSettings = Pick<AlertSettingsView, 'create_incident' | 'auto_close_incident'> & { updated_at: Date | null };

/**
 * The alert settings' automation, decided per alert event: with create_incident, an alert created
 * triggered opens an incident (never a grouped event, a resolution, or an alert created already
 * resolved); with auto_close_incident, an alert resolved by a recovery PAYLOAD closes its incident
 * (a person's resolve, a heartbeat or a closed incident does not). A setting applies to the events
 * that occur after it was last changed: turning create_incident on opens no incidents for old alerts.
 */
export function incidentAutomation(event: AlertEvent.AlertEventValue, settings: AutomationSettings): IncidentAutomation {
  if (settings.updated_at === null || Date.parse(event.occurred_at) < settings.updated_at.getTime()) return null;
  if (event.type === 'alert.created' && settings.create_incident && event.alert.status === 'triggered') return { action: 'create_incident', alertIid: event.alert.iid };
  if (event.type === 'alert.resolved' && settings.auto_close_incident && event.cause?.type === 'payload') return { action: 'close_incident', alertIid: event.alert.iid };
  return null;
}

/** An alert named by its project and iid. */
export interface AlertRef {
  projectId: string;
  alertIid: number;
}

/** What the automation does about a batch of alert events: the alerts to open incidents for, and those whose incidents to close, in event order. */
export interface IncidentAutomationPlan {
  /** Each alert once, though its event may come twice (a redelivery). */
  create: AlertRef[];
  close: AlertRef[];
}

/**
 * incidentAutomation over a batch of events, with the settings of their projects (a project
 * missing from `settings` has them all off). An alert's creation comes before its resolution in
 * its partition, so opening the batch's incidents before closing any keeps each alert's order.
 */
export function planIncidentAutomation(events: readonly AlertEvent.AlertEventValue[], settings: ReadonlyMap<string, AutomationSettings>): IncidentAutomationPlan {
  const plan: IncidentAutomationPlan = { create: [], close: [] };
  const created = new Set<string>();
  for (const event of events) {
    const projectId = String(event.project_id);
    const projectSettings = settings.get(projectId);
    const decision = projectSettings ? incidentAutomation(event, projectSettings) : null;
    if (decision === null) continue;
    const ref = { projectId, alertIid: decision.alertIid };
    if (decision.action === 'close_incident') plan.close.push(ref);
    else if (!created.has(`${projectId}:${decision.alertIid}`)) {
      created.add(`${projectId}:${decision.alertIid}`);
      plan.create.push(ref);
    }
  }
  return plan;
}

/** The alerts (as stored, locked) that the create_incident setting opens an incident for: those with none yet, in id order. */
export function alertsWithoutIncident(locked: readonly StoredAlert[]): StoredAlert[] {
  return locked.filter((alert) => alert.incident_id === null).sort((a, b) => compareIds(a.id, b.id));
}

/** How many incident iids each project needs for these alerts. */
export function incidentIidsNeeded(alerts: readonly StoredAlert[]): Map<string, number> {
  const needed = new Map<string, number>();
  for (const alert of alerts) needed.set(alert.project_id, (needed.get(alert.project_id) ?? 0) + 1);
  return needed;
}

/** Incidents opened together from alerts: the rows, with their timeline entries and events. */
export interface AutomaticIncidents {
  incidents: StoredIncident[];
  entries: ActivityEntryOut[];
  events: IncidentEventOut[];
}

/**
 * The incidents the create_incident setting opens for `alerts` (alertsWithoutIncident), one each,
 * linked to it: ids in the order given (`ids`, taken from the incidents' sequence), iids per
 * project counting up to the project's counter after the batch reserved its iids (`lastIids`, as
 * incidentIidsNeeded asked), in alert order.
 */
export function automaticIncidents(alerts: readonly StoredAlert[], ids: readonly string[], lastIids: ReadonlyMap<string, number>, now: Date): AutomaticIncidents {
  if (ids.length !== alerts.length) throw new Error(`${alerts.length} incidents need as many ids, not ${ids.length}`);
  const needed = incidentIidsNeeded(alerts);
  const nextIid = new Map<string, number>();
  for (const [projectId, count] of needed) {
    const last = lastIids.get(projectId);
    if (last === undefined) throw new Error(`no incident iids reserved for project ${projectId}`);
    nextIid.set(projectId, last - count + 1);
  }
  const actor: IncidentActor = { type: 'service', source: 'settings' };
  const result: AutomaticIncidents = { incidents: [], entries: [], events: [] };
  alerts.forEach((alert, index) => {
    const iid = nextIid.get(alert.project_id) as number;
    nextIid.set(alert.project_id, iid + 1);
    const incident: StoredIncident = {
      id: ids[index],
      project_id: alert.project_id,
      iid,
      ...incidentFromAlert(alert),
      status: 'open',
      created_by_user_id: null,
      created_by_alert_id: alert.id,
      created_by_alert_iid: alert.iid,
      alert_iids: [alert.iid],
      closed_at: null,
      created_at: now,
      updated_at: now,
    };
    const { entries, events } = incidentCreatedRecords(incident, alert, actor, now);
    result.incidents.push(incident);
    result.entries.push(...entries);
    result.events.push(...events);
  });
  return result;
}

export function incidentNotFound(iid: string): CommandRefusal {
  return refusal('not_found', 'incident_not_found', `Incident ${iid} not found.`);
}
