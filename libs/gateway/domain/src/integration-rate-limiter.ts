const MS_PER_MINUTE = 60_000;

export type RateLimitDecision =
  | { allowed: true; limitPerMinute: number }
  | { allowed: false; limitPerMinute: number; retryAfterSeconds: number };

interface TokenBucket {
  tokens: number;
  updatedAtMs: number;
}

/**
 * Per-integration token bucket (spec section 8 leaves receiver rate limits to us). Each integration
 * may send `limitPerMinute` requests per minute on average, in bursts of up to a minute's allowance;
 * tokens refill continuously. The limit is the snapshot's `rate_limit_per_minute` when set, otherwise
 * the configured default. Time is passed in, so the rules are testable without a clock.
 *
 * State is per gateway instance: with N instances behind a balancer an integration may reach up to
 * N times its limit. That is accepted: the limit protects the pipeline, it is not a billing meter.
 */
export class IntegrationRateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly defaultLimitPerMinute: number,
    /** Bound on remembered integrations; full buckets are forgotten first (they equal a fresh one). */
    private readonly maxTrackedIntegrations = 100_000,
  ) {
    if (!Number.isFinite(defaultLimitPerMinute) || defaultLimitPerMinute < 1) {
      throw new RangeError('the default rate limit must be at least 1 request per minute');
    }
  }

  /** Takes one request's token for the integration, or says how long to wait for one. */
  consume(integrationId: string, limitPerMinute: number | undefined, nowMs: number): RateLimitDecision {
    const limit = limitPerMinute && limitPerMinute >= 1 ? limitPerMinute : this.defaultLimitPerMinute;
    const refillPerMs = limit / MS_PER_MINUTE;
    let bucket = this.buckets.get(integrationId);
    if (!bucket) {
      if (this.buckets.size >= this.maxTrackedIntegrations) this.forgetIdleBuckets(nowMs);
      bucket = { tokens: limit, updatedAtMs: nowMs };
      this.buckets.set(integrationId, bucket);
    } else {
      const elapsedMs = Math.max(0, nowMs - bucket.updatedAtMs);
      // Clamping to the current limit also applies a lowered limit at once.
      bucket.tokens = Math.min(limit, bucket.tokens + elapsedMs * refillPerMs);
      bucket.updatedAtMs = nowMs;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, limitPerMinute: limit };
    }
    const waitMs = (1 - bucket.tokens) / refillPerMs;
    return { allowed: false, limitPerMinute: limit, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  get trackedIntegrations(): number {
    return this.buckets.size;
  }

  private forgetIdleBuckets(nowMs: number): void {
    // A bucket idle for a minute is full again whatever its limit was: same as no bucket at all.
    for (const [integrationId, bucket] of this.buckets) {
      if (nowMs - bucket.updatedAtMs >= MS_PER_MINUTE) this.buckets.delete(integrationId);
    }
    // Still full of busy integrations: drop the least recently inserted to stay bounded.
    const excess = this.buckets.size - this.maxTrackedIntegrations + 1;
    if (excess > 0) {
      let dropped = 0;
      for (const integrationId of this.buckets.keys()) {
        if (dropped++ >= excess) break;
        this.buckets.delete(integrationId);
      }
    }
  }
}
