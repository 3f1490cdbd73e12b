import { AlertSilence, AlertStatus } from '@alert-ingestion/contracts';
import { EscalationPolicy } from './escalation-policy';
import { alertKey, EscalatedEvent, EscalationEventState, planEscalationEvents } from './escalation-events';
import { StoredEscalation } from './stored-escalation';

const clock = { minuteMs: 60_000 };
const now = new Date('2026-11-29T10:00:00.000Z');
const policy: EscalationPolicy = {
  repeat: 0,
  rules: [
    { afterMinutes: 0, condition: 'not_acknowledged', targets: [{ type: 'user', userId: '7', username: 'ada' }] },
    { afterMinutes: 30, condition: 'not_resolved', targets: [{ type: 'user', userId: '8', username: 'lead' }] },
  ],
};

function event(type: EscalatedEvent['type'], status: AlertStatus, at = '2026-11-29T09:59:00.000Z', silencedBy: AlertSilence | null = null, cause?: EscalatedEvent['cause']): EscalatedEvent {
  return { type, occurred_at: at, project_id: 5, alert: { iid: 12, status, silenced_by: silencedBy }, cause };
}

function state(overrides: Partial<EscalationEventState> = {}): EscalationEventState {
  return {
    policies: new Map([['5', { policy, since: Date.parse('2026-11-01T00:00:00Z') }]]),
    escalations: new Map(),
    startedBy: new Set(),
    paged: new Map(),
    noticeUsers: new Set(),
    usernames: new Map([['9', 'bob']]),
    ...overrides,
  };
}

const running: StoredEscalation = {
  id: '40',
  projectId: '5',
  alertId: '300',
  alertIid: 12,
  run: 1,
  startedAt: Date.parse('2026-11-29T09:00:00.000Z'),
  startedByEvent: 'e',
  policy,
  state: 'running',
  nextStep: { loop: 0, rule: 1 },
  nextDueAt: Date.parse('2026-11-29T09:30:00.000Z'),
  endedAt: null,
  endedReason: null,
};

describe('escalations started and stopped by alert events', () => {
  it('starts a new triggered alert with the policy in force, its first rule due at once', () => {
    const plan = planEscalationEvents([event('alert.created', 'triggered')], state(), clock, now);
    expect(plan.changes?.starts).toEqual([
      expect.objectContaining({ projectId: '5', alertIid: 12, run: 1, state: 'running', policy, nextStep: { loop: 0, rule: 0 }, nextDueAt: Date.parse('2026-11-29T09:59:00.000Z') }),
    ]);
    expect(plan.activity?.map((entry) => entry.kind)).toEqual(['escalation_started']);
  });

  it('starts nothing for a grouped repeat, an alert triggered before the policy, a project without one, or an event seen already', () => {
    expect(planEscalationEvents([event('alert.grouped', 'triggered')], state(), clock, now).changes).toBeNull();
    expect(planEscalationEvents([event('alert.created', 'triggered', '2026-10-01T00:00:00.000Z')], state(), clock, now).changes).toBeNull();
    expect(planEscalationEvents([event('alert.created', 'triggered')], state({ policies: new Map() }), clock, now).changes).toBeNull();
    expect(planEscalationEvents([event('alert.created', 'triggered')], state({ startedBy: new Set(['5:12:alert.created:2026-11-29T09:59:00.000Z']) }), clock, now).changes).toBeNull();
  });

  it('pages nobody for a silenced alert, and says why on its timeline', () => {
    const plan = planEscalationEvents([event('alert.created', 'triggered', undefined, { id: 3, comment: 'Maintenance', ends_at: '2026-11-29T12:00:00.000Z' })], state(), clock, now);
    expect(plan.changes?.starts[0]).toMatchObject({ state: 'skipped', nextStep: null });
    expect(plan.activity).toEqual([expect.objectContaining({ kind: 'escalation_skipped', reason: 'Silenced by silence #3 (Maintenance): nobody was paged.' })]);
  });

  it('stops the "not acknowledged" rules on acknowledgement and cancels their pages, noting who', () => {
    const plan = planEscalationEvents([event('alert.status_changed', 'acknowledged', undefined, null, { type: 'user', user_id: 9 })], state({ escalations: new Map([[alertKey('5', 12), running]]) }), clock, now);
    expect(plan.changes?.updates).toEqual([{ id: '40', state: 'acknowledged', nextStep: { loop: 0, rule: 1 }, nextDueAt: Date.parse('2026-11-29T09:30:00.000Z'), endedAt: null, endedReason: null }]);
    expect(plan.changes?.cancellations).toEqual([{ escalationId: '40', conditions: ['not_acknowledged'], reason: 'The alert was acknowledged by @bob before the page went.' }]);
    expect(plan.activity?.map((entry) => entry.reason)).toEqual(['Acknowledged by @bob: its "if not resolved" rules go on.']);
  });

  it('ends the run on resolution and sends notices to those paged who asked for them, once per contact method', () => {
    const paged = new Map([
      [
        '40',
        [
          { userId: '7', username: 'ada', method: 'email' as const, address: 'ada@example.com', contactMethodId: '1' },
          { userId: '7', username: 'ada', method: 'email' as const, address: 'ada@example.com', contactMethodId: '1' },
          { userId: '8', username: 'lead', method: 'webhook' as const, address: 'https://lead.example.com/', contactMethodId: '2' },
        ],
      ],
    ]);
    const plan = planEscalationEvents([event('alert.resolved', 'resolved', undefined, null, { type: 'payload', integration_id: 1 })], state({ escalations: new Map([[alertKey('5', 12), running]]), paged, noticeUsers: new Set(['7']) }), clock, now);
    expect(plan.changes?.updates[0]).toMatchObject({ state: 'ended', nextStep: null, endedReason: 'resolved' });
    expect(plan.changes?.cancellations[0].conditions).toEqual(['not_acknowledged', 'not_resolved']);
    expect(plan.changes?.notices).toEqual([expect.objectContaining({ kind: 'notice', userId: '7', method: 'email', address: 'ada@example.com', notice: { of: 'resolved', by: 'a recovery payload' } })]);
  });

  it('starts over from the first rule when the alert is triggered again, and only once per event', () => {
    const ended = { ...running, state: 'ended' as const, nextStep: null, nextDueAt: null, endedReason: 'resolved' };
    const retrigger = event('alert.status_changed', 'triggered', '2026-11-29T09:59:30.000Z', null, { type: 'user', user_id: 9 });
    const plan = planEscalationEvents([retrigger], state({ escalations: new Map([[alertKey('5', 12), ended]]) }), clock, now);
    expect(plan.changes?.starts).toEqual([expect.objectContaining({ run: 2, state: 'running', nextStep: { loop: 0, rule: 0 }, nextDueAt: Date.parse('2026-11-29T09:59:30.000Z') })]);
    expect(planEscalationEvents([retrigger], state({ escalations: new Map([[alertKey('5', 12), ended]]), startedBy: new Set(['5:12:alert.status_changed:2026-11-29T09:59:30.000Z']) }), clock, now).changes).toBeNull();
  });

  it('plays a chunk in order: created, acknowledged, resolved and triggered again', () => {
    const plan = planEscalationEvents(
      [
        event('alert.created', 'triggered', '2026-11-29T09:59:00.000Z'),
        event('alert.status_changed', 'acknowledged', '2026-11-29T09:59:10.000Z'),
        event('alert.resolved', 'resolved', '2026-11-29T09:59:20.000Z'),
        event('alert.status_changed', 'triggered', '2026-11-29T09:59:30.000Z'),
      ],
      state(),
      clock,
      now,
    );
    expect(plan.changes?.starts.map((start) => [start.run, start.state, start.endedReason])).toEqual([
      [1, 'ended', 'resolved'],
      [2, 'running', null],
    ]);
    expect(plan.changes?.starts[1].replacing).toBe(plan.changes?.starts[0]);
    expect(plan.activity?.map((entry) => entry.kind)).toEqual(['escalation_started', 'escalation_stopped', 'escalation_stopped', 'escalation_started']);
  });
});
