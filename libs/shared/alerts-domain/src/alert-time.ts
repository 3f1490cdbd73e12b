import { JsonValue } from '@alert-ingestion/json';

/** Earliest and latest time an alert may carry; anything else is treated as an invalid date. */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Numbers at or above this are milliseconds since the epoch, below it seconds (1e11 s is year 5138). */
const EPOCH_MILLISECONDS_FROM = 1e11;

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseIsoText(text: string): number | null {
  const match = ISO_8601.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetRest = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (offsetHours > 23 || offsetRest > 59) return null;
    offsetMinutes = sign * (offsetHours * 60 + offsetRest);
  }
  // Stored times have millisecond precision; further digits are cut, not rounded.
  const milliseconds = Number(fraction.slice(0, 3).padEnd(3, '0'));
  return Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offsetMinutes * 60_000;
}

/**
 * Reads an alert time (spec 2.2 `start_time`, `end_time`: "ISO 8601 timestamp").
 * Accepted, deterministically and independent of the machine's time zone:
 * - ISO 8601 text `YYYY-MM-DD[THH:MM[:SS[.fff…]]][Z|±HH[:MM]]`; without a zone it is UTC;
 * - a number: Unix epoch seconds, or milliseconds when at least 1e11 (many tools send epochs);
 * anything else, an impossible calendar date, or a time outside 1970..9999 is invalid: null.
 * (Alertmanager's "zero" endsAt, 0001-01-01T00:00:00Z, is thereby invalid too.)
 */
export function parseAlertTime(value: JsonValue | undefined): Date | null {
  let epochMilliseconds: number | null = null;
  if (typeof value === 'string') {
    epochMilliseconds = parseIsoText(value);
  } else if (typeof value === 'number' && Number.isFinite(value)) {
    epochMilliseconds = Math.trunc(Math.abs(value) >= EPOCH_MILLISECONDS_FROM ? value : value * 1000);
  }
  if (epochMilliseconds === null || epochMilliseconds < EARLIEST || epochMilliseconds > LATEST) return null;
  return new Date(epochMilliseconds);
}
