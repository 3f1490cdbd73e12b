/** Where an integration stands against its rate limit after a request (or without one). */
export interface RateLimitState {
  /** Whether this request is within the limit. */
  allowed: boolean;
  /** Requests per minute the integration may send. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** When the current window ends and the allowance is full again (epoch ms). */
  resetAtMs: number;
}

/** Seconds until a refused integration may send again (the window's end), at least 1. */
export function retryAfterSeconds(state: RateLimitState, nowMs: number): number {
  return Math.max(1, Math.ceil((state.resetAtMs - nowMs) / 1000));
}

/**
 * The rate-limit headers of every answer for a known integration, as GitLab.com sends them:
 * RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (the window's end, Unix seconds), and on
 * a refusal Retry-After (seconds to wait).
 */
export function rateLimitHeaders(state: RateLimitState, nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(Math.max(0, state.remaining)),
    'RateLimit-Reset': String(Math.ceil(state.resetAtMs / 1000)),
  };
  if (!state.allowed) headers['Retry-After'] = String(retryAfterSeconds(state, nowMs));
  return headers;
}
