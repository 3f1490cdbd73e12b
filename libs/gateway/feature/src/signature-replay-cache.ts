import { isSignatureReplay, replayCacheTtlMs, signatureReplayKey, SignatureUse } from '@alert-ingestion/gateway-domain';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

export interface SignatureReplayCacheOptions {
  /** Shares spent signatures among every gateway instance; without it each instance remembers alone. */
  redis?: Redis;
  /** Prefix of the Redis keys (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  now?: () => number;
}

/** A valid signature presented: a replay, or this request's use of it, which it gives back if it was not handed on. */
export type SignatureSpending = { replay: true } | { replay: false; release(): Promise<void> };

// Reserves the key unless it is held, in one step (SET NX PX that answers the holder's value):
// two instances receiving the same signature at once cannot both reserve it.
const RESERVE = `local used = redis.call('GET', KEYS[1])
if used then return used end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;
// Deletes the key only while this request's reservation holds it (not a later one's).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface StoredUse {
  /** Tells this reservation apart from a later one of the same signature. */
  reservation: string;
  idempotency_key: string | null;
}

const SWEEP_INTERVAL_MS = 10_000;

/**
 * The signatures accepted recently, each kept while it is fresh (replayCacheTtlMs): a signature
 * accepted once is refused again within its freshness window, on any gateway instance that shares
 * REDIS_URL. The cache is the edge; the rules (what is a replay, how long, which key) are
 * signature-replay.ts in libs/gateway/domain. Like the rate limit, an in-process map stands in when
 * Redis is not configured or does not answer, so receiving never depends on Redis: each instance
 * then refuses the replays it sees itself.
 */
export class SignatureReplayCache {
  private readonly memory = new Map<string, { value: string; expiresAtMs: number }>();
  private nextSweepMs = 0;
  private readonly now: () => number;

  constructor(private readonly options: SignatureReplayCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Spends the integration's signature `digest` for a request with `idempotencyKey`, fresh until `freshUntilMs`. */
  async spend(integrationId: string, digest: string, freshUntilMs: number, idempotencyKey: string | undefined): Promise<SignatureSpending> {
    const now = this.now();
    const key = signatureReplayKey(integrationId, digest);
    const use: StoredUse = { reservation: randomUUID(), idempotency_key: idempotencyKey ?? null };
    const value = JSON.stringify(use);
    const ttlMs = replayCacheTtlMs(freshUntilMs, now);

    const redisKey = `${this.options.keyPrefix}gateway-signature-replay:${key}`;
    let held: string | null | undefined;
    if (this.options.redis) {
      try {
        held = (await this.options.redis.eval(RESERVE, 1, redisKey, value, String(ttlMs))) as string | null;
      } catch {
        held = undefined; // Redis does not answer: this instance's memory stands in.
      }
    }
    const inRedis = held !== undefined;
    if (!inRedis) held = this.reserveInMemory(key, value, now + ttlMs, now);

    if (held !== null && held !== undefined) {
      // A repeat of the first request's Idempotency-Key goes on (and must not give back the first one's reservation).
      return isSignatureReplay(decodeUse(held), idempotencyKey) ? { replay: true } : { replay: false, release: async () => undefined };
    }
    return { replay: false, release: () => (inRedis ? this.releaseInRedis(redisKey, value) : this.releaseInMemory(key, value)) };
  }

  /** The value holding `key`, or null once this request's `value` holds it. */
  private reserveInMemory(key: string, value: string, expiresAtMs: number, now: number): string | null {
    if (now >= this.nextSweepMs) {
      for (const [stored, entry] of this.memory) if (entry.expiresAtMs <= now) this.memory.delete(stored);
      this.nextSweepMs = now + SWEEP_INTERVAL_MS;
    }
    const held = this.memory.get(key);
    if (held && held.expiresAtMs > now) return held.value;
    this.memory.set(key, { value, expiresAtMs });
    return null;
  }

  private async releaseInMemory(key: string, value: string): Promise<void> {
    if (this.memory.get(key)?.value === value) this.memory.delete(key);
  }

  private async releaseInRedis(key: string, value: string): Promise<void> {
    try {
      await this.options.redis?.eval(RELEASE, 1, key, value);
    } catch {
      // Redis went away meanwhile: the reservation lapses with its window; until then a resend is refused as a replay.
    }
  }
}

function decodeUse(value: string): SignatureUse {
  try {
    const stored = JSON.parse(value) as Partial<StoredUse>;
    return { idempotencyKey: typeof stored.idempotency_key === 'string' ? stored.idempotency_key : null };
  } catch {
    return { idempotencyKey: null };
  }
}
