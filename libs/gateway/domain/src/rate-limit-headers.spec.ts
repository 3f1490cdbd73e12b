import { rateLimitHeaders } from './rate-limit-headers';

describe('rateLimitHeaders', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0, 250);

  it('names the limit, what is left and when the window ends (Unix seconds)', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 600, remaining: 599, resetAtMs: now + 59_750 }, now)).toEqual({
      'RateLimit-Limit': '600',
      'RateLimit-Remaining': '599',
      'RateLimit-Reset': String(Date.UTC(2026, 10, 22, 12, 1, 0) / 1000),
    });
  });

  it('adds Retry-After on a refusal, at least a second, and never a negative remainder', () => {
    expect(rateLimitHeaders({ allowed: false, limit: 2, remaining: -3, resetAtMs: now + 41_200 }, now)).toMatchObject({
      'RateLimit-Remaining': '0',
      'Retry-After': '42',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 2, remaining: 0, resetAtMs: now + 10 }, now)['Retry-After']).toBe('1');
  });
});
