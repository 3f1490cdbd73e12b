import { storableText } from './storable-text';

/**
 * Longest stored text per alert field, in Unicode code points (the spec gives no numbers, section 8
 * "not shown"; these follow GitLab's alert model). Longer values are cut, never rejected: a monitoring
 * tool cannot fix its payloads, and the full value stays in `payload`.
 */
export const TEXT_LIMITS = {
  title: 200,
  description: 1000,
  service: 100,
  monitoring_tool: 100,
  platform_environment_name: 255,
  host: 255,
  fingerprint: 255,
} as const;

/** At most this many hosts are kept on the alert (the full list stays in `payload`). */
export const MAX_HOSTS = 100;

/**
 * Makes text storable (see storableText) and cuts it to `limit` code points, so that a surrogate
 * pair (an emoji, say) is never split in half, nor is the escape of a character PostgreSQL cannot
 * store (it counts as its six characters).
 */
export function truncateText(text: string, limit: number): string {
  const storable = storableText(text);
  // A string of at most `limit` UTF-16 code units has at most `limit` code points.
  if (storable.length <= limit) return storable;
  let result = '';
  let count = 0;
  for (const codePoint of text) {
    const stored = storableText(codePoint);
    const size = stored === codePoint ? 1 : stored.length;
    if (count + size > limit) break;
    result += stored;
    count += size;
  }
  return result;
}
