import { describe, expect, it } from 'vitest';
import { compactAge, relativeTime, utcTime } from './time';

describe('relativeTime', () => {
  const now = Date.parse('2026-11-26T16:00:00.000Z');
  const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();

  it('is exact to the minute under a day, in hours and minutes', () => {
    expect(relativeTime(at(1 * 3600 + 58 * 60), now)).toBe('in 1 h 58 min');
    expect(relativeTime(at(1 * 3600 + 58 * 60 + 59), now)).toBe('in 1 h 58 min');
    expect(relativeTime(at(2 * 3600), now)).toBe('in 2 h');
    expect(relativeTime(at(23 * 3600 + 59 * 60 + 30), now)).toBe('in 23 h 59 min');
    expect(relativeTime(at(45 * 60), now)).toBe('in 45 min');
    expect(relativeTime(at(-(5 * 60 + 20)), now)).toBe('5 min ago');
    expect(relativeTime(at(-(3 * 3600 + 7 * 60)), now)).toBe('3 h 7 min ago');
  });

  it('says seconds under a minute, "just now" within 10 seconds, and days or more from a day on', () => {
    expect(relativeTime(at(5), now)).toBe('just now');
    expect(relativeTime(at(-45), now)).toBe('45 seconds ago');
    expect(relativeTime(at(24 * 3600), now)).toBe('tomorrow');
    expect(relativeTime(at(3 * 24 * 3600 + 3600), now)).toBe('in 3 days');
    expect(relativeTime(at(-2 * 24 * 3600), now)).toBe('2 days ago');
    expect(relativeTime('not a time', now)).toBe('not a time');
  });
});

describe('utcTime', () => {
  it('formats in UTC, whatever the time zone of the browser', () => {
    expect(utcTime('2026-11-26T18:05:00.000Z')).toBe('Nov 26, 2026, 6:05:00 PM UTC');
  });
});

describe('compactAge', () => {
  const now = Date.parse('2026-11-26T16:00:00.000Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('says an age in one short word, rounded down', () => {
    expect(compactAge(ago(20), now)).toBe('now');
    expect(compactAge(ago(26 * 60 + 59), now)).toBe('26m');
    expect(compactAge(ago(59 * 60 + 59), now)).toBe('59m');
    expect(compactAge(ago(3 * 3600 + 1800), now)).toBe('3h');
    expect(compactAge(ago(2 * 86400 + 5), now)).toBe('2d');
    expect(compactAge(ago(15 * 86400), now)).toBe('2w');
    expect(compactAge(ago(800 * 86400), now)).toBe('2y');
  });

  it('marks a time still to come, and leaves what is no time as it is', () => {
    expect(compactAge(new Date(now + 5 * 60_000).toISOString(), now)).toBe('in 5m');
    expect(compactAge('not a time', now)).toBe('not a time');
  });
});
