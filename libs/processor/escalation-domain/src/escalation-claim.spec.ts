import { EscalationPolicy } from './escalation-policy';
import { EngineClaimState, planEngineClaim } from './escalation-claim';
import { PagedAlert, StoredEscalation, StoredPage, UserPaging } from './stored-escalation';

const minute = 60_000;
const now = Date.parse('2026-11-29T10:00:00.000Z');
const settings = { clock: { minuteMs: minute }, emailConfigured: true };
const policy: EscalationPolicy = {
  repeat: 1,
  rules: [
    { afterMinutes: 0, condition: 'not_acknowledged', targets: [{ type: 'schedule', scheduleId: '3', name: 'Primary' }, { type: 'user', userId: '7', username: 'ada' }] },
    { afterMinutes: 10, condition: 'not_resolved', targets: [{ type: 'user', userId: '8', username: 'lead' }, { type: 'webhook', url: 'https://chat.example.com/hook' }] },
  ],
};
const alert: PagedAlert = { id: '300', projectId: '5', iid: 12, status: 'triggered' };

function escalation(overrides: Partial<StoredEscalation> = {}): StoredEscalation {
  return {
    id: '40',
    projectId: '5',
    alertId: '300',
    alertIid: 12,
    run: 1,
    startedAt: now,
    startedByEvent: 'e',
    policy,
    state: 'running',
    nextStep: { loop: 0, rule: 0 },
    nextDueAt: now,
    endedAt: null,
    endedReason: null,
    ...overrides,
  };
}

const ada: UserPaging = {
  userId: '7',
  methods: [
    { id: '1', userId: '7', type: 'email', name: 'Work', address: 'ada@example.com' },
    { id: '2', userId: '7', type: 'webhook', name: 'Phone', address: 'https://phone.example.com/' },
  ],
  rules: [
    { id: '1', contactMethodId: '1', afterMinutes: 0 },
    { id: '2', contactMethodId: '2', afterMinutes: 5 },
  ],
};
const lead: UserPaging = { userId: '8', methods: [{ id: '3', userId: '8', type: 'email', name: 'Mail', address: 'lead@example.com' }], rules: [] };

function state(overrides: Partial<EngineClaimState> = {}): EngineClaimState {
  return {
    now,
    due: [{ escalation: escalation(), alert }],
    pages: [],
    // Ada is on call in Primary (an override of the whole schedule), so the rule's two targets page her once.
    schedules: new Map([['3', { name: 'Primary', timeline: { rotations: [], overrides: [{ id: '1', rotationId: null, user: { userId: '7', username: 'ada' }, start: now - minute, end: now + 60 * minute }] } }]]),
    members: new Map([['5', new Set(['7', '8'])]]),
    paging: new Map([
      ['7', ada],
      ['8', lead],
    ]),
    ...overrides,
  };
}

describe("the engine's claim", () => {
  it('pages each member of a rule once, by their notification rules, and moves to the next step', () => {
    const plan = planEngineClaim(state(), settings);
    expect(plan.changes?.pages.map((page) => [page.userId, page.method, page.address, (page.dueAt - now) / minute])).toEqual([
      ['7', 'email', 'ada@example.com', 0],
      ['7', 'webhook', 'https://phone.example.com/', 5],
    ]);
    expect(plan.changes?.escalations).toEqual([{ id: '40', state: 'running', nextStep: { loop: 0, rule: 1 }, nextDueAt: now + 10 * minute, endedAt: null, endedReason: null }]);
    expect(plan.changes?.steps).toEqual([{ escalationId: '40', step: { loop: 0, rule: 0 }, dueAt: now }]);
    expect(new Set(plan.changes?.pages.map((page) => page.idempotencyKey)).size).toBe(2);
  });

  it('records whom a rule could not reach, and takes the next rule at once when it reached nobody', () => {
    const plan = planEngineClaim(
      state({ schedules: new Map([['3', { name: 'Primary', timeline: { rotations: [], overrides: [] } }]]), paging: new Map([['8', lead]]) }),
      settings,
    );
    expect(plan.activity?.map((entry) => [entry.kind, entry.details['skipped'], entry.reason])).toEqual([
      ['page_skipped', 'nobody_on_call', 'Nobody is on call in Primary.'],
      ['page_skipped', 'no_contact_method', '@ada has no contact method: not notified.'],
    ]);
    // The second rule (due at 10 minutes) is taken now: the lead by email (no rules: every method at once) and the webhook.
    expect(plan.changes?.pages.map((page) => [page.rule, page.method, page.address])).toEqual([
      [1, 'webhook', 'https://chat.example.com/hook'],
      [1, 'email', 'lead@example.com'],
    ]);
    expect(plan.changes?.escalations[0]).toMatchObject({ nextStep: { loop: 1, rule: 0 }, nextDueAt: now + 15 * minute });
  });

  it('skips the rules an acknowledgement stops, even before the escalation has heard of it', () => {
    const plan = planEngineClaim(state({ due: [{ escalation: escalation(), alert: { ...alert, status: 'acknowledged' } }] }), settings);
    expect(plan.changes?.pages).toEqual([]);
    expect(plan.changes?.escalations[0]).toMatchObject({ state: 'running', nextStep: { loop: 0, rule: 1 }, nextDueAt: now + 10 * minute });
  });

  it('takes every step due while nobody took them, then ends after the last loop', () => {
    const late = escalation({ startedAt: now - 30 * minute, nextDueAt: now - 30 * minute });
    const plan = planEngineClaim(state({ due: [{ escalation: late, alert }] }), settings);
    expect(plan.changes?.steps.map((step) => [step.step.loop, step.step.rule, (now - step.dueAt) / minute])).toEqual([
      [0, 0, 30],
      [0, 1, 20],
      [1, 0, 15],
      [1, 1, 5],
    ]);
    expect(plan.changes?.escalations[0]).toMatchObject({ state: 'ended', nextStep: null, nextDueAt: null, endedReason: 'completed' });
    expect(plan.activity?.map((entry) => entry.details['stopped'])).toContain('completed');
  });

  it('uses no email method when the service sends no email, and says so', () => {
    const plan = planEngineClaim(state({ due: [{ escalation: escalation({ nextStep: { loop: 0, rule: 1 }, nextDueAt: now }), alert }] }), { ...settings, emailConfigured: false });
    expect(plan.changes?.pages.map((page) => page.method)).toEqual(['webhook']);
    expect(plan.activity?.map((entry) => entry.details['skipped'])).toEqual(['email_not_configured']);
  });

  it('leases due pages whose condition still holds and cancels the others; a notice always goes', () => {
    const page = (id: string, condition: StoredPage['condition'], kind: StoredPage['kind'] = 'page'): { page: StoredPage; alert: PagedAlert } => ({
      page: { id, escalationId: '40', projectId: '5', alertId: '300', kind, loop: 0, rule: 0, condition, method: 'email', userId: '7', username: 'ada', address: 'a@example.com', contactMethodId: '1', dueAt: now, notice: null, idempotencyKey: id, status: 'pending', attempts: 0, error: null, sentAt: null },
      alert: { ...alert, status: 'acknowledged' },
    });
    const plan = planEngineClaim(state({ due: [], pages: [page('1', 'not_acknowledged'), page('2', 'not_resolved'), page('3', null, 'notice')] }), settings);
    expect(plan.changes?.claimed).toEqual(['2', '3']);
    expect(plan.changes?.cancelled).toEqual([{ id: '1', error: 'Alert #12 was acknowledged before the page went.' }]);
  });
});
