import { ALERT_STATUSES } from '@alert-ingestion/contracts';
import { planStatusChange } from './alert-change';
import { StatusChangeState, statusChange } from './alert-status';
import { isRefused } from './command-plan';
import { StoredAlert } from './stored-alert';
import { storedAlertFixture } from './stored-alert.testing';

const now = new Date('2024-06-01T00:00:00Z');
const earlier = new Date('2024-05-01T00:00:00Z');

describe('statusChange', () => {
  it.each(ALERT_STATUSES.map((status) => [status]))('changes nothing when %s is asked again', (status) => {
    expect(statusChange(status, earlier, status, now)).toEqual({ changed: false });
  });

  it.each([['triggered'], ['acknowledged'], ['ignored']] as const)('resolving from %s publishes alert.resolved and sets ended_at', (from) => {
    expect(statusChange(from, null, 'resolved', now)).toEqual({ changed: true, status: 'resolved', endedAt: now, eventType: 'alert.resolved' });
  });

  it('reopening a resolved alert publishes alert.status_changed and clears ended_at', () => {
    expect(statusChange('resolved', earlier, 'triggered', now)).toEqual({
      changed: true,
      status: 'triggered',
      endedAt: null,
      eventType: 'alert.status_changed',
    });
  });

  it('other changes publish alert.status_changed and keep ended_at', () => {
    expect(statusChange('triggered', null, 'acknowledged', now)).toEqual({
      changed: true,
      status: 'acknowledged',
      endedAt: null,
      eventType: 'alert.status_changed',
    });
    expect(statusChange('acknowledged', null, 'ignored', now)).toMatchObject({ status: 'ignored', eventType: 'alert.status_changed' });
  });
});

describe('planStatusChange', () => {
  const stored = storedAlertFixture({
    events: 3,
    fingerprint: 'disk',
    fingerprint_sha256: 'f'.repeat(64),
    payload: { title: 'Disk full' },
    silenced_by: { id: '3', comment: 'maintenance', ends_at: new Date('2024-06-02T00:00:00Z') },
    started_at: earlier,
    created_at: earlier,
    updated_at: earlier,
  });
  const state = (overrides: Partial<StoredAlert> = {}, openDuplicateIid: number | null = null): StatusChangeState => ({
    alert: { ...stored, ...overrides },
    openDuplicateIid,
  });

  const byUser = { type: 'user', user_id: 42 } as const;

  it('refuses an iid the project has no alert of (404 alert_not_found)', () => {
    expect(planStatusChange({ alert: undefined, openDuplicateIid: null }, 7, 'acknowledged', now, byUser)).toEqual({
      refused: { kind: 'not_found', code: 'alert_not_found', message: 'Alert 7 not found.' },
    });
  });

  it('writes the status, one alert.status_changed event carrying the alert after the change (silence as stored) and its timeline entry', () => {
    const plan = planStatusChange(state(), 7, 'acknowledged', now, byUser);
    expect(plan).toEqual({
      changes: { id: '500', status: 'acknowledged', ended_at: null, updated_at: now },
      events: [
        {
          projectId: '1',
          iid: 7,
          value: expect.objectContaining({ type: 'alert.status_changed', occurred_at: now.toISOString(), project_id: 1, cause: byUser }),
        },
      ],
      activity: [
        {
          projectId: '1',
          subject: { alertId: '500' },
          kind: 'status_changed',
          source: 'api',
          actorUserId: '42',
          reason: null,
          details: { from: 'triggered', to: 'acknowledged' },
          at: now,
        },
      ],
    });
    if (isRefused(plan)) throw new Error('refused');
    expect(plan.events[0].value.alert).toMatchObject({
      iid: 7,
      status: 'acknowledged',
      ended_at: null,
      updated_at: now.toISOString(),
      events: 3,
      silenced_by: { id: 3, comment: 'maintenance', ends_at: '2024-06-02T00:00:00.000Z' },
    });
  });

  it('resolving writes ended_at and publishes alert.resolved', () => {
    const plan = planStatusChange(state(), 7, 'resolved', now, byUser);
    expect(plan).toMatchObject({ changes: { status: 'resolved', ended_at: now }, events: [{ value: { type: 'alert.resolved' } }] });
  });

  it('asking for the status the alert has writes nothing and publishes nothing', () => {
    expect(planStatusChange(state({ status: 'acknowledged' }), 7, 'acknowledged', now, byUser)).toEqual({ changes: null, events: [] });
    // Even a resolved alert whose fingerprint has another open alert: nothing is reopened.
    expect(planStatusChange(state({ status: 'resolved', ended_at: earlier }, 8), 7, 'resolved', now, byUser)).toEqual({ changes: null, events: [] });
  });

  it('never reopens a resolved alert by an acknowledge or an ignore (a stale change racing a recovery): 409, only triggered reopens', () => {
    for (const requested of ['acknowledged', 'ignored'] as const) {
      expect(planStatusChange(state({ status: 'resolved', ended_at: earlier }), 7, requested, now, byUser)).toEqual({
        refused: { kind: 'conflict', code: 'alert_resolved', message: 'Alert 7 is resolved: set it to triggered to reopen it.' },
      });
    }
  });

  it('acknowledging an alert nobody is assigned to assigns the acknowledger, with alert.assigned after the status event', () => {
    const alice = { id: '42', username: 'alice' };
    const plan = planStatusChange(state(), 7, 'acknowledged', now, byUser, alice);
    expect(plan).toMatchObject({
      changes: { status: 'acknowledged', assignees: [alice] },
      events: [
        { value: { type: 'alert.status_changed', alert: { status: 'acknowledged', assignees: [{ id: 42, username: 'alice' }] } } },
        { value: { type: 'alert.assigned', cause: byUser, alert: { assignees: [{ id: 42, username: 'alice' }] } } },
      ],
      activity: [{ kind: 'status_changed' }, { kind: 'assignees_changed', details: { added: [{ id: 42, username: 'alice' }], removed: [] } }],
    });
    // Somebody is assigned already: the acknowledger is not added; other statuses assign nobody.
    const bob = { id: '7', username: 'bob' };
    expect(planStatusChange(state({ assignees: [bob] }), 7, 'acknowledged', now, byUser, alice)).toMatchObject({ events: [{ value: { type: 'alert.status_changed' } }] });
    expect(planStatusChange(state({ assignees: [bob] }), 7, 'acknowledged', now, byUser, alice)).not.toHaveProperty('changes.assignees');
    expect(planStatusChange(state(), 7, 'resolved', now, byUser, alice)).not.toHaveProperty('changes.assignees');
    // The administrator token names no user: nobody is assigned.
    expect(planStatusChange(state(), 7, 'acknowledged', now, { type: 'user', user_id: null })).not.toHaveProperty('changes.assignees');
  });

  it('reopening a resolved alert clears ended_at', () => {
    expect(planStatusChange(state({ status: 'resolved', ended_at: earlier }), 7, 'triggered', now, byUser)).toMatchObject({
      changes: { status: 'triggered', ended_at: null },
      events: [{ value: { type: 'alert.status_changed', alert: { status: 'triggered', ended_at: null } } }],
    });
  });

  it('refuses to reopen a resolved alert while another alert of its fingerprint is not resolved (409)', () => {
    expect(planStatusChange(state({ status: 'resolved', ended_at: earlier }, 8), 7, 'triggered', now, byUser)).toEqual({
      refused: { kind: 'conflict', code: 'conflict', message: 'Alert 7 cannot be reopened: another alert with the same fingerprint is not resolved.' },
    });
  });
});
