import { IntegrationRateLimiter } from './integration-rate-limiter';

describe('IntegrationRateLimiter', () => {
  const t0 = 1_700_000_000_000;

  it('allows a minute of requests at once, then refuses with the time until the next token', () => {
    const limiter = new IntegrationRateLimiter(60);
    for (let i = 0; i < 60; i++) expect(limiter.consume('1', undefined, t0).allowed).toBe(true);
    expect(limiter.consume('1', undefined, t0)).toEqual({ allowed: false, limitPerMinute: 60, retryAfterSeconds: 1 });
  });

  it('refills continuously at the per-minute rate', () => {
    const limiter = new IntegrationRateLimiter(6); // one token every 10 s
    for (let i = 0; i < 6; i++) limiter.consume('1', undefined, t0);
    expect(limiter.consume('1', undefined, t0)).toEqual({ allowed: false, limitPerMinute: 6, retryAfterSeconds: 10 });
    expect(limiter.consume('1', undefined, t0 + 4_000)).toEqual({ allowed: false, limitPerMinute: 6, retryAfterSeconds: 6 });
    expect(limiter.consume('1', undefined, t0 + 10_000).allowed).toBe(true);
    expect(limiter.consume('1', undefined, t0 + 10_000).allowed).toBe(false);
  });

  it('never tells a caller to retry in less than a second', () => {
    const limiter = new IntegrationRateLimiter(600_000);
    for (let i = 0; i < 600_000; i++) limiter.consume('1', undefined, t0);
    const decision = limiter.consume('1', undefined, t0);
    expect(decision).toEqual({ allowed: false, limitPerMinute: 600_000, retryAfterSeconds: 1 });
  });

  it('keeps one bucket per integration', () => {
    const limiter = new IntegrationRateLimiter(2);
    expect(limiter.consume('1', undefined, t0).allowed).toBe(true);
    expect(limiter.consume('1', undefined, t0).allowed).toBe(true);
    expect(limiter.consume('1', undefined, t0).allowed).toBe(false);
    expect(limiter.consume('2', undefined, t0).allowed).toBe(true);
    expect(limiter.trackedIntegrations).toBe(2);
  });

  it("uses the integration's own limit over the default", () => {
    const limiter = new IntegrationRateLimiter(1000);
    expect(limiter.consume('1', 3, t0)).toEqual({ allowed: true, limitPerMinute: 3 });
    limiter.consume('1', 3, t0);
    limiter.consume('1', 3, t0);
    expect(limiter.consume('1', 3, t0)).toEqual({ allowed: false, limitPerMinute: 3, retryAfterSeconds: 20 });
  });

  it('applies a lowered limit at once and a raised one as tokens refill', () => {
    const limiter = new IntegrationRateLimiter(100);
    limiter.consume('1', undefined, t0); // 99 tokens left
    expect(limiter.consume('1', 1, t0 + 1)).toEqual({ allowed: true, limitPerMinute: 1 }); // clamped to 1, then taken
    expect(limiter.consume('1', 1, t0 + 2).allowed).toBe(false);
    expect(limiter.consume('1', 120, t0 + 2 + 500).allowed).toBe(true); // 120/min = 1 token per 500 ms
  });

  it('stays bounded, forgetting idle integrations first', () => {
    const limiter = new IntegrationRateLimiter(10, 3);
    limiter.consume('idle', undefined, t0);
    limiter.consume('a', undefined, t0 + 59_000);
    limiter.consume('b', undefined, t0 + 59_000);
    limiter.consume('c', undefined, t0 + 60_000);
    expect(limiter.trackedIntegrations).toBe(3);
    // 'idle' was dropped: it comes back with a full bucket.
    for (let i = 0; i < 10; i++) expect(limiter.consume('idle', undefined, t0 + 60_000).allowed).toBe(true);
    expect(limiter.trackedIntegrations).toBeLessThanOrEqual(3);
  });

  it('refuses a default limit below one request per minute', () => {
    expect(() => new IntegrationRateLimiter(0)).toThrow(RangeError);
  });
});
