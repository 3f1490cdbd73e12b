import { HandoffState, planHandoffs } from './handoff-plan';
import { RotationVersion } from './rotation';
import { StoredSchedule } from './stored-schedule';
import { DAY_MS, HOUR_MS } from './zoned-time';

const ada = { userId: '1', username: 'ada' };
const bob = { userId: '2', username: 'bob' };
const cy = { userId: '3', username: 'cy' };
const at = (iso: string) => Date.parse(iso);

const schedule: StoredSchedule = { id: '7', projectId: '5', name: 'Primary', description: null, timeZone: 'Europe/Berlin', calendarTokenCreatedAt: null, createdAt: 0, updatedAt: 0 };
const daily: RotationVersion = {
  effectiveFrom: at('2026-03-01T00:00:00Z'),
  effectiveUntil: null,
  timeZone: 'Europe/Berlin',
  startsAt: Temporal.PlainDateTime.from('2026-03-27T09:00'),
  endsAt: null,
  shiftLength: { length: 1, unit: 'days' },
  activePeriod: null,
  participants: [ada, bob],
};

function state(overrides: Partial<HandoffState>): HandoffState {
  return {
    now: at('2026-03-29T07:00:05Z'),
    schedule,
    publishedUntil: at('2026-03-29T06:59:00Z'),
    publishedOnCall: [bob],
    timeline: { rotations: [{ id: '11', name: 'Days', versions: [daily] }], overrides: [] },
    ...overrides,
  };
}

describe('planHandoffs', () => {
  it('publishes the handoff at the same local time over the change, keyed by schedule and instant, and looks again at the next one', () => {
    const plan = planHandoffs(state({}));
    expect(plan.events).toEqual([
      {
        key: '7:2026-03-29T07:00:00.000Z',
        value: {
          type: 'oncall.shift_started',
          occurred_at: '2026-03-29T07:00:00.000Z',
          project_id: 5,
          schedule: { id: 7, name: 'Primary', time_zone: 'Europe/Berlin' },
          on_call: [
            {
              user: { id: 1, username: 'ada' },
              reasons: [{ source: 'rotation', rotation: { id: 11, name: 'Days' }, override_id: null, shift_starts_at: '2026-03-29T07:00:00.000Z', shift_ends_at: '2026-03-30T07:00:00.000Z' }],
            },
          ],
          previous: [{ id: 2, username: 'bob' }],
        },
      },
    ]);
    expect(plan.publishedUntil).toBe(at('2026-03-29T07:00:05Z'));
    expect(plan.publishedOnCall).toEqual([ada]);
    expect(plan.nextCheckAt).toBe(at('2026-03-30T07:00:00Z'));
  });

  it('publishes nothing twice: from where it stopped, the same state gives no event', () => {
    const first = planHandoffs(state({}));
    expect(planHandoffs(state({ publishedUntil: first.publishedUntil, publishedOnCall: first.publishedOnCall })).events).toEqual([]);
  });

  it('publishes an override starting and ending, and nothing for a handoff from a member to the same member', () => {
    const override = { id: '31', rotationId: '11', user: cy, start: at('2026-03-29T08:00:00Z'), end: at('2026-03-29T09:00:00Z'), createdBy: null, createdAt: 0 };
    const plan = planHandoffs(state({ now: at('2026-03-29T10:00:00Z'), publishedOnCall: [ada], publishedUntil: at('2026-03-29T07:30:00Z'), timeline: { rotations: [{ id: '11', name: 'Days', versions: [daily] }], overrides: [override] } }));
    expect(plan.events.map((event) => [event.value.occurred_at, event.value.previous.map((user) => user.username), event.value.on_call.map((member) => member.user.username)])).toEqual([
      ['2026-03-29T08:00:00.000Z', ['ada'], ['cy']],
      ['2026-03-29T09:00:00.000Z', ['cy'], ['ada']],
    ]);
    expect(plan.events[0].value.on_call[0].reasons[0]).toEqual(expect.objectContaining({ source: 'override', override_id: 31 }));
  });

  it('catches up a week at a time after a long stop, and asks to be looked at again at once', () => {
    const now = at('2026-04-10T12:00:00Z');
    const first = planHandoffs(state({ now, publishedUntil: at('2026-03-30T12:00:00Z'), publishedOnCall: [bob] }));
    expect(first.events).toHaveLength(7);
    expect(first.publishedUntil).toBe(at('2026-03-30T12:00:00Z') + 7 * DAY_MS);
    expect(first.nextCheckAt).toBe(now);
    const second = planHandoffs(state({ now, publishedUntil: first.publishedUntil, publishedOnCall: first.publishedOnCall }));
    expect(second.events).toHaveLength(4);
    expect(second.publishedUntil).toBe(now);
  });

  it('takes a member who left the project off call from where it stopped publishing', () => {
    const plan = planHandoffs(state({ now: at('2026-03-29T07:00:05Z') + HOUR_MS, members: new Set(['2']) }));
    expect(plan.events.map((event) => [event.value.occurred_at, event.value.on_call])).toEqual([['2026-03-29T07:00:00.000Z', []]]);
  });
});
