import { exactTime, relativeTime } from '../lib/time';

/** Relative time, exact on hover (and for assistive technology via dateTime); `now` from useNow keeps it current. */
export function TimeAgo({ iso, now }: { iso: string; now?: number }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}
