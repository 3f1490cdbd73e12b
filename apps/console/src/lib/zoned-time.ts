// Times of on-call schedules in the console: shown in the schedule's zone and in the viewer's, with
// Intl (every browser's time zone database); the schedule maths itself is the server's.

/** The viewer's own zone, as the browser knows it. */
export function viewerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, ...options });
    formats.set(key, format);
  }
  return format;
}

/** "Sat 28 Mar, 09:00" in `timeZone`. */
export function zonedDateTime(iso: string | number, timeZone: string): string {
  return formatter(timeZone, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** "09:00" in `timeZone`. */
export function zonedClock(iso: string | number, timeZone: string): string {
  return formatter(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** "Sat 28 Mar" in `timeZone`. */
export function zonedDay(iso: string | number, timeZone: string): string {
  return formatter(timeZone, { weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(iso));
}

/** "Sat 28" in `timeZone`: a day of the timeline's axis. */
export function zonedWeekday(iso: string | number, timeZone: string): string {
  return formatter(timeZone, { weekday: 'short', day: 'numeric' }).format(new Date(iso));
}

/** The zone's name as people read it at an instant: "CET", "GMT+1", "EDT". */
export function zoneAbbreviation(iso: string | number, timeZone: string): string {
  return formatter(timeZone, { timeZoneName: 'short' }).formatToParts(new Date(iso)).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/** The fields of an instant's local date and time in `timeZone`. */
function fieldsIn(instant: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = Object.fromEntries(
    formatter(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  );
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const local = fieldsIn(instant, timeZone);
  return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second) - Math.floor(instant / 1000) * 1000;
}

/** The value of a `datetime-local` input showing `iso` in `timeZone`: `2027-03-28T09:00`. */
export function localInputValue(iso: string | number, timeZone: string): string {
  const { year, month, day, hour, minute } = fieldsIn(new Date(iso).getTime(), timeZone);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}`;
}

/**
 * The starts of `count` local days in `timeZone` from the day holding `instant`: the timeline's day
 * columns (a day of 23 or 25 hours keeps its own width).
 */
export function dayStarts(instant: number, timeZone: string, count: number): number[] {
  const today = fieldsIn(instant, timeZone);
  return Array.from({ length: count + 1 }, (_, index) => {
    const midnight = Date.UTC(today.year, today.month - 1, today.day + index);
    // The offset at the guess, then at the instant it gives: right on both sides of a change.
    return midnight - offsetAt(midnight - offsetAt(midnight, timeZone), timeZone);
  });
}

/** Whole hours and minutes of a span: "23 h", "8 h 30 min". */
export function spanText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/**
 * The instant a local date and time (`2027-03-28T09:00`) names in `timeZone`, to show it in the
 * viewer's zone beside a form's field (the server reads the time itself, with the zone's rules).
 */
export function instantOfLocal(local: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  return wall - offsetAt(wall - offsetAt(wall, timeZone), timeZone);
}
