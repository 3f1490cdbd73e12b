import { Handoffs, RotationVersion, versionShifts, withinActivePeriod } from './rotation';
import { HOUR_MS, instantOf, localDateTimeOf, utcOffsetOf } from './zoned-time';

const ada = { userId: '1', username: 'ada' };
const bob = { userId: '2', username: 'bob' };
const cy = { userId: '3', username: 'cy' };

const at = (iso: string) => Date.parse(iso);
const local = (text: string) => Temporal.PlainDateTime.from(text);
const time = (text: string) => Temporal.PlainTime.from(text);

function version(overrides: Partial<RotationVersion>): RotationVersion {
  return {
    effectiveFrom: 0,
    effectiveUntil: null,
    timeZone: 'Europe/Berlin',
    startsAt: local('2026-03-27T09:00'),
    endsAt: null,
    shiftLength: { length: 1, unit: 'days' },
    activePeriod: null,
    participants: [ada, bob, cy],
    ...overrides,
  };
}

/** The shifts as `[start, end, username]`, instants in UTC. */
function table(rules: RotationVersion, from: string, to: string): Array<[string, string, string]> {
  return versionShifts(rules, { start: at(from), end: at(to) }).map((shift) => [
    new Date(shift.start).toISOString(),
    new Date(shift.end).toISOString(),
    shift.participant.username,
  ]);
}

/** The local clock times of a zone at the given instants. */
const localTimes = (instants: number[], timeZone: string) => instants.map((instant) => localDateTimeOf(instant, timeZone).toString({ smallestUnit: 'minute' }));

describe('rotation handoffs', () => {
  describe('a daily rotation hands over at the same local time across daylight-saving changes', () => {
    it('Europe (last Sunday of March): the shift over the change lasts 23 hours', () => {
      expect(table(version({}), '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
        ['2026-03-28T00:00:00.000Z', '2026-03-28T08:00:00.000Z', 'ada'],
        ['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', 'bob'],
        ['2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z', 'cy'],
        ['2026-03-30T07:00:00.000Z', '2026-03-31T00:00:00.000Z', 'ada'],
      ]);
    });

    it('Europe (last Sunday of October): the shift over the change lasts 25 hours', () => {
      const rules = version({ startsAt: local('2026-10-23T09:00') });
      const shifts = versionShifts(rules, { start: at('2026-10-24T00:00:00Z'), end: at('2026-10-27T00:00:00Z') });
      expect(localTimes(shifts.slice(1).map((shift) => shift.start), 'Europe/Berlin')).toEqual(['2026-10-24T09:00', '2026-10-25T09:00', '2026-10-26T09:00']);
      expect((shifts[1].end - shifts[1].start) / HOUR_MS).toBe(25);
      expect((shifts[2].end - shifts[2].start) / HOUR_MS).toBe(24);
    });

    it('US (second Sunday of March, first Sunday of November): 23 and 25 hours, handing over at 09:00 in New York', () => {
      for (const [start, changeDay, hours] of [
        ['2026-03-06T09:00', '2026-03-08', 23],
        ['2026-10-30T09:00', '2026-11-01', 25],
      ] as const) {
        const rules = version({ timeZone: 'America/New_York', startsAt: local(start) });
        const shifts = versionShifts(rules, { start: instantOf(local(start), 'America/New_York'), end: instantOf(local(start).add({ days: 4 }), 'America/New_York') });
        expect(localTimes(shifts.map((shift) => shift.start), 'America/New_York').map((text) => text.slice(11))).toEqual(['09:00', '09:00', '09:00', '09:00']);
        const overTheChange = shifts.find((shift) => localDateTimeOf(shift.end, 'America/New_York').toPlainDate().toString() === changeDay);
        expect(((overTheChange?.end ?? 0) - (overTheChange?.start ?? 0)) / HOUR_MS).toBe(hours);
      }
    });
  });

  it('a weekly rotation hands over on the same weekday and local time, 167 or 169 hours over a change', () => {
    const rules = version({ startsAt: local('2026-03-23T09:00'), shiftLength: { length: 1, unit: 'weeks' }, participants: [ada, bob] });
    const shifts = versionShifts(rules, { start: at('2026-03-23T00:00:00Z'), end: at('2026-04-14T00:00:00Z') });
    expect(localTimes(shifts.map((shift) => shift.start), 'Europe/Berlin')).toEqual(['2026-03-23T09:00', '2026-03-30T09:00', '2026-04-06T09:00', '2026-04-13T09:00']);
    expect(shifts.map((shift) => shift.participant.username)).toEqual(['ada', 'bob', 'ada', 'bob']);
    expect((shifts[0].end - shifts[0].start) / HOUR_MS).toBe(167);

    const autumn = version({ timeZone: 'America/New_York', startsAt: local('2026-10-26T09:00'), shiftLength: { length: 1, unit: 'weeks' }, participants: [ada, bob] });
    const [first] = versionShifts(autumn, { start: at('2026-10-26T00:00:00Z'), end: at('2026-11-10T00:00:00Z') });
    expect((first.end - first.start) / HOUR_MS).toBe(169);
  });

  it('an hourly rotation counts elapsed hours: its local handoff time moves by the change', () => {
    const rules = version({ startsAt: local('2026-03-28T09:00'), shiftLength: { length: 24, unit: 'hours' }, participants: [ada, bob] });
    const shifts = versionShifts(rules, { start: at('2026-03-28T08:00:00Z'), end: at('2026-03-31T00:00:00Z') });
    expect(shifts.slice(0, 2).map((shift) => (shift.end - shift.start) / HOUR_MS)).toEqual([24, 24]);
    expect(localTimes(shifts.map((shift) => shift.start), 'Europe/Berlin')).toEqual(['2026-03-28T09:00', '2026-03-29T10:00', '2026-03-30T10:00']);

    const newYork = version({ timeZone: 'America/New_York', startsAt: local('2026-10-31T09:00'), shiftLength: { length: 12, unit: 'hours' }, participants: [ada, bob] });
    const autumn = versionShifts(newYork, { start: at('2026-10-31T13:00:00Z'), end: at('2026-11-02T13:00:00Z') });
    expect(localTimes(autumn.map((shift) => shift.start), 'America/New_York')).toEqual(['2026-10-31T09:00', '2026-10-31T21:00', '2026-11-01T08:00', '2026-11-01T20:00']);
  });

  it('a handoff at a local time the clocks skip moves to the next valid instant; an ambiguous one takes the first', () => {
    const spring = new Handoffs(version({ startsAt: local('2026-03-28T02:30') }));
    expect(new Date(spring.at(1)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(localTimes([spring.at(1)], 'Europe/Berlin')).toEqual(['2026-03-29T03:00']);
    expect(localTimes([spring.at(2)], 'Europe/Berlin')).toEqual(['2026-03-30T02:30']);

    const autumn = new Handoffs(version({ startsAt: local('2026-10-24T02:30') }));
    expect(new Date(autumn.at(1)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(utcOffsetOf(autumn.at(1), 'Europe/Berlin')).toBe('+02:00');
  });

  it('finds the shift under way at any instant, before the start too', () => {
    const handoffs = new Handoffs(version({}));
    expect(handoffs.indexAt(at('2026-03-29T06:59:59Z'))).toBe(1);
    expect(handoffs.indexAt(at('2026-03-29T07:00:00Z'))).toBe(2);
    expect(handoffs.indexAt(at('2026-03-27T07:59:59Z'))).toBe(-1);
    expect(handoffs.indexAt(at('2030-01-01T00:00:00Z'))).toBe(1375);
  });

  it('puts nobody on call before the start, after the end, or outside the version in force', () => {
    const rules = version({ endsAt: local('2026-03-29T12:00'), effectiveFrom: at('2026-03-27T12:00:00Z'), effectiveUntil: at('2026-03-29T08:00:00Z') });
    expect(table(rules, '2026-03-20T00:00:00Z', '2026-04-10T00:00:00Z')).toEqual([
      ['2026-03-27T12:00:00.000Z', '2026-03-28T08:00:00.000Z', 'ada'],
      ['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', 'bob'],
      ['2026-03-29T07:00:00.000Z', '2026-03-29T08:00:00.000Z', 'cy'],
    ]);
    expect(table(version({ participants: [] }), '2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([]);
  });

  describe('active periods', () => {
    it('keep a shift to the daily window, in local time across the change', () => {
      const rules = version({ startsAt: local('2026-03-27T09:00'), shiftLength: { length: 1, unit: 'weeks' }, activePeriod: { start: time('09:00'), end: time('17:00') } });
      const shifts = versionShifts(rules, { start: at('2026-03-28T00:00:00Z'), end: at('2026-03-31T00:00:00Z') });
      expect(shifts.map((shift) => [...localTimes([shift.start, shift.end], 'Europe/Berlin'), shift.participant.username])).toEqual([
        ['2026-03-28T09:00', '2026-03-28T17:00', 'ada'],
        ['2026-03-29T09:00', '2026-03-29T17:00', 'ada'],
        ['2026-03-30T09:00', '2026-03-30T17:00', 'ada'],
      ]);
      expect(new Set(shifts.map((shift) => shift.handoffAt)).size).toBe(1);
    });

    it('may run past midnight', () => {
      const pieces = withinActivePeriod({ start: at('2026-06-01T00:00:00Z'), end: at('2026-06-03T00:00:00Z') }, { start: time('22:00'), end: time('06:00') }, 'UTC');
      expect(pieces.map((piece) => [new Date(piece.start).toISOString(), new Date(piece.end).toISOString()])).toEqual([
        ['2026-06-01T00:00:00.000Z', '2026-06-01T06:00:00.000Z'],
        ['2026-06-01T22:00:00.000Z', '2026-06-02T06:00:00.000Z'],
        ['2026-06-02T22:00:00.000Z', '2026-06-03T00:00:00.000Z'],
      ]);
    });
  });
});
