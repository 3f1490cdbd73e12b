/**
 * When each step of a receive request ended, in milliseconds of one monotonic clock
 * (performance.now()), and what the processor said it spent: the marks the Server-Timing header is
 * made of. A step the request never reached has no mark.
 */
export interface ReceiveMarks {
  /** The request arrived. */
  receivedMs: number;
  /** Authenticated, within its rate limit, body read, signature checked, parsed: handed to Kafka. */
  handedOnMs?: number;
  /** alerts.raw.v1 acknowledged the raw alert (every in-sync replica has it). */
  publishedMs?: number;
  /** The processor's reply arrived, or the wait for it ended without one. */
  repliedMs?: number;
  /** Whether a reply came (false: the answer is 202). */
  replied?: boolean;
  /** The processor's own time for the batch that held the alert: from reading it to its COMMIT. */
  storedMs?: number;
  /** The answer is ready. */
  answeredMs: number;
}

/**
 * The Server-Timing header of an answer (W3C Server Timing): where the time of this one request
 * went, hop by hop, so that a caller (curl -i, a browser's network panel, the benchmarks) sees which
 * hop is slow without access to the services' metrics.
 * - `receive`: the gateway's own work before Kafka (authentication, rate limit, body, signature, parse);
 * - `publish`: producing the raw alert until alerts.raw.v1 acknowledged it;
 * - `deliver`: the rest of the wait for the processor: the broker handing the record to it, and its
 *   reply travelling back (the wait minus `store`);
 * - `store`: the processor's transaction for the batch that held the alert (from reading it to COMMIT);
 * - `wait`: on a 202, the whole wait that ended without a reply;
 * - `total`: arrival to answer.
 * Durations are milliseconds with two decimals, as the header's `dur` is.
 */
export function serverTimingHeader(marks: ReceiveMarks): string {
  const entries: Array<[string, number]> = [];
  const { receivedMs, handedOnMs, publishedMs, repliedMs } = marks;
  if (handedOnMs !== undefined) entries.push(['receive', handedOnMs - receivedMs]);
  if (handedOnMs !== undefined && publishedMs !== undefined) entries.push(['publish', publishedMs - handedOnMs]);
  if (publishedMs !== undefined && repliedMs !== undefined) {
    const waited = repliedMs - publishedMs;
    if (!marks.replied) entries.push(['wait', waited]);
    else if (marks.storedMs === undefined) entries.push(['deliver', waited]);
    else {
      // The two clocks are different processes': a store longer than the whole wait is not possible, only rounding.
      const stored = Math.min(marks.storedMs, waited);
      entries.push(['deliver', waited - stored], ['store', stored]);
    }
  }
  entries.push(['total', marks.answeredMs - receivedMs]);
  return entries.map(([name, ms]) => `${name};dur=${Math.max(0, ms).toFixed(2)}`).join(', ');
}
