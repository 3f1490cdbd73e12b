import { OutboxBacklog } from './outbox-relay.store';

/** standby: another instance leads; publishing: this one leads and its last attempt worked; failing: its last attempt failed. */
export type RelayState = 'standby' | 'publishing' | 'failing';

export interface RelayHealthOptions {
  /** Wait after the first failure; it doubles with every further failure in a row. */
  initialRetryMs: number;
  maxRetryMs: number;
  /** The relay counts as behind while its oldest unpublished row is older than this. */
  stallAfterMs: number;
}

/** The wait before retry number `attempt` (1, 2, ...): initialRetryMs, doubling, at most maxRetryMs. */
export function retryDelayMs(attempt: number, options: Pick<RelayHealthOptions, 'initialRetryMs' | 'maxRetryMs'>): number {
  return Math.min(options.initialRetryMs * 2 ** (attempt - 1), options.maxRetryMs);
}

/** A line to log, at its level. */
export interface RelayLogLine {
  level: 'log' | 'warn' | 'error';
  message: string;
}

/**
 * The relay's state, its backoff and what is worth logging: a failure when it starts or its reason
 * changes (not once per retry), the recovery, and falling behind and catching up. Pure: the relay
 * feeds it outcomes and times.
 */
export class RelayHealth {
  private current: RelayState = 'standby';
  private failingSince = 0;
  private failures = 0;
  private lastReason: string | undefined;
  private behind = false;
  private lastBacklog: OutboxBacklog | undefined;

  constructor(private readonly options: RelayHealthOptions) {}

  get state(): RelayState {
    return this.current;
  }

  get isBehind(): boolean {
    return this.behind;
  }

  /** The last measured backlog (undefined until this instance has led and measured it). */
  get backlog(): OutboxBacklog | undefined {
    return this.lastBacklog;
  }

  /** The reason of the failure in progress, if any. */
  get failure(): string | undefined {
    return this.current === 'failing' ? this.lastReason : undefined;
  }

  /** Another instance leads (or none could be asked): this one publishes nothing. */
  standby(): void {
    this.current = 'standby';
    this.lastBacklog = undefined;
    this.behind = false;
  }

  /** This instance published (or found nothing to publish). */
  succeeded(now: number): RelayLogLine | undefined {
    const recovered = this.current === 'failing';
    const line: RelayLogLine | undefined = recovered
      ? { level: 'log', message: `recovered after ${formatSeconds(now - this.failingSince)} and ${this.failures} failed attempts` }
      : undefined;
    this.current = 'publishing';
    this.failures = 0;
    this.lastReason = undefined;
    return line;
  }

  /** An attempt failed: how long to wait before the next, and what to log when the failure is news. */
  failed(reason: string, now: number): { delayMs: number; line?: RelayLogLine } {
    const news = this.current !== 'failing' || reason !== this.lastReason;
    if (this.current !== 'failing') this.failingSince = now;
    this.current = 'failing';
    this.failures += 1;
    this.lastReason = reason;
    const delayMs = retryDelayMs(this.failures, this.options);
    return {
      delayMs,
      line: news ? { level: 'error', message: `publishing failed, retrying with backoff (up to ${formatSeconds(this.options.maxRetryMs)} apart): ${reason}` } : undefined,
    };
  }

  /** The backlog was measured: what to log when the relay falls behind or catches up. */
  measured(backlog: OutboxBacklog): RelayLogLine | undefined {
    this.lastBacklog = backlog;
    const behind = backlog.oldestAgeMs !== null && backlog.oldestAgeMs > this.options.stallAfterMs;
    if (behind === this.behind) return undefined;
    this.behind = behind;
    return behind
      ? { level: 'warn', message: `behind: ${backlog.rows} rows unpublished, the oldest for ${formatSeconds(backlog.oldestAgeMs ?? 0)}` }
      : { level: 'log', message: `caught up: ${backlog.rows} rows unpublished` };
  }
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
