import { compactAge, exactTime, relativeTime } from '@console/lib/time';

/**
 * Relative time, exact on hover (and for assistive technology via dateTime); `now` from useNow keeps
 * it current. `compact`: one short word that never wraps ("26m", "3h", "2d"), for list columns.
 */
export function TimeAgo({ iso, now, compact }: { iso: string; now?: number; compact?: boolean }) {
  const exact = exactTime(iso);
  return (
    <time dateTime={iso} title={exact} className={compact ? 'time-compact' : undefined} aria-label={compact ? `${relativeTime(iso, now)} (${exact})` : undefined}>
      {compact ? compactAge(iso, now) : relativeTime(iso, now)}
    </time>
  );
}

/** A time of a details list: exact, then relative; "none" when there is none. */
export function ExactTime({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">none</span>;
  return (
    <>
      {exactTime(iso)} <span className="muted">(<TimeAgo iso={iso} />)</span>
    </>
  );
}
