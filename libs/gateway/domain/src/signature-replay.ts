/**
 * Replay protection for signed requests: a valid signature is spent by the first request that
 * uses it, and the gateway's replay cache (libs/gateway/feature, signature-replay-cache.ts, Redis
 * shared by every instance) remembers it for as long as it is fresh. These are its pure rules.
 */

/**
 * How much longer than its freshness window a signature is remembered: gateway instances judge a
 * timestamp's age by their own clocks, and one whose clock is behind still takes it a little later.
 */
export const REPLAY_CLOCK_MARGIN_MS = 60_000;

/** What the replay cache holds for a signature: how the request that spent it was sent. */
export interface SignatureUse {
  /** The Idempotency-Key that request came with; null: none. */
  idempotencyKey: string | null;
}

/** How long the replay cache keeps a signature accepted at `nowMs` and fresh until `freshUntilMs` (at least 1 ms). */
export function replayCacheTtlMs(freshUntilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil(freshUntilMs - nowMs) + REPLAY_CLOCK_MARGIN_MS);
}

/**
 * Whether a request carrying a signature already spent by `first` is a replay. A repeat of the
 * first request's Idempotency-Key is not: it is a retry the contract answers with the first answer
 * (CONTRACT.md "Receiving alerts"), and it can change nothing, because the processor answers every
 * repeat of a key from its first one. Anything else is: no key, another key, or a key the first
 * request did not have (the signature does not cover the header, so a replay could add one).
 */
export function isSignatureReplay(first: SignatureUse, idempotencyKey: string | undefined): boolean {
  return first.idempotencyKey === null || first.idempotencyKey !== idempotencyKey;
}

/**
 * The replay cache's key of a signature: the integration and the digest (lower-case hex, so the
 * same digest in upper case, or in the other header form, is the same signature).
 */
export function signatureReplayKey(integrationId: string, digest: string): string {
  return `${integrationId}:${digest.toLowerCase()}`;
}
