import { IntegrationSnapshot } from '@alert-ingestion/contracts';
import { RateLimitState } from '@alert-ingestion/gateway-domain';
import type { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

const WINDOW_SECONDS = 60;

export interface IntegrationRateLimitOptions {
  /** GATEWAY_RATE_LIMIT_PER_MINUTE: the limit of integrations without one of their own. */
  defaultPerMinute: number;
  /** Shares the counts among every gateway instance; without it each instance counts alone. */
  redis?: Redis;
  /** Prefix of the Redis keys (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  now?: () => number;
}

type Integration = Pick<IntegrationSnapshot.IntegrationSnapshotValue, 'id' | 'rate_limit_per_minute'>;

/**
 * The requests an integration may send per minute (spec 8 leaves receiver rate limits to us): its
 * own `rate_limit_per_minute`, or the gateway's default, counted in fixed one-minute windows by
 * rate-limiter-flexible. With Redis the count is shared by every gateway instance (an in-memory
 * limiter stands in while Redis does not answer, so receiving never depends on it); without it the
 * limit holds per instance.
 */
export class IntegrationRateLimit {
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  private readonly now: () => number;

  constructor(private readonly options: IntegrationRateLimitOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Counts one request of the integration. */
  async consume(integration: Integration): Promise<RateLimitState> {
    const limit = this.limitOf(integration);
    try {
      return this.state(true, limit, await this.limiter(limit).consume(integration.id));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.state(false, limit, rejection);
      throw rejection;
    }
  }

  /** Where the integration stands, without counting a request (for answers that do not count, such as a 401). */
  async peek(integration: Integration): Promise<RateLimitState> {
    const limit = this.limitOf(integration);
    const current = await this.limiter(limit).get(integration.id);
    if (!current) return { allowed: true, limit, remaining: limit, resetAtMs: this.now() + WINDOW_SECONDS * 1000 };
    return this.state(current.consumedPoints <= limit, limit, current);
  }

  private limitOf(integration: Integration): number {
    const own = integration.rate_limit_per_minute;
    return own !== undefined && own !== null && own >= 1 ? own : this.options.defaultPerMinute;
  }

  private state(allowed: boolean, limit: number, result: RateLimiterRes): RateLimitState {
    return { allowed, limit, remaining: result.remainingPoints, resetAtMs: this.now() + result.msBeforeNext };
  }

  /** One limiter per limit value; with Redis they share one key per integration, so a changed limit applies to the current count. */
  private limiter(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: this.options.keyPrefix });
      limiter = this.options.redis
        ? new RateLimiterRedis({
            storeClient: this.options.redis,
            points,
            duration: WINDOW_SECONDS,
            keyPrefix: `${this.options.keyPrefix}gateway-rate-limit`,
            insuranceLimiter: memory,
          })
        : memory;
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}
