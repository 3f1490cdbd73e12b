import { AlertEvent } from '@alert-ingestion/contracts';
import {
  alertsWithoutIncident,
  automaticIncidents,
  AutomationSettings,
  incidentAutomation,
  incidentIidsNeeded,
  incidentCreatedRecords,
  incidentFromAlert,
  incidentView,
  planAlertLink,
  planIncidentFromAlert,
  planIncidentAutomation,
  planIncidentUpdate,
  StoredIncident,
} from './incident';
import { alertEvent, StoredAlert } from './stored-alert';
import { storedAlertFixture } from './stored-alert.testing';

const now = new Date('2026-11-27T10:00:00Z');
const earlier = new Date('2026-11-27T09:00:00Z');

function alert(overrides: Partial<StoredAlert> = {}): StoredAlert {
  return storedAlertFixture({
    description: 'db-1 has no space left',
    severity: 'high',
    service: 'db',
    monitoring_tool: 'Prometheus',
    hosts: ['db-1', 'db-2'],
    payload: { title: 'Disk full', labels: { team: 'storage' } },
    started_at: earlier,
    created_at: earlier,
    updated_at: earlier,
    ...overrides,
  });
}

function incident(overrides: Partial<StoredIncident> = {}): StoredIncident {
  return {
    id: '30',
    project_id: '1',
    iid: 3,
    title: 'Storage outage',
    description: null,
    severity: 'critical',
    status: 'open',
    created_by_user_id: '12',
    created_by_alert_id: null,
    created_by_alert_iid: null,
    alert_iids: [7],
    closed_at: null,
    created_at: earlier,
    updated_at: earlier,
    ...overrides,
  };
}

const user = { type: 'user', userId: '12' } as const;

describe('incidentView', () => {
  it('names a user creator by the username given, and an alert creator by its iid', () => {
    expect(incidentView(incident(), new Map([['12', 'maria']])).created_by).toEqual({ type: 'user', id: 12, username: 'maria' });
    expect(incidentView(incident()).created_by).toEqual({ type: 'user', id: 12, username: null });
    expect(incidentView(incident({ created_by_alert_id: '500', created_by_alert_iid: 7 })).created_by).toEqual({ type: 'alert', alert_iid: 7 });
  });

  it('lists linked alerts lowest first, times as ISO text', () => {
    const view = incidentView(incident({ alert_iids: [9, 2, 7], closed_at: now }));
    expect(view).toMatchObject({ alert_iids: [2, 7, 9], closed_at: now.toISOString(), created_at: earlier.toISOString() });
  });
});

describe('incidentFromAlert', () => {
  it("copies the alert's title and severity, and its fields and payload into the description with a reference back", () => {
    const fields = incidentFromAlert(alert());
    expect(fields.title).toBe('Disk full');
    expect(fields.severity).toBe('high');
    expect(fields.description).toContain('Opened from alert #7.');
    expect(fields.description).toContain('db-1 has no space left');
    expect(fields.description).toContain('- **Hosts**: db-1, db-2');
    expect(fields.description).toContain('- **Monitoring tool**: Prometheus');
    expect(fields.description).toContain('"team": "storage"');
    expect(fields.description).not.toContain('Environment');
  });

  it('truncates a huge payload and keeps code fences in it from closing the block', () => {
    const fields = incidentFromAlert(alert({ payload: { log: 'x'.repeat(50_000), fence: '```' } }));
    expect((fields.description ?? '').length).toBeLessThan(21_000);
    expect(fields.description).toContain('(truncated; the whole payload is on alert #7)');
    expect((fields.description ?? '').match(/```/g)?.length).toBe(2);
  });
});

describe('planIncidentFromAlert', () => {
  it('refuses an alert the project does not have (404) and one that has an incident (409)', () => {
    expect(planIncidentFromAlert(undefined, 7, '12')).toEqual({ refused: expect.objectContaining({ kind: 'not_found', code: 'alert_not_found' }) });
    expect(planIncidentFromAlert(alert({ incident_id: '30' }), 7, '12')).toEqual({ refused: expect.objectContaining({ kind: 'conflict', code: 'alert_has_incident' }) });
  });

  it('opens an incident from an alert with no incident', () => {
    expect(planIncidentFromAlert(alert(), 7, null)).toMatchObject({ fields: { title: 'Disk full' }, createdByUserId: null, alert: { iid: 7 } });
  });
});

describe('incidentCreatedRecords', () => {
  it('notes the creation (with its alert) on the incident, the link on the alert, and publishes incident.created', () => {
    const created = incident({ created_by_alert_id: '500', created_by_alert_iid: 7 });
    const { entries, events } = incidentCreatedRecords(created, alert(), { type: 'service', source: 'settings' }, now);
    expect(entries.map((entry) => [entry.kind, entry.subject, entry.source, entry.actorUserId])).toEqual([
      ['incident_created', { incidentId: '30' }, 'settings', null],
      ['incident_linked', { alertId: '500' }, 'settings', null],
    ]);
    expect(entries[0].details).toEqual({ alert_iid: 7 });
    expect(events).toEqual([
      { projectId: '1', iid: 3, value: expect.objectContaining({ type: 'incident.created', project_id: 1, occurred_at: now.toISOString() }) },
    ]);
  });
});

describe('planAlertLink', () => {
  it('links an alert with no incident to an open incident', () => {
    expect(planAlertLink(incident(), '3', alert(), 7)).toEqual({ link: true });
  });

  it('changes nothing for an alert already linked to this incident', () => {
    expect(planAlertLink(incident(), '3', alert({ incident_id: '30' }), 7)).toEqual({ link: false });
  });

  it('refuses an alert of another incident, a closed incident, and names what is missing', () => {
    expect(planAlertLink(incident(), '3', alert({ incident_id: '31' }), 7)).toEqual({
      refused: expect.objectContaining({ kind: 'conflict', code: 'alert_has_incident', field: 'alert_iid' }),
    });
    expect(planAlertLink(incident({ status: 'closed' }), '3', alert(), 7)).toEqual({ refused: expect.objectContaining({ kind: 'conflict', code: 'incident_closed' }) });
    expect(planAlertLink(undefined, '3', alert(), 7)).toEqual({ refused: expect.objectContaining({ kind: 'not_found', code: 'incident_not_found' }) });
    expect(planAlertLink(incident(), '3', undefined, 7)).toEqual({ refused: expect.objectContaining({ kind: 'invalid', field: 'alert_iid' }) });
  });
});

describe('planIncidentUpdate', () => {
  const linked = [alert(), alert({ id: '501', iid: 8, status: 'acknowledged' }), alert({ id: '502', iid: 9, status: 'resolved', ended_at: earlier })];

  it('closing resolves the linked alerts that are not resolved, each with its event and entry caused by the incident', () => {
    const plan = planIncidentUpdate(incident({ alert_iids: [7, 8, 9] }), '3', linked, { status: 'closed' }, user, now);
    if ('refused' in plan) throw new Error('refused');
    expect(plan.incident).toMatchObject({ status: 'closed', closed_at: now, updated_at: now });
    expect(plan.resolvedAlerts.map((a) => [a.iid, a.status, a.ended_at])).toEqual([
      [7, 'resolved', now],
      [8, 'resolved', now],
    ]);
    expect(plan.alertEvents.map((event) => [event.iid, event.value.type, event.value.cause])).toEqual([
      [7, 'alert.resolved', { type: 'incident', incident_iid: 3 }],
      [8, 'alert.resolved', { type: 'incident', incident_iid: 3 }],
    ]);
    expect(plan.entries.map((entry) => [entry.kind, entry.subject, entry.source, entry.details])).toEqual([
      ['status_changed', { alertId: '500' }, 'incident', { from: 'triggered', to: 'resolved', incident_iid: 3 }],
      ['status_changed', { alertId: '501' }, 'incident', { from: 'acknowledged', to: 'resolved', incident_iid: 3 }],
      ['incident_closed', { incidentId: '30' }, 'api', { resolved_alert_iids: [7, 8] }],
    ]);
    expect(plan.incidentEvents.map((event) => event.value.type)).toEqual(['incident.closed']);
  });

  it('reopening leaves the alerts as they are', () => {
    const plan = planIncidentUpdate(incident({ status: 'closed', closed_at: earlier }), '3', linked, { status: 'open' }, user, now);
    if ('refused' in plan) throw new Error('refused');
    expect(plan.incident).toMatchObject({ status: 'open', closed_at: null });
    expect(plan.resolvedAlerts).toEqual([]);
    expect(plan.entries.map((entry) => entry.kind)).toEqual(['incident_reopened']);
    expect(plan.incidentEvents.map((event) => event.value.type)).toEqual(['incident.reopened']);
  });

  it('edits fields without an event, and asking for what is changes nothing', () => {
    const edited = planIncidentUpdate(incident(), '3', [], { title: 'Renamed', severity: 'low' }, user, now);
    expect(edited).toMatchObject({ incident: { title: 'Renamed', severity: 'low', updated_at: now }, incidentEvents: [], entries: [] });
    const same = incident();
    expect(planIncidentUpdate(same, '3', [], { status: 'open', title: 'Storage outage' }, user, now)).toEqual({
      incident: same,
      resolvedAlerts: [],
      entries: [],
      incidentEvents: [],
      alertEvents: [],
    });
  });

  it('refuses an incident the project does not have', () => {
    expect(planIncidentUpdate(undefined, '99', [], { status: 'closed' }, user, now)).toEqual({ refused: expect.objectContaining({ kind: 'not_found' }) });
  });
});

describe('incidentAutomation', () => {
  const on: AutomationSettings = { create_incident: true, auto_close_incident: true, updated_at: earlier };
  const event = (type: AlertEvent.AlertEventType, cause: AlertEvent.AlertEventCause, overrides: Partial<StoredAlert> = {}) =>
    alertEvent(type, alert(overrides), now, cause).value;
  const payload = { type: 'payload', integration_id: 9 } as const;

  it('opens an incident for a new triggered alert with create_incident on', () => {
    expect(incidentAutomation(event('alert.created', payload), on)).toEqual({ action: 'create_incident', alertIid: 7 });
    expect(incidentAutomation(event('alert.created', { type: 'heartbeat' }), on)).toEqual({ action: 'create_incident', alertIid: 7 });
  });

  it('opens none for grouped events, resolutions, an alert created resolved, or with the setting off', () => {
    expect(incidentAutomation(event('alert.grouped', payload), on)).toBeNull();
    expect(incidentAutomation(event('alert.created', payload, { status: 'resolved' }), on)).toBeNull();
    expect(incidentAutomation(event('alert.created', payload), { ...on, create_incident: false })).toBeNull();
  });

  it('closes the incident when a recovery payload resolves the alert, only with auto_close_incident on', () => {
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
  const on: AutomationSettings = { create_incident: true, auto_close_incident: true, updated_at: earlier };
  const payload = { type: 'payload', integration_id: 9 } as const;
  const event = (type: AlertEvent.AlertEventType, overrides: Partial<StoredAlert>) => alertEvent(type, alert(overrides), now, payload).value;

  it('opens each new alert once (a redelivered event too) and closes resolved ones, per project settings', () => {
    const events = [
      event('alert.created', { iid: 1 }),
      event('alert.created', { iid: 1 }),
      event('alert.grouped', { iid: 2 }),
      event('alert.created', { iid: 3, project_id: '2' }),
      event('alert.resolved', { iid: 1 }),
      event('alert.created', { iid: 4, project_id: '3' }),
    ];
    const settings = new Map([
      ['1', on],
      ['2', { ...on, auto_close_incident: false }],
    ]);
    expect(planIncidentAutomation(events, settings)).toEqual({
      create: [
        { projectId: '1', alertIid: 1 },
        { projectId: '2', alertIid: 3 },
      ],
      close: [{ projectId: '1', alertIid: 1 }],
    });
  });

  it('does nothing for a project without settings', () => {
    expect(planIncidentAutomation([event('alert.created', { iid: 1 })], new Map())).toEqual({ create: [], close: [] });
  });
});

describe('automaticIncidents', () => {
  it('opens one incident per alert without one, in id order, iids counting up to the reserved counter per project', () => {
    const locked = [
      alert({ id: '12', iid: 2 }),
      alert({ id: '9', iid: 1 }),
      alert({ id: '30', iid: 5, project_id: '2' }),
      alert({ id: '40', iid: 6, incident_id: '77', incident_iid: 3 }),
    ];
    const alerts = alertsWithoutIncident(locked);
    expect(alerts.map((a) => a.id)).toEqual(['9', '12', '30']);
    expect(incidentIidsNeeded(alerts)).toEqual(new Map([['1', 2], ['2', 1]]));

    const { incidents, entries, events } = automaticIncidents(alerts, ['101', '102', '103'], new Map([['1', 5], ['2', 1]]), now);
    expect(incidents.map((i) => [i.id, i.project_id, i.iid, i.created_by_alert_iid, i.alert_iids])).toEqual([
      ['101', '1', 4, 1, [1]],
      ['102', '1', 5, 2, [2]],
      ['103', '2', 1, 5, [5]],
    ]);
    expect(incidents[0]).toEqual(expect.objectContaining({ ...incidentFromAlert(alerts[0]), status: 'open', created_by_user_id: null, created_by_alert_id: '9', created_at: now }));
    // Each: incident_created (naming its alert) on the incident, incident_linked on the alert; one incident.created event.
    expect(entries.map((e) => [e.kind, e.subject, e.source])).toEqual(
      incidents.flatMap((i) => [
        ['incident_created', { incidentId: i.id }, 'settings'],
        ['incident_linked', { alertId: i.created_by_alert_id }, 'settings'],
      ]),
    );
    expect(events.map((e) => [e.value.type, e.projectId, e.iid, e.value.incident.created_by])).toEqual([
      ['incident.created', '1', 4, { type: 'alert', alert_iid: 1 }],
      ['incident.created', '1', 5, { type: 'alert', alert_iid: 2 }],
      ['incident.created', '2', 1, { type: 'alert', alert_iid: 5 }],
    ]);
  });

  it('refuses ids or iids that do not match the alerts', () => {
    const alerts = [alert({ id: '9', iid: 1 })];
    expect(() => automaticIncidents(alerts, [], new Map([['1', 1]]), now)).toThrow('1 incidents need as many ids, not 0');
    expect(() => automaticIncidents(alerts, ['1'], new Map(), now)).toThrow('no incident iids reserved for project 1');
  });
});
