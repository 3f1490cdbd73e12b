import { setTimeout as sleep } from 'node:timers/promises';
import { BenchConnection } from './bench-connection';

export interface LoadOptions {
  /** Keep-alive connections, each with one request outstanding at a time. */
  concurrency: number;
  /** Appears in every title, so that the alerts of different phases differ. */
  label: string;
  /** Stop issuing after this long, or after `count` requests when given. */
  stopAfter: { ms: number; count?: number };
  /** Sequence number of the first alert; each alert gets the next one. */
  firstSequence: number;
  /** Headers that depend on the body (a webhook signature), computed for every request. */
  sign?: (body: string) => Record<string, string>;
  /**
   * An open loop: request k is due k / ratePerSecond seconds after the start, whatever the answers,
   * and its latency counts from when it was due, so time spent waiting for a free connection (the
   * service falling behind) is counted too. Without it, a closed loop (each connection posts its
   * next alert when the last is answered).
   */
  ratePerSecond?: number;
}

export interface LoadResult {
  statuses: Map<number, number>;
  latenciesMs: number[];
  /** Requests answered 200 or 202. */
  accepted: number;
  elapsedMs: number;
  /** The answered (200) requests' Server-Timing durations by hop (`receive`, `publish`, ...), in ms. */
  hopsMs: Map<string, number[]>;
}

/** The body of the benchmark's alert number `sequence`: distinct for every sequence, so none is grouped into another. */
export function distinctAlert(label: string, sequence: number): string {
  return JSON.stringify({
    title: `${label} alert ${sequence}`,
    description: 'Synthetic alert from the receive benchmark',
    severity: ['critical', 'high', 'medium', 'low'][sequence % 4],
    service: 'checkout',
    monitoring_tool: 'bench',
    hosts: [`host-${sequence % 50}`],
    sequence,
  });
}

/** Where a connection of the load generator posts: a URL and the headers of every request (its key). */
export interface LoadTarget {
  url: URL;
  headers: Record<string, string>;
}

/**
 * Posts distinct alerts to `url` over `concurrency` keep-alive connections (BenchConnection), each
 * posting its next alert as soon as the last is answered: a closed loop, so throughput is
 * concurrency divided by latency; or, with `ratePerSecond`, each when it is due (an open loop).
 */
export function postDistinctAlerts(url: URL, headers: Record<string, string>, options: LoadOptions): Promise<LoadResult> {
  return postDistinctAlertsTo([{ url, headers }], options);
}

/** postDistinctAlerts over several targets: connection n posts to target n modulo their number. */
export async function postDistinctAlertsTo(targets: readonly LoadTarget[], options: LoadOptions): Promise<LoadResult> {
  const statuses = new Map<number, number>();
  const latenciesMs: number[] = [];
  const hopsMs = new Map<string, number[]>();
  let accepted = 0;
  let issued = 0;
  const { count } = options.stopAfter;
  const rate = options.ratePerSecond;
  const started = performance.now();
  const deadline = started + options.stopAfter.ms;
  const worker = async (target: LoadTarget) => {
    const connection = new BenchConnection(target.url, { ...target.headers, 'Content-Type': 'application/json' });
    while (performance.now() < deadline && (count === undefined || issued < count)) {
      const sequence = issued++;
      const due = rate === undefined ? performance.now() : started + (sequence / rate) * 1000;
      if (due >= deadline) break;
      const early = due - performance.now();
      if (early > 0) await sleep(early);
      const body = distinctAlert(options.label, options.firstSequence + sequence);
      const sent = due;
      const status = await connection.post(body, options.sign?.(body));
      latenciesMs.push(performance.now() - sent);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 200 || status === 202) accepted++;
      if (status === 200 && connection.serverTiming) addServerTiming(hopsMs, connection.serverTiming);
    }
    connection.close();
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, n) => worker(targets[n % targets.length])));
  return { statuses, latenciesMs, accepted, elapsedMs: performance.now() - started, hopsMs };
}

/** Adds each `name;dur=ms` of a Server-Timing header to `hops`. */
function addServerTiming(hops: Map<string, number[]>, header: string): void {
  for (const entry of header.split(',')) {
    const [name, ...parameters] = entry.trim().split(';');
    const duration = parameters.find((parameter) => parameter.startsWith('dur='));
    if (!name || duration === undefined) continue;
    const list = hops.get(name) ?? [];
    list.push(Number(duration.slice(4)));
    hops.set(name, list);
  }
}

/** The median of each hop, in the order the header names them: `receive 0.4, publish 2.0, ... ms`. */
export function hopsText(hops: ReadonlyMap<string, readonly number[]>): string {
  return [...hops].map(([name, values]) => `${name} ${median(values).toFixed(1)}`).join(', ');
}

/** The value at percentile `p` (0 to 100) of sorted values; NaN when there are none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The middle value (the mean of the two middle ones for an even count); NaN when there are none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Alerts per second of the accepted requests. */
function throughput(result: LoadResult): number {
  return result.accepted / (result.elapsedMs / 1000);
}

/** Throughput and latency of a load, as every benchmark reports them. */
export interface LoadFigures {
  /** Accepted (200 or 202) alerts per second. */
  alertsPerSecond: number;
  /** Latency percentiles of every request, in ms. */
  p50: number;
  p99: number;
}

export function loadFigures(result: LoadResult): LoadFigures {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  return { alertsPerSecond: throughput(result), p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** The report lines on throughput, latency and statuses that both benchmarks print, with the targets when given. */
export function resultLines(result: LoadResult, targets?: { throughput: string; latency: string }): string[] {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const statusText = [...result.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  return [
    `  throughput   ${throughput(result).toFixed(0)} alerts/s${targets ? `   (target ${targets.throughput})` : ''}`,
    `  latency      p50 ${percentile(sorted, 50).toFixed(1)} ms   p90 ${percentile(sorted, 90).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   max ${sorted[sorted.length - 1]?.toFixed(1)} ms${targets ? `   (target ${targets.latency})` : ''}`,
    `  statuses     ${statusText}`,
  ];
}
