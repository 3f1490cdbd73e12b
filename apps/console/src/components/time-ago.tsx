import { exactTime, relativeTime } from '../lib/time';

/** Relative time, exact on hover (and for assistive technology via dateTime); `now` from useNow keeps it current. */
export function TimeAgo({ iso, now }: { iso: string; now?: number }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso, now)}
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
