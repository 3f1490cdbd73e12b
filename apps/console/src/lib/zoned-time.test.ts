import { describe, expect, it } from 'vitest';
import { dayStarts, instantOfLocal, localInputValue, spanText, zonedDateTime } from './zoned-time';

describe('zoned times of the console', () => {
  it('starts each day of the timeline at local midnight, a day of a daylight-saving change 23 or 25 hours long', () => {
    const spring = dayStarts(Date.parse('2027-03-27T12:00:00Z'), 'Europe/Berlin', 3);
    expect(spring.map((instant) => new Date(instant).toISOString())).toEqual([
      '2027-03-26T23:00:00.000Z',
      '2027-03-27T23:00:00.000Z',
      '2027-03-28T22:00:00.000Z',
      '2027-03-29T22:00:00.000Z',
    ]);
    const autumn = dayStarts(Date.parse('2027-11-07T12:00:00Z'), 'America/New_York', 1);
    expect((autumn[1] - autumn[0]) / 3_600_000).toBe(25);
  });

  it('reads a local time of a zone as the instant it names, and writes an instant as a local time', () => {
    expect(new Date(instantOfLocal('2027-03-28T09:00', 'Europe/Berlin') ?? 0).toISOString()).toBe('2027-03-28T07:00:00.000Z');
    expect(new Date(instantOfLocal('2027-03-27T09:00', 'Europe/Berlin') ?? 0).toISOString()).toBe('2027-03-27T08:00:00.000Z');
    expect(instantOfLocal('tomorrow', 'UTC')).toBeUndefined();
    expect(localInputValue('2027-03-28T07:00:00Z', 'Europe/Berlin')).toBe('2027-03-28T09:00');
    expect(zonedDateTime('2027-03-28T07:00:00Z', 'America/New_York')).toBe('Sun 28 Mar, 03:00');
  });

  it('says a span in hours and minutes', () => {
    expect([spanText(23 * 3_600_000), spanText(8.5 * 3_600_000), spanText(45 * 60_000)]).toEqual(['23 h', '8 h 30 min', '45 min']);
  });
});
