import { AcceptedCommand, CommandPlan, isRefused } from '@alert-ingestion/alerts-domain';
import { incidentFromAlert } from './incident';
import { IncidentNumbers, planAlertLink, planIncidentCreation, planIncidentFromAlert, planIncidentUpdate } from './incident-commands';
import { earlier, incidentAlert as alert, now, storedIncidentFixture as incident } from './incident.testing';

const user = { type: 'user', userId: '12' } as const;
const numbering = { lastIids: new Map([['1', 4]]), ids: ['101'] };

/** The accepted plan's parts, or a failure: these specs are about accepted plans. */
function accepted<Changes>(plan: CommandPlan<Changes>): AcceptedCommand<Changes> {
  if (isRefused(plan)) throw new Error(`refused: ${JSON.stringify(plan.refused)}`);
  return plan;
}

describe('IncidentNumbers', () => {
  it('gives ids in order and iids counting up per project from the counters read', () => {
    const numbers = new IncidentNumbers({ lastIids: new Map([['1', 4], ['2', 0]]), ids: ['101', '102', '103'] });
    expect([numbers.take('1'), numbers.take('2'), numbers.take('1')]).toEqual([
      { id: '101', iid: 5 },
      { id: '102', iid: 1 },
      { id: '103', iid: 6 },
    ]);
    expect(numbers.lastIids).toEqual(new Map([['1', 6], ['2', 1]]));
    expect(() => numbers.take('1')).toThrow('no incident number reserved for project 1');
  });
});

describe('planIncidentCreation', () => {
  it('opens an incident with the next iid of the project, noted on its timeline and published', () => {
    const plan = accepted(planIncidentCreation({ numbering }, '1', { title: 'Checkout down', description: null, severity: 'high' }, user, now, new Map([['12', 'maria']])));
    expect(plan.changes?.created).toEqual([expect.objectContaining({ id: '101', iid: 5, title: 'Checkout down', status: 'open', created_by_user_id: '12', owner: null, alert_iids: [] })]);
    expect(plan.changes?.lastIids).toEqual(new Map([['1', 5]]));
    expect(plan.activity?.map((entry) => [entry.kind, entry.subject])).toEqual([['incident_created', { incidentId: '101' }]]);
    expect(plan.changes?.incidentEvents.map((event) => [event.value.type, event.value.incident.created_by])).toEqual([['incident.created', { type: 'user', id: 12, username: 'maria' }]]);
  });
});

describe('planIncidentFromAlert', () => {
  it('refuses an alert the project does not have (404) and one that has an incident (409)', () => {
    expect(planIncidentFromAlert({ alert: undefined, numbering }, 7, user, now)).toEqual({ refused: expect.objectContaining({ kind: 'not_found', code: 'alert_not_found' }) });
    expect(planIncidentFromAlert({ alert: alert({ incident_id: '30' }), numbering }, 7, user, now)).toEqual({
      refused: expect.objectContaining({ kind: 'conflict', code: 'alert_has_incident' }),
    });
  });

  it('opens an incident from an alert with no incident, linked to it', () => {
    const plan = accepted(planIncidentFromAlert({ alert: alert(), numbering }, 7, user, now));
    expect(plan.changes?.created).toEqual([expect.objectContaining({ ...incidentFromAlert(alert()), iid: 5, created_by_user_id: '12', created_by_alert_id: '500', created_by_alert_iid: 7, alert_iids: [7] })]);
    expect(plan.changes?.links).toEqual([{ alertId: '500', incidentId: '101' }]);
    expect(plan.activity?.map((entry) => [entry.kind, entry.subject])).toEqual([
      ['incident_created', { incidentId: '101' }],
      ['incident_linked', { alertId: '500' }],
    ]);
  });
});

describe('planAlertLink', () => {
  const state = (overrides: Parameters<typeof planAlertLink>[0]) => overrides;

  it('links an alert with no incident to an open incident, noted on both timelines', () => {
    const plan = accepted(planAlertLink(state({ incident: incident(), alert: alert() }), '3', 7, user, now));
    expect(plan.changes?.links).toEqual([{ alertId: '500', incidentId: '30' }]);
    expect(plan.activity?.map((entry) => [entry.kind, entry.subject])).toEqual([
      ['incident_linked', { alertId: '500' }],
      ['incident_linked', { incidentId: '30' }],
    ]);
  });

  it('changes nothing for an alert already linked to this incident', () => {
    expect(planAlertLink(state({ incident: incident(), alert: alert({ incident_id: '30' }) }), '3', 7, user, now)).toEqual({ changes: null, events: [] });
  });

  it('refuses an alert of another incident, a closed incident, and names what is missing', () => {
    expect(planAlertLink(state({ incident: incident(), alert: alert({ incident_id: '31' }) }), '3', 7, user, now)).toEqual({
      refused: expect.objectContaining({ kind: 'conflict', code: 'alert_has_incident', field: 'alert_iid' }),
    });
    expect(planAlertLink(state({ incident: incident({ status: 'closed' }), alert: alert() }), '3', 7, user, now)).toEqual({
      refused: expect.objectContaining({ kind: 'conflict', code: 'incident_closed' }),
    });
    expect(planAlertLink(state({ incident: undefined, alert: alert() }), '3', 7, user, now)).toEqual({ refused: expect.objectContaining({ kind: 'not_found', code: 'incident_not_found' }) });
    expect(planAlertLink(state({ incident: incident(), alert: undefined }), '3', 7, user, now)).toEqual({ refused: expect.objectContaining({ kind: 'invalid', field: 'alert_iid' }) });
  });
});

describe('planIncidentUpdate', () => {
  const linked = [alert(), alert({ id: '501', iid: 8, status: 'acknowledged' }), alert({ id: '502', iid: 9, status: 'resolved', ended_at: earlier })];
  const owners = new Map([['14', 'sam']]);

  it('closing resolves the linked alerts that are not resolved, in the same command, each with its event and entry caused by the incident', () => {
    const plan = accepted(planIncidentUpdate({ incident: incident({ alert_iids: [7, 8, 9] }), linkedAlerts: linked }, '3', { status: 'closed' }, owners, user, now));
    expect(plan.changes?.updated).toEqual([expect.objectContaining({ status: 'closed', closed_at: now, updated_at: now })]);
    expect(plan.changes?.resolvedAlerts).toEqual([
      { id: '500', status: 'resolved', ended_at: now, updated_at: now },
      { id: '501', status: 'resolved', ended_at: now, updated_at: now },
    ]);
    expect(plan.events.map((event) => [event.iid, event.value.type, event.value.cause])).toEqual([
      [7, 'alert.resolved', { type: 'incident', incident_iid: 3 }],
      [8, 'alert.resolved', { type: 'incident', incident_iid: 3 }],
    ]);
    expect(plan.activity?.map((entry) => [entry.kind, entry.subject, entry.source, entry.details])).toEqual([
      ['status_changed', { alertId: '500' }, 'incident', { from: 'triggered', to: 'resolved', incident_iid: 3 }],
      ['status_changed', { alertId: '501' }, 'incident', { from: 'acknowledged', to: 'resolved', incident_iid: 3 }],
      ['incident_closed', { incidentId: '30' }, 'api', { resolved_alert_iids: [7, 8] }],
    ]);
    expect(plan.changes?.incidentEvents.map((event) => event.value.type)).toEqual(['incident.closed']);
  });

  it('reopening leaves the alerts as they are', () => {
    const plan = accepted(planIncidentUpdate({ incident: incident({ status: 'closed', closed_at: earlier }), linkedAlerts: linked }, '3', { status: 'open' }, owners, user, now));
    expect(plan.changes?.updated).toEqual([expect.objectContaining({ status: 'open', closed_at: null })]);
    expect(plan.changes?.resolvedAlerts).toEqual([]);
    expect(plan.activity?.map((entry) => entry.kind)).toEqual(['incident_reopened']);
    expect(plan.changes?.incidentEvents.map((event) => event.value.type)).toEqual(['incident.reopened']);
  });

  it('notes an edit on the timeline with who made it and each old value, without an event', () => {
    const plan = accepted(planIncidentUpdate({ incident: incident(), linkedAlerts: [] }, '3', { title: 'Renamed', severity: 'low', description: 'Rolled back' }, owners, user, now));
    expect(plan.changes?.updated).toEqual([expect.objectContaining({ title: 'Renamed', severity: 'low', description: 'Rolled back', updated_at: now })]);
    expect(plan.changes?.incidentEvents).toEqual([]);
    expect(plan.activity).toEqual([
      {
        projectId: '1',
        subject: { incidentId: '30' },
        kind: 'incident_updated',
        source: 'api',
        actorUserId: '12',
        reason: null,
        details: {
          changes: [
            { field: 'title', from: 'Storage outage', to: 'Renamed' },
            { field: 'description', from: null, to: 'Rolled back' },
            { field: 'severity', from: 'critical', to: 'low' },
          ],
        },
        at: now,
      },
    ]);
  });

  it('gives the incident an owner among the developers, and takes it back with null', () => {
    const owned = accepted(planIncidentUpdate({ incident: incident(), linkedAlerts: [] }, '3', { ownerId: 14 }, owners, user, now));
    expect(owned.changes?.updated[0].owner).toEqual({ id: '14', username: 'sam' });
    expect(owned.activity?.[0].details).toEqual({ changes: [{ field: 'owner', from: null, to: { id: 14, username: 'sam' } }] });
    const released = accepted(planIncidentUpdate({ incident: incident({ owner: { id: '14', username: 'sam' } }), linkedAlerts: [] }, '3', { ownerId: null }, owners, user, now));
    expect(released.changes?.updated[0].owner).toBeNull();
    expect(planIncidentUpdate({ incident: incident(), linkedAlerts: [] }, '3', { ownerId: 99 }, owners, user, now)).toEqual({
      refused: expect.objectContaining({ kind: 'invalid', code: 'invalid_owner', field: 'owner_id' }),
    });
  });

  it('asking for what is changes nothing', () => {
    expect(planIncidentUpdate({ incident: incident(), linkedAlerts: [] }, '3', { status: 'open', title: 'Storage outage', ownerId: null }, owners, user, now)).toEqual({ changes: null, events: [] });
  });

  it('refuses an incident the project does not have', () => {
    expect(planIncidentUpdate({ incident: undefined, linkedAlerts: [] }, '99', { status: 'closed' }, owners, user, now)).toEqual({ refused: expect.objectContaining({ kind: 'not_found' }) });
  });
});
