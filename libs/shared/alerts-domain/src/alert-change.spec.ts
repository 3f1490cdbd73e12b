import { planAssignment, planBulkUpdate, requestedAssignees } from './alert-change';
import { isRefused } from './command-plan';
import { StoredAlert } from './stored-alert';
import { storedAlertFixture } from './stored-alert.testing';

const now = new Date('2026-11-27T10:00:00.000Z');
const earlier = new Date('2026-11-27T09:00:00.000Z');
const byAlice = { type: 'user', user_id: 42 } as const;
const alice = { id: '42', username: 'alice' };
const bob = { id: '7', username: 'bob' };
const candidates = new Map([
  ['42', 'alice'],
  ['7', 'bob'],
]);

function alert(iid: number, overrides: Partial<StoredAlert> = {}): StoredAlert {
  return storedAlertFixture({ id: String(500 + iid), iid, title: `Alert ${iid}`, started_at: earlier, created_at: earlier, updated_at: earlier, ...overrides });
}

describe('requestedAssignees', () => {
  it('takes developer+ members in the order asked, each once', () => {
    expect(requestedAssignees([7, 42, 7], candidates)).toEqual([bob, alice]);
    expect(requestedAssignees([], candidates)).toEqual([]);
  });

  it('refuses anyone else, naming the element of assignee_ids', () => {
    expect(requestedAssignees([42, 99], candidates)).toEqual({
      kind: 'invalid',
      code: 'invalid_assignee',
      message: 'User 99 cannot be assigned: not a member of the project with at least the Developer role.',
      field: 'assignee_ids[1]',
    });
  });
});

describe('planAssignment', () => {
  it('sets the assignees with one alert.assigned event and an assignees_changed entry', () => {
    const plan = planAssignment({ alert: alert(3, { assignees: [bob] }) }, 3, [42], candidates, now, byAlice);
    expect(plan).toEqual({
      changes: { id: '503', status: 'triggered', ended_at: null, updated_at: now, assignees: [alice] },
      events: [expect.objectContaining({ iid: 3, value: expect.objectContaining({ type: 'alert.assigned', cause: byAlice }) })],
      activity: [
        {
          projectId: '1',
          subject: { alertId: '503' },
          kind: 'assignees_changed',
          source: 'api',
          actorUserId: '42',
          reason: null,
          details: { added: [{ id: 42, username: 'alice' }], removed: [{ id: 7, username: 'bob' }] },
          at: now,
        },
      ],
    });
    if (isRefused(plan)) throw new Error('refused');
    expect(plan.events[0].value.alert.assignees).toEqual([{ id: 42, username: 'alice' }]);
  });

  it('clears them with an empty list; asking for the ones it has (in any order) changes nothing', () => {
    expect(planAssignment({ alert: alert(3, { assignees: [bob] }) }, 3, [], candidates, now, byAlice)).toMatchObject({
      changes: { assignees: [] },
      activity: [{ details: { added: [], removed: [{ id: 7, username: 'bob' }] } }],
    });
    expect(planAssignment({ alert: alert(3, { assignees: [bob, alice] }) }, 3, [42, 7], candidates, now, byAlice)).toEqual({ changes: null, events: [] });
  });

  it('assigns a resolved alert too, without touching its status', () => {
    expect(planAssignment({ alert: alert(3, { status: 'resolved', ended_at: earlier }) }, 3, [7], candidates, now, byAlice)).toMatchObject({
      changes: { status: 'resolved', ended_at: earlier, assignees: [bob] },
    });
  });

  it('refuses an unknown alert (404) and a non-candidate (400 with its field)', () => {
    expect(planAssignment({ alert: undefined }, 3, [7], candidates, now, byAlice)).toMatchObject({ refused: { kind: 'not_found', code: 'alert_not_found' } });
    expect(planAssignment({ alert: alert(3) }, 3, [5], candidates, now, byAlice)).toMatchObject({ refused: { kind: 'invalid', field: 'assignee_ids[0]' } });
  });
});

describe('planBulkUpdate', () => {
  it('acknowledges each alert asked, assigning the acknowledger where nobody is, and says which it skipped and why', () => {
    const alerts = [alert(1), alert(2, { assignees: [bob] }), alert(3, { status: 'acknowledged' }), alert(4, { status: 'resolved', ended_at: earlier })];
    const plan = planBulkUpdate(alerts, { iids: [1, 2, 3, 4, 5, 1], status: 'acknowledged' }, candidates, now, byAlice, alice);
    if (isRefused(plan) || !plan.changes) throw new Error('no changes');
    expect(plan.changes.updated).toEqual([1, 2]);
    expect(plan.changes.skipped).toEqual([
      { iid: 3, reason: 'unchanged' },
      { iid: 4, reason: 'resolved' },
      { iid: 5, reason: 'not_found' },
    ]);
    expect(plan.changes.updates).toEqual([
      { id: '501', status: 'acknowledged', ended_at: null, updated_at: now, assignees: [alice] },
      { id: '502', status: 'acknowledged', ended_at: null, updated_at: now },
    ]);
    expect(plan.events.map((event) => [event.iid, event.value.type])).toEqual([
      [1, 'alert.status_changed'],
      [1, 'alert.assigned'],
      [2, 'alert.status_changed'],
    ]);
    expect(plan.activity?.map((entry) => [entry.subject, entry.kind])).toEqual([
      [{ alertId: '501' }, 'status_changed'],
      [{ alertId: '501' }, 'assignees_changed'],
      [{ alertId: '502' }, 'status_changed'],
    ]);
  });

  it('never reopens nor reassigns a resolved alert, whatever is asked (a stale list)', () => {
    const resolved = alert(4, { status: 'resolved', ended_at: earlier });
    for (const request of [{ status: 'triggered' as const }, { status: 'acknowledged' as const }, { assigneeIds: [7] }]) {
      const plan = planBulkUpdate([resolved], { iids: [4], ...request }, candidates, now, byAlice, alice);
      expect(plan).toEqual({ changes: { updates: [], updated: [], skipped: [{ iid: 4, reason: 'resolved' }] }, events: [], activity: [] });
    }
  });

  it('sets assignees and a status together, given assignees winning over the acknowledger', () => {
    const plan = planBulkUpdate([alert(1)], { iids: [1], status: 'acknowledged', assigneeIds: [7] }, candidates, now, byAlice, alice);
    expect(plan).toMatchObject({ changes: { updates: [{ status: 'acknowledged', assignees: [bob] }], updated: [1] } });
  });

  it('refuses the whole request for a non-candidate assignee, or when nothing is asked', () => {
    expect(planBulkUpdate([alert(1)], { iids: [1], assigneeIds: [7, 99] }, candidates, now, byAlice)).toMatchObject({
      refused: { kind: 'invalid', field: 'assignee_ids[1]' },
    });
    expect(planBulkUpdate([alert(1)], { iids: [1] }, candidates, now, byAlice)).toMatchObject({ refused: { kind: 'invalid', code: 'nothing_to_update' } });
  });
});
