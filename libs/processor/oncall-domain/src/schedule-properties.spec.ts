import fc from 'fast-check';
import { finalShifts, gapsIn, Override, ScheduleTimeline } from './final-shifts';
import { membersOnCall, onCallChanges } from './on-call';
import { SHIFT_LENGTH_UNITS } from '@alert-ingestion/contracts';
import { Handoffs, Participant, RotationTimeline, RotationVersion, versionShifts } from './rotation';
import { DAY_MS, EpochMs, HOUR_MS, instantOf, Interval, localDateTimeOf } from './zoned-time';

// Property tests of the schedule maths over random rotations, zones and overrides: every instant
// of a window is covered by exactly the shifts the rules say, checked against a reading of the
// rules at that one instant (below), which shares nothing with the sweep that builds the shifts.

/** Zones with daylight-saving changes of every kind: north and south, half-hour ones, a skipped day (Apia, 2011), none. */
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Apia', 'America/Sao_Paulo', 'America/Santiago', 'Asia/Kolkata', 'Europe/London', 'UTC'];
const USERS: Participant[] = ['ada', 'bob', 'cy', 'dee', 'eve', 'fay'].map((username, index) => ({ userId: String(index + 1), username }));
const BASE = Date.parse('2011-06-01T00:00:00Z');

const localDateTime = fc
  .record({ day: fc.integer({ min: 0, max: 365 * 16 }), hour: fc.integer({ min: 0, max: 23 }), minute: fc.constantFrom(0, 15, 30, 45) })
  .map(({ day, hour, minute }) => Temporal.PlainDate.from('2011-01-01').add({ days: day }).toPlainDateTime({ hour, minute }));

const time = fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.constantFrom(0, 30) }).map((fields) => new Temporal.PlainTime(fields.hour, fields.minute));

/** Rotation rules starting at a local time `startsAt` gives. */
const rulesStarting = (startsAtArbitrary: fc.Arbitrary<Temporal.PlainDateTime>) =>
  fc
    .record({
      timeZone: fc.constantFrom(...ZONES),
      startsAt: startsAtArbitrary,
      unit: fc.constantFrom(...SHIFT_LENGTH_UNITS),
      length: fc.integer({ min: 1, max: 30 }),
      activePeriod: fc.option(fc.tuple(time, time), { nil: null }),
      endAfterDays: fc.option(fc.integer({ min: 1, max: 90 }), { nil: null }),
      participants: fc.uniqueArray(fc.constantFrom(...USERS), { maxLength: 4, selector: (user) => user.userId }),
    })
    .map(({ timeZone, startsAt, unit, length, activePeriod, endAfterDays, participants }) => ({
      timeZone,
      startsAt,
      endsAt: endAfterDays === null ? null : startsAt.add({ days: endAfterDays }),
      shiftLength: { unit, length: unit === 'weeks' ? Math.min(length, 4) : length },
      // Never on an hourly rotation, never empty (the API refuses both).
      activePeriod:
        unit === 'hours' || activePeriod === null || Temporal.PlainTime.compare(activePeriod[0], activePeriod[1]) === 0 ? null : { start: activePeriod[0], end: activePeriod[1] },
      participants,
    }));

const rulesArbitrary = rulesStarting(localDateTime);

/** A local time within 60 days before and 20 days after `anchor` (in UTC's calendar; the zone varies). */
const localDateTimeNear = (anchor: EpochMs) =>
  fc
    .integer({ min: -60 * 24 * 4, max: 20 * 24 * 4 })
    .map((quarters) => localDateTimeOf(anchor, 'UTC').round({ smallestUnit: 'hour', roundingMode: 'floor' }).add({ minutes: quarters * 15 }));

/** A rotation's versions: consecutive, each in force from the end of the one before. */
const rotationArbitrary = (id: string, anchor: EpochMs) =>
  fc.array(fc.tuple(rulesStarting(localDateTimeNear(anchor)), fc.integer({ min: 1, max: 40 * DAY_MS })), { minLength: 1, maxLength: 3 }).map((parts): RotationTimeline => {
    let from = anchor - 30 * DAY_MS;
    const versions = parts.map(([rules, lasts], index): RotationVersion => {
      const version = { ...rules, effectiveFrom: from, effectiveUntil: index === parts.length - 1 ? null : from + lasts };
      from += lasts;
      return version;
    });
    return { id, name: id, versions };
  });

const scenario = fc.integer({ min: 0, max: 15 * 365 }).chain((day) => {
  const anchor = BASE + day * DAY_MS;
  return fc.record({
    rotations: fc.tuple(rotationArbitrary('r1', anchor), rotationArbitrary('r2', anchor)).chain(([r1, r2]) => fc.constantFrom([r1], [r1, r2])),
    overrides: fc.array(
      fc.record({
        rotationId: fc.constantFrom<string | null>('r1', 'r2', null),
        user: fc.constantFrom(...USERS),
        // Around the window, so that overrides overlap it and each other.
        startOffset: fc.integer({ min: -2 * DAY_MS, max: 8 * DAY_MS }),
        lasts: fc.integer({ min: 1, max: 3 * DAY_MS }),
      }),
      { maxLength: 6 },
    ),
    window: fc.record({ startOffset: fc.integer({ min: -25 * DAY_MS, max: 25 * DAY_MS }), lasts: fc.integer({ min: HOUR_MS, max: 10 * DAY_MS }) }),
    samples: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 10, maxLength: 10 }),
    now: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
    members: fc.uniqueArray(fc.constantFrom(...USERS.map((user) => user.userId)), { maxLength: USERS.length }),
  }).map(({ rotations, overrides, window, samples, now, members }) => {
    const start = anchor + window.startOffset;
    const interval: Interval = { start, end: start + window.lasts };
    const timeline: ScheduleTimeline = {
      rotations,
      overrides: overrides.map(({ rotationId, user, startOffset, lasts }, index): Override => ({
        id: String(index + 1),
        rotationId,
        user,
        start: start + startOffset,
        end: start + startOffset + lasts,
      })),
    };
    const eligibility = now === null ? undefined : { now: Math.round(interval.start + now * window.lasts), isMember: (userId: string) => members.includes(userId) };
    return { timeline, window: interval, samples: samples.map((fraction) => Math.min(interval.end - 1, Math.floor(interval.start + fraction * window.lasts))), eligibility };
  });
});

/** Whether `instant` is within the active period on one of the local days that may hold it. */
function inActivePeriod(version: RotationVersion, instant: EpochMs): boolean {
  const period = version.activePeriod;
  if (!period) return true;
  const overnight = Temporal.PlainTime.compare(period.end, period.start) <= 0;
  const today = localDateTimeOf(instant, version.timeZone).toPlainDate();
  return [today.subtract({ days: 1 }), today].some((day) => {
    const start = instantOf(day.toPlainDateTime(period.start), version.timeZone);
    const end = instantOf((overnight ? day.add({ days: 1 }) : day).toPlainDateTime(period.end), version.timeZone);
    return start <= instant && instant < end;
  });
}

/** Who the rules put on call at one instant, slot by slot (a rotation's id; `schedule` for a schedule override), read from the rules directly. */
function rulesAt(timeline: ScheduleTimeline, instant: EpochMs, eligibility?: { now: EpochMs; isMember(userId: string): boolean }): string[] {
  const eligible = (user: Participant) => !eligibility || instant < eligibility.now || eligibility.isMember(user.userId);
  const newest = (candidates: Override[]) => candidates.filter((override) => override.start <= instant && instant < override.end && eligible(override.user)).sort((a, b) => Number(b.id) - Number(a.id))[0];
  const takeover = newest(timeline.overrides.filter((override) => override.rotationId === null));
  if (takeover) return [`schedule:${takeover.user.userId}`];
  const picks: string[] = [];
  for (const rotation of timeline.rotations) {
    const override = newest(timeline.overrides.filter((candidate) => candidate.rotationId === rotation.id));
    if (override) {
      picks.push(`${rotation.id}:${override.user.userId}`);
      continue;
    }
    const version = rotation.versions.find((candidate) => candidate.effectiveFrom <= instant && instant < (candidate.effectiveUntil ?? Infinity));
    if (!version || version.participants.length === 0) continue;
    const handoffs = new Handoffs(version);
    if (instant < handoffs.start || (version.endsAt && instant >= instantOf(version.endsAt, version.timeZone)) || !inActivePeriod(version, instant)) continue;
    const participant = version.participants[handoffs.indexAt(instant) % version.participants.length];
    if (eligible(participant)) picks.push(`${rotation.id}:${participant.userId}`);
  }
  return picks;
}

describe('schedule maths, over random rotations, zones and overrides', () => {
  it('covers every instant of a window with exactly the shifts the rules say, none of negative length, none overlapping in a rotation', () => {
    fc.assert(
      fc.property(scenario, ({ timeline, window, samples, eligibility }) => {
        const shifts = finalShifts(timeline, window, eligibility);
        for (const shift of shifts) {
          expect(shift.end).toBeGreaterThan(shift.start);
          expect(shift.start).toBeGreaterThanOrEqual(window.start);
          expect(shift.end).toBeLessThanOrEqual(window.end);
        }
        const bySlot = new Map<string, typeof shifts>();
        for (const shift of shifts) bySlot.set(shift.rotationId ?? 'schedule', [...(bySlot.get(shift.rotationId ?? 'schedule') ?? []), shift]);
        for (const slotShifts of bySlot.values()) slotShifts.slice(1).forEach((shift, index) => expect(shift.start).toBeGreaterThanOrEqual(slotShifts[index].end));
        // Random instants, and both sides of every boundary.
        const instants = [...samples, ...shifts.flatMap((shift) => [shift.start, shift.end - 1, shift.end]), window.start, window.end - 1].filter(
          (instant) => instant >= window.start && instant < window.end,
        );
        const gaps = gapsIn(shifts, window);
        for (const instant of instants) {
          const covering = shifts.filter((shift) => shift.start <= instant && instant < shift.end).map((shift) => `${shift.rotationId ?? 'schedule'}:${shift.user.userId}`);
          const expected = rulesAt(timeline, instant, eligibility);
          expect([new Date(instant).toISOString(), covering.sort()]).toEqual([new Date(instant).toISOString(), expected.sort()]);
          expect(gaps.some((gap) => gap.start <= instant && instant < gap.end)).toBe(expected.length === 0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('hands over days and weeks at the start’s local clock time, or at the first instant after it where that time does not exist', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.integer({ min: 0, max: 400 }), (rules, skip) => {
        fc.pre(rules.shiftLength.unit !== 'hours');
        const handoffs = new Handoffs(rules);
        for (let k = skip; k < skip + 30; k++) {
          const expected = rules.startsAt.add({ days: k * rules.shiftLength.length * (rules.shiftLength.unit === 'weeks' ? 7 : 1) });
          const handoff = handoffs.at(k);
          const shown = localDateTimeOf(handoff, rules.timeZone);
          if (Temporal.PlainDateTime.compare(shown, expected) === 0) continue;
          // Only a local time the clocks skip may be missed: then the instant before shows a time before it.
          expect(() => expected.toZonedDateTime(rules.timeZone, { disambiguation: 'reject' })).toThrow();
          expect(Temporal.PlainDateTime.compare(localDateTimeOf(handoff - 1, rules.timeZone), expected)).toBeLessThan(0);
          expect(Temporal.PlainDateTime.compare(shown, expected)).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('hands hours over after exactly that many elapsed hours, whatever the zone', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.integer({ min: -50, max: 5000 }), (rules, k) => {
        fc.pre(rules.shiftLength.unit === 'hours');
        const handoffs = new Handoffs(rules);
        expect(handoffs.at(k + 1) - handoffs.at(k)).toBe(rules.shiftLength.length * HOUR_MS);
        expect(handoffs.indexAt(handoffs.at(k))).toBe(k);
        expect(handoffs.indexAt(handoffs.at(k) - 1)).toBe(k - 1);
      }),
    );
  });

  it('gives every shift of a version a positive length and its participant in turn', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.integer({ min: 0, max: 300 }), (rules, day) => {
        const version = { ...rules, effectiveFrom: -Infinity, effectiveUntil: null };
        const from = instantOf(rules.startsAt, rules.timeZone) + day * DAY_MS;
        const shifts = versionShifts(version, { start: from, end: from + 20 * DAY_MS });
        const handoffs = new Handoffs(version);
        for (const shift of shifts) {
          expect(shift.end).toBeGreaterThan(shift.start);
          expect(shift.participant).toBe(rules.participants[handoffs.indexAt(shift.handoffAt) % rules.participants.length]);
        }
      }),
    );
  });

  it('reports each change of who is on call once, at an instant where the set of members differs from the one before', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 4 }), ({ timeline, window }, pieces) => {
        const whole = onCallChanges(timeline, window.start, window.end, membersOnCall(finalShifts(timeline, window), window.start).map((member) => member.user));
        // The same changes, found in several steps with who was on call carried from one to the next (as the handoff publisher does).
        const step = Math.ceil((window.end - window.start) / pieces);
        const stepped = [];
        let previous = membersOnCall(finalShifts(timeline, window), window.start).map((member) => member.user);
        for (let from = window.start; from < window.end; from += step) {
          const changes = onCallChanges(timeline, from, Math.min(from + step, window.end), previous);
          stepped.push(...changes);
          if (changes.length > 0) previous = changes[changes.length - 1].onCall.map((member) => member.user);
        }
        expect(stepped.map((change) => change.at)).toEqual(whole.map((change) => change.at));
        for (const change of whole) {
          const before = new Set(change.previous.map((user) => user.userId));
          const after = new Set(change.onCall.map((member) => member.user.userId));
          expect(before.size === after.size && [...before].every((id) => after.has(id))).toBe(false);
          const ruled = new Set(rulesAt(timeline, change.at).map((pick) => pick.split(':')[1]));
          expect([...after].sort()).toEqual([...ruled].sort());
        }
      }),
      { numRuns: 60 },
    );
  });
});
