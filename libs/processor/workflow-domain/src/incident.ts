import { ActivityEntryOut, CommandRefusal, refusal, StoredAlert, StoredAssignee } from '@alert-ingestion/alerts-domain';
import { AlertStatus, IncidentAlertView, IncidentEvent, IncidentStatus, IncidentView, Severity } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';

// An incident (docs/api-guide.md "Incidents"): what is stored, what the API and incident events
// show, and the timeline entries its changes write. The commands that change incidents are in
// incident-commands.ts, the alert settings' automation in incident-automation.ts.

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
  /** The member who owns it (its id and username, kept with it as alerts keep their assignees'), or nobody. */
  owner: StoredAssignee | null;
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
    owner: incident.owner && { id: Number(incident.owner.id), username: incident.owner.username },
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

/** An entry of `actor` on a timeline. */
export function incidentEntry(
  projectId: string,
  subject: ActivityEntryOut['subject'],
  kind: ActivityEntryOut['kind'],
  actor: IncidentActor,
  details: JsonObject,
  at: Date,
  reason: string | null = null,
): ActivityEntryOut {
  return { projectId, subject, kind, ...actorOrigin(actor), reason, details, at };
}

function actorOrigin(actor: IncidentActor): Pick<ActivityEntryOut, 'source' | 'actorUserId'> {
  return actor.type === 'user' ? { source: 'api', actorUserId: actor.userId } : { source: actor.source, actorUserId: null };
}

/** The entries of an alert linked to an incident: one on each timeline. */
export function linkEntries(alert: StoredAlert, incident: Pick<StoredIncident, 'id' | 'iid'>, actor: IncidentActor, at: Date): ActivityEntryOut[] {
  return [alertLinkedEntry(alert, incident, actor, at), incidentEntry(alert.project_id, { incidentId: incident.id }, 'incident_linked', actor, linkDetails(alert, incident), at)];
}

/** The alert's side of a link: "linked this alert to incident #N" on the alert's timeline. */
function alertLinkedEntry(alert: StoredAlert, incident: Pick<StoredIncident, 'id' | 'iid'>, actor: IncidentActor, at: Date): ActivityEntryOut {
  return incidentEntry(alert.project_id, { alertId: alert.id }, 'incident_linked', actor, linkDetails(alert, incident), at);
}

function linkDetails(alert: StoredAlert, incident: Pick<StoredIncident, 'iid'>): JsonObject {
  return { incident_iid: incident.iid, alert_iid: alert.iid };
}

/**
 * The entries and event of an incident just opened (`incident`; its alert, if any, linked):
 * `incident_created` on the incident, naming the alert it was opened from, and the link on the
 * alert's timeline. The incident's own timeline gets no `incident_linked` for that alert: its
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
    entries: [incidentEntry(incident.project_id, { incidentId: incident.id }, 'incident_created', actor, details, now), ...(alert ? [alertLinkedEntry(alert, incident, actor, now)] : [])],
    events: [incidentEvent('incident.created', incident, now, usernames)],
  };
}

export function incidentNotFound(iid: string): CommandRefusal {
  return refusal('not_found', 'incident_not_found', `Incident ${iid} not found.`);
}

/** An alert linked to an incident, as stored (ids and times as read). */
export interface StoredIncidentAlert {
  iid: number;
  title: string;
  severity: Severity;
  status: AlertStatus;
  events: number;
  started_at: Date;
  ended_at: Date | null;
  last_event_at: Date;
}

/** Open alerts (triggered, then acknowledged) come before the rest (resolved, ignored). */
const INCIDENT_ALERT_ORDER: Record<AlertStatus, number> = { triggered: 0, acknowledged: 1, resolved: 2, ignored: 3 };

/**
 * An incident's alerts as its page lists them: the ones still open first (triggered before
 * acknowledged), each group by its latest event, newest first, then by iid.
 */
export function incidentAlertsView(alerts: readonly StoredIncidentAlert[]): IncidentAlertView[] {
  return [...alerts]
    .sort(
      (a, b) =>
        INCIDENT_ALERT_ORDER[a.status] - INCIDENT_ALERT_ORDER[b.status] || b.last_event_at.getTime() - a.last_event_at.getTime() || a.iid - b.iid,
    )
    .map((alert) => ({
      iid: alert.iid,
      title: alert.title,
      severity: alert.severity,
      status: alert.status,
      events: alert.events,
      started_at: alert.started_at.toISOString(),
      ended_at: alert.ended_at ? alert.ended_at.toISOString() : null,
      last_event_at: alert.last_event_at.toISOString(),
    }));
}
