import { alertEvent, StoredAlert } from '@alert-ingestion/alerts-domain';
import { AlertEvent } from '@alert-ingestion/contracts';
import { incidentFromAlert } from './incident';
import { AutomationSettings, AutomationState, incidentAutomation, planIncidentAutomation } from './incident-automation';
import { earlier, incidentAlert as alert, now, storedIncidentFixture as incident } from './incident.testing';

const on: AutomationSettings = { create_incident: true, auto_close_incident: true, updated_at: earlier };
const payload = { type: 'payload', integration_id: 9 } as const;

describe('incidentAutomation', () => {
  const event = (type: AlertEvent.AlertEventType, cause: AlertEvent.AlertEventCause, overrides: Partial<StoredAlert> = {}) => alertEvent(type, alert(overrides), now, cause).value;

  it('opens an incident for a new triggered alert with create_incident on', () => {
    expect(incidentAutomation(event('alert.created', payload), on)).toEqual({ action: 'create_incident', alertIid: 7 });
    expect(incidentAutomation(event('alert.created', { type: 'heartbeat' }), on)).toEqual({ action: 'create_incident', alertIid: 7 });
  });

  it('opens none for grouped events, resolutions, an alert created resolved, or with the setting off', () => {
    expect(incidentAutomation(event('alert.grouped', payload), on)).toBeNull();
    expect(incidentAutomation(event('alert.created', payload, { status: 'resolved' }), on)).toBeNull();
    expect(incidentAutomation(event('alert.created', payload), { ...on, create_incident: false })).toBeNull();
  });

  it('may close the incident when a recovery payload resolves the alert, only with auto_close_incident on', () => {
    expect(incidentAutomation(event('alert.resolved', payload), on)).toEqual({ action: 'close_incident', alertIid: 7 });
    expect(incidentAutomation(event('alert.resolved', payload), { ...on, auto_close_incident: false })).toBeNull();
  });

  it('a manual resolve, a heartbeat or a closed incident closes nothing', () => {
    expect(incidentAutomation(event('alert.resolved', { type: 'user', user_id: 12 }), on)).toBeNull();
    expect(incidentAutomation(event('alert.resolved', { type: 'heartbeat' }), on)).toBeNull();
    expect(incidentAutomation(event('alert.resolved', { type: 'incident', incident_iid: 3 }), on)).toBeNull();
  });

  it('a setting applies to events after it was changed: never set, or changed later, does nothing', () => {
    expect(incidentAutomation(event('alert.created', payload), { ...on, updated_at: null })).toBeNull();
    expect(incidentAutomation(event('alert.created', payload), { ...on, updated_at: new Date(now.getTime() + 1) })).toBeNull();
  });
});

describe('planIncidentAutomation', () => {
  const event = (type: AlertEvent.AlertEventType, stored: StoredAlert) => alertEvent(type, stored, now, payload).value;
  const state = (overrides: Partial<AutomationState>): AutomationState => ({
    settings: new Map([['1', on]]),
    alerts: [],
    incidents: [],
    skippedAlertIds: new Set(),
    numbering: { lastIids: new Map([['1', 5], ['2', 0]]), ids: ['101', '102', '103'] },
    ...overrides,
  });

  it('opens one incident per new alert without one, in id order, once however often its event comes, per project settings', () => {
    const first = alert({ id: '12', iid: 2 });
    const second = alert({ id: '9', iid: 1 });
    const other = alert({ id: '30', iid: 5, project_id: '2' });
    const linked = alert({ id: '40', iid: 6, incident_id: '77', incident_iid: 3 });
    const noSettings = alert({ id: '50', iid: 8, project_id: '3' });
    const events = [first, second, first, other, linked, noSettings].map((stored) => event('alert.created', stored));
    const plan = planIncidentAutomation(
      state({ settings: new Map([['1', on], ['2', { ...on, auto_close_incident: false }]]), alerts: [first, second, other, linked, noSettings] }),
      events,
      now,
    );
    expect(plan.changes?.created.map((i) => [i.id, i.project_id, i.iid, i.created_by_alert_iid, i.alert_iids])).toEqual([
      ['101', '1', 6, 1, [1]],
      ['102', '1', 7, 2, [2]],
      ['103', '2', 1, 5, [5]],
    ]);
    expect(plan.changes?.created[0]).toEqual(expect.objectContaining({ ...incidentFromAlert(second), status: 'open', created_by_user_id: null, created_by_alert_id: '9', created_at: now }));
    expect(plan.changes?.links).toEqual([
      { alertId: '9', incidentId: '101' },
      { alertId: '12', incidentId: '102' },
      { alertId: '30', incidentId: '103' },
    ]);
    expect(plan.changes?.lastIids).toEqual(new Map([['1', 7], ['2', 1]]));
    expect(plan.activity?.map((e) => [e.kind, e.subject, e.source])).toEqual(
      (plan.changes?.created ?? []).flatMap((i) => [
        ['incident_created', { incidentId: i.id }, 'settings'],
        ['incident_linked', { alertId: i.created_by_alert_id }, 'settings'],
      ]),
    );
    expect(plan.changes?.incidentEvents.map((e) => [e.value.type, e.projectId, e.iid])).toEqual([
      ['incident.created', '1', 6],
      ['incident.created', '1', 7],
      ['incident.created', '2', 1],
    ]);
  });

  it('opens no incident for an alert a silence covered when it arrived or covers now, and says so once', () => {
    const silencedAtArrival = alert({ id: '12', iid: 2 });
    const arrivedEvent = { ...event('alert.created', silencedAtArrival), alert: { ...event('alert.created', silencedAtArrival).alert, silenced_by: { id: 4, comment: 'maintenance', ends_at: '2026-11-27T12:00:00.000Z' } } };
    const silencedNow = alert({ id: '13', iid: 3, silenced_by: { id: '5', comment: 'deploy', ends_at: new Date('2026-11-27T12:00:00Z') } });
    const plan = planIncidentAutomation(state({ alerts: [silencedAtArrival, silencedNow] }), [arrivedEvent, event('alert.created', silencedNow)], now);
    expect(plan.changes?.created).toEqual([]);
    expect(plan.activity?.map((e) => [e.kind, e.subject, e.reason])).toEqual([
      ['incident_skipped', { alertId: '12' }, 'Silenced by silence #4 (maintenance): no incident was opened.'],
      ['incident_skipped', { alertId: '13' }, 'Silenced by silence #5 (deploy): no incident was opened.'],
    ]);
    const again = planIncidentAutomation(state({ alerts: [silencedAtArrival, silencedNow], skippedAlertIds: new Set(['12', '13']) }), [arrivedEvent, event('alert.created', silencedNow)], now);
    expect(again.activity).toEqual([]);
  });

  it('closes an incident when the recovery resolves its last open alert, resolving nothing else', () => {
    const recovered = alert({ id: '500', iid: 7, status: 'resolved', incident_id: '30' });
    const earlierResolved = alert({ id: '501', iid: 8, status: 'resolved', incident_id: '30' });
    const plan = planIncidentAutomation(state({ alerts: [recovered, earlierResolved], incidents: [incident({ alert_iids: [7, 8] })] }), [event('alert.resolved', recovered)], now);
    expect(plan.changes?.updated).toEqual([expect.objectContaining({ id: '30', status: 'closed', closed_at: now })]);
    expect(plan.changes?.resolvedAlerts).toEqual([]);
    expect(plan.events).toEqual([]);
    expect(plan.activity?.map((e) => [e.kind, e.source, e.details])).toEqual([['incident_closed', 'payload', { resolved_alert_iids: [], recovered_alert_iid: 7 }]]);
    expect(plan.changes?.incidentEvents.map((e) => e.value.type)).toEqual(['incident.closed']);
  });

  it('keeps an incident open while another of its alerts still fires, and says which recovered and which fire', () => {
    const recovered = alert({ id: '529', iid: 29, status: 'resolved', incident_id: '30' });
    const firing = alert({ id: '512', iid: 12, status: 'triggered', incident_id: '30' });
    const plan = planIncidentAutomation(state({ alerts: [recovered, firing], incidents: [incident({ alert_iids: [12, 29] })] }), [event('alert.resolved', recovered)], now);
    expect(plan.changes?.updated).toEqual([]);
    expect(plan.changes?.resolvedAlerts).toEqual([]);
    expect(plan.activity).toEqual([
      {
        projectId: '1',
        subject: { incidentId: '30' },
        kind: 'incident_kept_open',
        source: 'payload',
        actorUserId: null,
        reason: 'Alert #29 recovered; the incident stays open while alert #12 is not resolved.',
        details: { alert_iid: 29, open_alert_iids: [12] },
        at: now,
      },
    ]);
  });

  it('opens and closes in one chunk: an alert created and recovered closes the incident opened for it', () => {
    const created = alert({ id: '9', iid: 1 });
    const resolved = { ...created, status: 'resolved' as const };
    const plan = planIncidentAutomation(state({ alerts: [resolved] }), [event('alert.created', created), event('alert.resolved', resolved)], now);
    expect(plan.changes?.created).toEqual([expect.objectContaining({ id: '101', status: 'closed', closed_at: now })]);
    expect(plan.changes?.incidentEvents.map((e) => [e.value.type, e.value.incident.status])).toEqual([
      ['incident.created', 'open'],
      ['incident.closed', 'closed'],
    ]);
  });

  it('leaves a closed incident, an alert without one, and a project without settings alone', () => {
    const recovered = alert({ id: '500', iid: 7, status: 'resolved', incident_id: '30' });
    expect(planIncidentAutomation(state({ alerts: [recovered], incidents: [incident({ status: 'closed' })] }), [event('alert.resolved', recovered)], now)).toEqual({
      changes: expect.objectContaining({ created: [], updated: [] }),
      events: [],
      activity: [],
    });
    const alone = alert({ id: '500', iid: 7, status: 'resolved' });
    expect(planIncidentAutomation(state({ alerts: [alone] }), [event('alert.resolved', alone)], now).activity).toEqual([]);
    expect(planIncidentAutomation(state({ settings: new Map(), alerts: [alert()] }), [event('alert.created', alert())], now).changes?.created).toEqual([]);
  });
});
