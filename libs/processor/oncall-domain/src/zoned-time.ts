// Time zones and local times of on-call schedules (docs/api-guide.md "On-call schedules"), with the
// Temporal built into the pinned Node.js: every zone rule (offsets, daylight-saving changes) is the
// runtime's time zone database, never arithmetic of ours.

/** An instant as milliseconds since the epoch: the unit of every interval the schedule maths works on. */
export type EpochMs = number;

/** A half-open interval of time, [start, end). */
export interface Interval {
  start: EpochMs;
  end: EpochMs;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * An IANA time zone name (`Europe/Berlin`, `America/New_York`, `UTC`), as the runtime's time zone
 * database spells it. Abbreviations that name no zone (`PST`, `CEST`) and UTC offsets (`+01:00`,
 * which follow no daylight-saving rule) are refused.
 */
export function parseTimeZone(text: unknown): Parsed<string> {
  const refused: Parsed<string> = { ok: false, message: 'time_zone must be an IANA time zone name, such as Europe/Berlin or America/New_York.' };
  if (typeof text !== 'string' || text.length === 0 || text.length > 64 || /^[+\-\u2212]/.test(text)) return refused;
  try {
    return { ok: true, value: Temporal.Now.zonedDateTimeISO(text).timeZoneId };
  } catch {
    return refused;
  }
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const LOCAL_TIME = /^\d{2}:\d{2}$/;

/** A local date and time without zone or offset, `2026-03-29T02:30` (seconds optional); undefined for anything else. */
export function parseLocalDateTime(text: unknown): Temporal.PlainDateTime | undefined {
  if (typeof text !== 'string' || !LOCAL_DATE_TIME.test(text)) return undefined;
  try {
    return Temporal.PlainDateTime.from(text, { overflow: 'reject' });
  } catch {
    return undefined;
  }
}

/** A local time of day, `09:00`; undefined for anything else. */
export function parseLocalTime(text: unknown): Temporal.PlainTime | undefined {
  if (typeof text !== 'string' || !LOCAL_TIME.test(text)) return undefined;
  try {
    return Temporal.PlainTime.from(text, { overflow: 'reject' });
  } catch {
    return undefined;
  }
}

/** A local date and time as the API writes it: `2026-03-29T02:30`, with seconds only when there are some. */
export function formatLocalDateTime(local: Temporal.PlainDateTime): string {
  return local.toString({ smallestUnit: local.second === 0 ? 'minute' : 'second' });
}

/** A local time of day as the API writes it: `09:00`. */
export function formatLocalTime(time: Temporal.PlainTime): string {
  return time.toString({ smallestUnit: 'minute' });
}

/**
 * The instant a local date and time names in a zone. A local time the clocks skip (spring forward)
 * does not exist: it moves to the next valid instant, the end of the skipped hour. A local time the
 * clocks pass twice (fall back) is ambiguous: it is the first of the two.
 */
export function instantOf(local: Temporal.PlainDateTime, timeZone: string): EpochMs {
  const first = local.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (Temporal.PlainDateTime.compare(first.toPlainDateTime(), local) === 0) return first.epochMilliseconds;
  // Skipped: 'earlier' read it with the offset in force before the gap, an instant before the gap;
  // the gap ends at the zone's next transition.
  const gapEnd = first.getTimeZoneTransition('next');
  if (!gapEnd) throw new Error(`${local.toString()} does not exist in ${timeZone}, and no transition follows`);
  return gapEnd.epochMilliseconds;
}

/** The local date and time of an instant in a zone. */
export function localDateTimeOf(instant: EpochMs, timeZone: string): Temporal.PlainDateTime {
  return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).toPlainDateTime();
}

/** The zone's offset from UTC at an instant, `+02:00`. */
export function utcOffsetOf(instant: EpochMs, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).offset;
}

/** An instant as the API writes it: ISO 8601 in UTC with milliseconds, as Date#toISOString. */
export function isoInstant(instant: EpochMs): string {
  return new Date(instant).toISOString();
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
