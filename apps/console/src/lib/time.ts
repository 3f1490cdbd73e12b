const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });
const utc = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' });

const MINUTE = 60;
const DAY = 24 * 3600;

/**
 * "just now", "in 45 seconds", "in 1 h 58 min", "5 min ago", and from a day on "in 3 days",
 * "yesterday". Under a day it is exact to the minute (whole minutes, never rounded up: a key
 * "valid for 1 h 58 min" has at least that long), as a deadline an hour away must not read "in 1 hour".
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(seconds)) return iso;
  if (Math.abs(seconds) < 10) return 'just now';
  if (Math.abs(seconds) >= MINUTE && Math.abs(seconds) < DAY) {
    const span = hoursAndMinutes(Math.abs(seconds));
    return seconds > 0 ? `in ${span}` : `${span} ago`;
  }
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relative.format(Math.trunc(seconds / size), unit);
  }
  return iso;
}

/** "1 h 58 min", "2 h", "45 min": whole hours and minutes of a span under a day. */
function hoursAndMinutes(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / MINUTE);
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}

/** "Nov 26, 2026, 6:00:00 PM UTC": in UTC whatever the browser's time zone (deadlines shared with senders). */
export function utcTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : utc.format(time);
}

/** "Nov 22, 2025, 4:14:03 PM UTC" in the browser's time zone. */
export function exactTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : exact.format(time);
}

/**
 * "now", "26m", "3h", "2d", "5w", "1y": the age of a time in one short word, for lists where a
 * column must never wrap (the exact time goes on hover). Always rounded down: "59m" until the hour.
 */
export function compactAge(iso: string, now: number = Date.now()): string {
  const seconds = Math.floor((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return iso;
  const age = Math.abs(seconds);
  const sign = seconds < 0 ? 'in ' : '';
  if (age < MINUTE) return 'now';
  if (age < 3600) return `${sign}${Math.floor(age / MINUTE)}m`;
  if (age < DAY) return `${sign}${Math.floor(age / 3600)}h`;
  if (age < 7 * DAY) return `${sign}${Math.floor(age / DAY)}d`;
  if (age < 365 * DAY) return `${sign}${Math.floor(age / (7 * DAY))}w`;
  return `${sign}${Math.floor(age / (365 * DAY))}y`;
}
