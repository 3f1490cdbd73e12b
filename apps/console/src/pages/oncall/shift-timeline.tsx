import { OncallShift } from '@console/api/oncall';
import { spanText, zonedDateTime, zonedDay, zonedWeekday, zoneAbbreviation } from '@console/lib/zoned-time';

/** A row of the timeline: a rotation, or the overrides of the whole schedule (id null). */
export interface TimelineRow {
  id: number | null;
  name: string;
}

interface ShiftTimelineProps {
  /** The starts of the days shown, and the end of the last (length: days + 1), in the schedule's zone. */
  days: readonly number[];
  rows: readonly TimelineRow[];
  shifts: readonly OncallShift[];
  timeZone: string;
  viewerZone: string;
  now: number;
}

/** Where an instant sits across the days shown, in percent (each day its own width: 23 and 25 hours alike). */
function position(instant: number, days: readonly number[]): number {
  const last = days.length - 1;
  if (instant <= days[0]) return 0;
  if (instant >= days[last]) return 100;
  const index = days.findIndex((start, at) => at < last && instant < days[at + 1]);
  return ((index + (instant - days[index]) / (days[index + 1] - days[index])) / last) * 100;
}

/** A shift in words: who, why, from and until when in the schedule's zone, and in the viewer's when it differs. */
export function shiftLabel(shift: OncallShift, timeZone: string, viewerZone: string): string {
  const why = shift.source === 'override' ? `override${shift.rotation ? ` of ${shift.rotation.name}` : ' of the whole schedule'}` : shift.rotation?.name;
  const zoned = `${zonedDateTime(shift.starts_at, timeZone)} – ${zonedDateTime(shift.ends_at, timeZone)} ${zoneAbbreviation(shift.starts_at, timeZone)}`;
  const viewer = viewerZone === timeZone ? '' : ` (your time: ${zonedDateTime(shift.starts_at, viewerZone)} – ${zonedDateTime(shift.ends_at, viewerZone)})`;
  return `@${shift.user.username}, ${why}: ${zoned}${viewer}, ${spanText(Date.parse(shift.ends_at) - Date.parse(shift.starts_at))}`;
}

/**
 * Two weeks of final shifts, a row per rotation (and one for overrides of the whole schedule): each
 * shift a bar from its start to its end, overrides marked; the days are the schedule zone's, so a
 * day of a daylight-saving change is as wide as the others and its shifts show it.
 */
export function ShiftTimeline({ days, rows, shifts, timeZone, viewerZone, now }: ShiftTimelineProps) {
  const dayCount = days.length - 1;
  return (
    <>
      <p className="shift-timeline-legend" aria-hidden="true">
        <span>
          <span className="shift-bar shift-rotation" />a rotation’s shift
        </span>
        <span>
          <span className="shift-bar shift-override" />an override
        </span>
        <span>
          <span className="shift-timeline-now" />now
        </span>
        <span>
          Days of {timeZone}; point at a shift for its times{viewerZone === timeZone ? '' : ` (and yours, ${viewerZone})`}.
        </span>
      </p>
      <div className="shift-timeline" role="group" aria-label={`Shifts of the next ${dayCount} days, in ${timeZone}`}>
        <div className="shift-timeline-row shift-timeline-axis" aria-hidden="true">
          <div className="shift-timeline-label" />
          <div className="shift-timeline-track">
            {days.slice(0, dayCount).map((start, index) => (
              <div key={start} className="shift-timeline-day" style={{ left: `${(index / dayCount) * 100}%`, width: `${100 / dayCount}%` }}>
                {(index === 0 ? zonedDay : zonedWeekday)(start + 12 * 3_600_000, timeZone)}
              </div>
            ))}
          </div>
        </div>
        {rows.map((row) => (
          <div key={row.id ?? 'schedule'} className="shift-timeline-row">
            <div className="shift-timeline-label">{row.name}</div>
            <ul className="shift-timeline-track" aria-label={row.name}>
              {days.slice(0, dayCount).map((start, index) => (
                <li key={start} aria-hidden="true" className="shift-timeline-grid" style={{ left: `${(index / dayCount) * 100}%` }} />
              ))}
              {shifts
                .filter((shift) => (shift.rotation?.id ?? null) === row.id)
                .map((shift) => {
                  const left = position(Date.parse(shift.starts_at), days);
                  const width = Math.max(position(Date.parse(shift.ends_at), days) - left, 0.2);
                  return (
                    <li
                      key={`${shift.starts_at}-${shift.user.id}-${shift.override_id ?? ''}`}
                      className={`shift-bar shift-${shift.source}`}
                      style={{ left: `${left}%`, width: `${width}%` }}
                      title={shiftLabel(shift, timeZone, viewerZone)}
                      aria-label={shiftLabel(shift, timeZone, viewerZone)}
                    >
                      <span className="shift-bar-text">
                        {shift.source === 'override' && <span className="shift-override-mark">override </span>}@{shift.user.username}
                      </span>
                    </li>
                  );
                })}
              {now > days[0] && now < days[dayCount] && <li aria-hidden="true" className="shift-timeline-now" style={{ left: `${position(now, days)}%` }} />}
            </ul>
          </div>
        ))}
      </div>
    </>
  );
}
