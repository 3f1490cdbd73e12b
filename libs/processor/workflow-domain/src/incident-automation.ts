import { AcceptedCommand, ActivityEntryOut, compareIds, StoredAlert } from '@alert-ingestion/alerts-domain';
import { AlertEvent, AlertSettingsView } from '@alert-ingestion/contracts';
import { IncidentActor, incidentCreatedRecords, incidentEntry, incidentEvent, incidentFromAlert, StoredIncident } from './incident';
import { IncidentChanges, IncidentNumbering, IncidentNumbers, newIncident, noIncidentChanges } from './incident-commands';
import { silenceReason } from './silenced';

/** What the alert settings automation does about one alert event, if anything. */
export type IncidentAutomation = { action: 'create_incident'; alertIid: number } | { action: 'close_incident'; alertIid: number } | null;

/** The switches the automation reads, and when they were last changed. */
export type AutomationSettings = Pick<AlertSettingsView, 'create_incident' | 'auto_close_incident'> & { updated_at: Date | null };

/**
 * The alert settings' automation, decided per alert event: with create_incident, an alert created
 * triggered opens an incident (never a grouped event, a resolution, or an alert created already
 * resolved); with auto_close_incident, an alert resolved by a recovery PAYLOAD may close its
 * incident (a person's resolve, a heartbeat or a closed incident does not). A setting applies to the
 * events that occur after it was last changed: turning create_incident on opens no incidents for old alerts.
 */
export function incidentAutomation(event: AlertEvent.AlertEventValue, settings: AutomationSettings): IncidentAutomation {
  if (settings.updated_at === null || Date.parse(event.occurred_at) < settings.updated_at.getTime()) return null;
  if (event.type === 'alert.created' && settings.create_incident && event.alert.status === 'triggered') return { action: 'create_incident', alertIid: event.alert.iid };
  if (event.type === 'alert.resolved' && settings.auto_close_incident && event.cause?.type === 'payload') return { action: 'close_incident', alertIid: event.alert.iid };
  return null;
}

/** The events the automation may act on: the only ones whose alerts its read needs. */
export function automationMayAct(event: Pick<AlertEvent.AlertEventValue, 'type'>): boolean {
  return event.type === 'alert.created' || event.type === 'alert.resolved';
}

/** What the automation over a chunk of alert events is decided on, read and locked by the data layer. */
export interface AutomationState {
  /** The switches of the events' projects; a project missing has them all off. */
  settings: ReadonlyMap<string, AutomationSettings>;
  /**
   * The alerts the chunk's creations and resolutions name (in projects with a switch on), and every
   * other alert of their incidents, locked.
   */
  alerts: readonly StoredAlert[];
  /** The incidents of those alerts, locked. */
  incidents: readonly StoredIncident[];
  /** The alerts whose timeline already says why no incident was opened (a chunk delivered again says it once). */
  skippedAlertIds: ReadonlySet<string>;
  /** The incident numbers reserved for the alerts without an incident. */
  numbering: IncidentNumbering;
}

const SETTINGS: IncidentActor = { type: 'service', source: 'settings' };
const PAYLOAD: IncidentActor = { type: 'service', source: 'payload' };

/**
 * The alert settings' automation over a chunk of alert events (incidentAutomation for each, with
 * its project's settings), all of it decided here and written in one transaction:
 * - create_incident: each alert created triggered gets an incident (one per alert, in alert id
 *   order; an alert that has one, or that a delivered-again event named already, gets no other). A
 *   silenced alert (silenced when it arrived, or by a silence that covers it now) gets none: its
 *   timeline says so once, as PagerDuty opens no incident in a maintenance window.
 * - auto_close_incident: when a recovery payload resolves an alert, its incident closes if no
 *   other alert of it is still open (closing then resolves nothing). While another still fires,
 *   the incident stays open and its timeline says which alert recovered and which still fire.
 * The creations come before the closes: an alert's creation precedes its resolution in its partition.
 */
export function planIncidentAutomation(state: AutomationState, events: readonly AlertEvent.AlertEventValue[], now: Date): AcceptedCommand<IncidentChanges> {
  const alertByRef = new Map(state.alerts.map((alert) => [`${alert.project_id}:${alert.iid}`, alert]));
  const incidentById = new Map(state.incidents.map((incident) => [incident.id, incident]));
  const changes = noIncidentChanges();
  const activity: ActivityEntryOut[] = [];
  const creating = new Map<string, { alert: StoredAlert; event: AlertEvent.AlertEventValue }>();
  const closing: StoredAlert[] = [];
  for (const event of events) {
    const settings = state.settings.get(String(event.project_id));
    const decision = settings ? incidentAutomation(event, settings) : null;
    const alert = decision && alertByRef.get(`${event.project_id}:${decision.alertIid}`);
    if (!decision || !alert) continue;
    if (decision.action === 'close_incident') closing.push(alert);
    else if (alert.incident_id === null && !creating.has(alert.id)) creating.set(alert.id, { alert, event });
  }

  const numbers = new IncidentNumbers(state.numbering);
  const skipped = new Set(state.skippedAlertIds);
  for (const { alert, event } of [...creating.values()].sort((a, b) => compareIds(a.alert.id, b.alert.id))) {
    const silence = event.alert.silenced_by ?? (alert.silenced_by && { id: Number(alert.silenced_by.id), comment: alert.silenced_by.comment });
    if (silence) {
      if (!skipped.has(alert.id)) activity.push(incidentEntry(alert.project_id, { alertId: alert.id }, 'incident_skipped', SETTINGS, { silence_id: silence.id }, now, silenceReason(silence, 'no incident was opened')));
      skipped.add(alert.id);
      continue;
    }
    const incident = newIncident(numbers, alert.project_id, incidentFromAlert(alert), { alert }, now);
    const records = incidentCreatedRecords(incident, alert, SETTINGS, now);
    changes.created.push(incident);
    changes.links.push({ alertId: alert.id, incidentId: incident.id });
    changes.incidentEvents.push(...records.events);
    activity.push(...records.entries);
    incidentById.set(incident.id, incident);
    alertByRef.set(`${alert.project_id}:${alert.iid}`, { ...alert, incident_id: incident.id });
  }
  changes.lastIids = numbers.lastIids;

  for (const recovered of closing) {
    const incidentId = alertByRef.get(`${recovered.project_id}:${recovered.iid}`)?.incident_id ?? null;
    const incident = incidentId === null ? undefined : incidentById.get(incidentId);
    if (!incident || incident.status === 'closed') continue;
    const stillOpen = [...alertByRef.values()]
      .filter((alert) => alert.incident_id === incident.id && alert.status !== 'resolved' && alert.id !== recovered.id)
      .map((alert) => alert.iid)
      .sort((a, b) => a - b);
    if (stillOpen.length > 0) {
      const firing = stillOpen.map((iid) => `#${iid}`).join(', ');
      const reason = `Alert #${recovered.iid} recovered; the incident stays open while ${stillOpen.length === 1 ? `alert ${firing} is` : `alerts ${firing} are`} not resolved.`;
      activity.push(incidentEntry(incident.project_id, { incidentId: incident.id }, 'incident_kept_open', PAYLOAD, { alert_iid: recovered.iid, open_alert_iids: stillOpen }, now, reason));
      continue;
    }
    const closed: StoredIncident = { ...incident, status: 'closed', closed_at: now, updated_at: now };
    incidentById.set(incident.id, closed);
    const created = changes.created.findIndex((opened) => opened.id === incident.id);
    if (created >= 0) changes.created[created] = closed;
    else changes.updated.push(closed);
    activity.push(incidentEntry(incident.project_id, { incidentId: incident.id }, 'incident_closed', PAYLOAD, { resolved_alert_iids: [], recovered_alert_iid: recovered.iid }, now));
    changes.incidentEvents.push(incidentEvent('incident.closed', closed, now));
  }
  return { changes, events: [], activity };
}
