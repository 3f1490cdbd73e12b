import { finalShifts, gapsIn, Override, ScheduleTimeline } from './final-shifts';
import { membersOnCall, onCallAt, onCallChanges } from './on-call';
import { RotationTimeline, RotationVersion } from './rotation';
import { HOUR_MS } from './zoned-time';

const ada = { userId: '1', username: 'ada' };
const bob = { userId: '2', username: 'bob' };
const cy = { userId: '3', username: 'cy' };
const dee = { userId: '4', username: 'dee' };

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();

function rules(overrides: Partial<RotationVersion> = {}): RotationVersion {
  return {
    effectiveFrom: 0,
    effectiveUntil: null,
    timeZone: 'UTC',
    startsAt: Temporal.PlainDateTime.from('2026-06-01T09:00'),
    endsAt: null,
    shiftLength: { length: 1, unit: 'days' },
    activePeriod: null,
    participants: [ada, bob],
    ...overrides,
  };
}

const rotation = (id: string, versions: RotationVersion[] = [rules()]): RotationTimeline => ({ id, name: `rotation ${id}`, versions });
const override = (id: string, user: typeof ada, start: string, end: string, rotationId: string | null = 'r1'): Override => ({
  id,
  user,
  rotationId,
  start: at(start),
  end: at(end),
});

/** The final shifts as `[start, end, username, source, rotation]`. */
function table(timeline: ScheduleTimeline, start: string, end: string) {
  return finalShifts(timeline, { start: at(start), end: at(end) }).map((shift) => [iso(shift.start), iso(shift.end), shift.user.username, shift.source, shift.rotationId]);
}

describe('final shifts', () => {
  it('are the rotation shifts when nothing overrides them', () => {
    expect(table({ rotations: [rotation('r1')], overrides: [] }, '2026-06-01T00:00:00Z', '2026-06-03T00:00:00Z')).toEqual([
      ['2026-06-01T09:00:00.000Z', '2026-06-02T09:00:00.000Z', 'ada', 'rotation', 'r1'],
      ['2026-06-02T09:00:00.000Z', '2026-06-03T00:00:00.000Z', 'bob', 'rotation', 'r1'],
    ]);
  });

  it('give an override the whole of its window, across a handoff, and the rotation back around it', () => {
    const timeline = { rotations: [rotation('r1')], overrides: [override('10', cy, '2026-06-02T06:00:00Z', '2026-06-02T12:00:00Z')] };
    expect(table(timeline, '2026-06-01T09:00:00Z', '2026-06-03T09:00:00Z')).toEqual([
      ['2026-06-01T09:00:00.000Z', '2026-06-02T06:00:00.000Z', 'ada', 'rotation', 'r1'],
      ['2026-06-02T06:00:00.000Z', '2026-06-02T12:00:00.000Z', 'cy', 'override', 'r1'],
      ['2026-06-02T12:00:00.000Z', '2026-06-03T09:00:00.000Z', 'bob', 'rotation', 'r1'],
    ]);
  });

  it('let an override start before the rotation and cover its inactive periods', () => {
    const daytime = rules({ activePeriod: { start: Temporal.PlainTime.from('09:00'), end: Temporal.PlainTime.from('17:00') } });
    const timeline = { rotations: [rotation('r1', [daytime])], overrides: [override('10', cy, '2026-05-31T20:00:00Z', '2026-06-01T12:00:00Z')] };
    expect(table(timeline, '2026-05-31T00:00:00Z', '2026-06-02T00:00:00Z')).toEqual([
      ['2026-05-31T20:00:00.000Z', '2026-06-01T12:00:00.000Z', 'cy', 'override', 'r1'],
      ['2026-06-01T12:00:00.000Z', '2026-06-01T17:00:00.000Z', 'ada', 'rotation', 'r1'],
    ]);
  });

  it('take the newest override where two overlap, and the older one where only it remains', () => {
    const timeline = {
      rotations: [rotation('r1')],
      overrides: [override('10', cy, '2026-06-01T10:00:00Z', '2026-06-01T14:00:00Z'), override('11', dee, '2026-06-01T12:00:00Z', '2026-06-01T13:00:00Z')],
    };
    expect(table(timeline, '2026-06-01T09:00:00Z', '2026-06-01T15:00:00Z')).toEqual([
      ['2026-06-01T09:00:00.000Z', '2026-06-01T10:00:00.000Z', 'ada', 'rotation', 'r1'],
      ['2026-06-01T10:00:00.000Z', '2026-06-01T12:00:00.000Z', 'cy', 'override', 'r1'],
      ['2026-06-01T12:00:00.000Z', '2026-06-01T13:00:00.000Z', 'dee', 'override', 'r1'],
      ['2026-06-01T13:00:00.000Z', '2026-06-01T14:00:00.000Z', 'cy', 'override', 'r1'],
      ['2026-06-01T14:00:00.000Z', '2026-06-01T15:00:00.000Z', 'ada', 'rotation', 'r1'],
    ]);
  });

  it('put every rotation in force on call at once; a schedule override takes over all of them', () => {
    const nights = rules({ participants: [cy], startsAt: Temporal.PlainDateTime.from('2026-06-01T00:00') });
    const timeline = { rotations: [rotation('r1'), rotation('r2', [nights])], overrides: [override('10', dee, '2026-06-01T12:00:00Z', '2026-06-01T13:00:00Z', null)] };
    expect(table(timeline, '2026-06-01T10:00:00Z', '2026-06-01T14:00:00Z')).toEqual([
      ['2026-06-01T10:00:00.000Z', '2026-06-01T12:00:00.000Z', 'ada', 'rotation', 'r1'],
      ['2026-06-01T10:00:00.000Z', '2026-06-01T12:00:00.000Z', 'cy', 'rotation', 'r2'],
      ['2026-06-01T12:00:00.000Z', '2026-06-01T13:00:00.000Z', 'dee', 'override', null],
      ['2026-06-01T13:00:00.000Z', '2026-06-01T14:00:00.000Z', 'ada', 'rotation', 'r1'],
      ['2026-06-01T13:00:00.000Z', '2026-06-01T14:00:00.000Z', 'cy', 'rotation', 'r2'],
    ]);
  });

  it('keep a shift whole across a version that changed nothing for it, and split it where the new version hands over', () => {
    const before = rules({ effectiveUntil: at('2026-06-01T15:00:00Z') });
    const same = rules({ effectiveFrom: at('2026-06-01T15:00:00Z'), effectiveUntil: at('2026-06-02T15:00:00Z') });
    const reordered = rules({ effectiveFrom: at('2026-06-02T15:00:00Z'), participants: [cy, ada] });
    expect(table({ rotations: [rotation('r1', [before, same, reordered])], overrides: [] }, '2026-06-01T09:00:00Z', '2026-06-03T12:00:00Z')).toEqual([
      ['2026-06-01T09:00:00.000Z', '2026-06-02T09:00:00.000Z', 'ada', 'rotation', 'r1'],
      ['2026-06-02T09:00:00.000Z', '2026-06-02T15:00:00.000Z', 'bob', 'rotation', 'r1'],
      ['2026-06-02T15:00:00.000Z', '2026-06-03T09:00:00.000Z', 'ada', 'rotation', 'r1'],
      ['2026-06-03T09:00:00.000Z', '2026-06-03T12:00:00.000Z', 'cy', 'rotation', 'r1'],
    ]);
  });

  it('start a new shift at a handoff to the same participant', () => {
    const alone = { rotations: [rotation('r1', [rules({ participants: [ada] })])], overrides: [] };
    expect(table(alone, '2026-06-01T09:00:00Z', '2026-06-03T09:00:00Z')).toHaveLength(2);
  });

  it('count a member removed from the project for nothing from now on: their override falls through, their shifts leave a gap', () => {
    const timeline = { rotations: [rotation('r1')], overrides: [override('10', cy, '2026-06-01T10:00:00Z', '2026-06-03T00:00:00Z')] };
    const eligibility = { now: at('2026-06-01T12:00:00Z'), isMember: (userId: string) => userId !== cy.userId && userId !== bob.userId };
    const shifts = finalShifts(timeline, { start: at('2026-06-01T09:00:00Z'), end: at('2026-06-03T12:00:00Z') }, eligibility);
    expect(shifts.map((shift) => [iso(shift.start), iso(shift.end), shift.user.username])).toEqual([
      ['2026-06-01T09:00:00.000Z', '2026-06-01T10:00:00.000Z', 'ada'],
      ['2026-06-01T10:00:00.000Z', '2026-06-01T12:00:00.000Z', 'cy'],
      ['2026-06-01T12:00:00.000Z', '2026-06-02T09:00:00.000Z', 'ada'],
      ['2026-06-03T09:00:00.000Z', '2026-06-03T12:00:00.000Z', 'ada'],
    ]);
    expect(gapsIn(shifts, { start: at('2026-06-01T00:00:00Z'), end: at('2026-06-03T12:00:00Z') }).map((gap) => [iso(gap.start), iso(gap.end)])).toEqual([
      ['2026-06-01T00:00:00.000Z', '2026-06-01T09:00:00.000Z'],
      ['2026-06-02T09:00:00.000Z', '2026-06-03T09:00:00.000Z'],
    ]);
  });
});

describe('who is on call', () => {
  const timeline = { rotations: [rotation('r1'), rotation('r2', [rules({ participants: [ada, cy], shiftLength: { length: 12, unit: 'hours' } })])], overrides: [] };

  it('names each member once, with every reason and the whole shift, at any instant', () => {
    const members = onCallAt(timeline, at('2026-09-01T10:00:00Z'));
    expect(members.map((member) => [member.user.username, member.reasons.map((reason) => [reason.rotationId, iso(reason.shift.start), iso(reason.shift.end)])])).toEqual([
      [
        'ada',
        [
          ['r1', '2026-09-01T09:00:00.000Z', '2026-09-02T09:00:00.000Z'],
          ['r2', '2026-09-01T09:00:00.000Z', '2026-09-01T21:00:00.000Z'],
        ],
      ],
    ]);
  });

  it('reads a shift longer than the first window whole', () => {
    const long = { rotations: [rotation('r1', [rules({ participants: [ada], shiftLength: { length: 4, unit: 'weeks' } })])], overrides: [] };
    const [member] = onCallAt(long, at('2026-06-15T00:00:00Z'));
    expect((member.reasons[0].shift.end - member.reasons[0].shift.start) / HOUR_MS).toBe(4 * 7 * 24);
  });

  it('lists the changes of who is on call, once each, and no handoff from a member to the same member', () => {
    const changes = onCallChanges(timeline, at('2026-06-01T08:00:00Z'), at('2026-06-02T10:00:00Z'), []);
    expect(changes.map((change) => [iso(change.at), change.previous.map((user) => user.username), change.onCall.map((member) => member.user.username)])).toEqual([
      ['2026-06-01T09:00:00.000Z', [], ['ada']],
      ['2026-06-01T21:00:00.000Z', ['ada'], ['ada', 'cy']],
      ['2026-06-02T09:00:00.000Z', ['ada', 'cy'], ['bob', 'ada']],
    ]);
    expect(membersOnCall(finalShifts(timeline, { start: at('2026-06-02T09:00:00Z'), end: at('2026-06-02T10:00:00Z') }), at('2026-06-02T09:30:00Z'))).toHaveLength(2);
  });
});
