import type { AuthorizationKeyUsed } from '@alert-ingestion/contracts';
import { secretMatchesSha256 } from '@alert-ingestion/crypto';

/** An integration's authorization keys as the snapshot carries them (their SHA-256, never the keys). */
export interface IntegrationAuthorizationKeys {
  authorization_key_sha256: string;
  /** During a rotation's grace period: the previous key's SHA-256 and when it stops working. */
  previous_authorization_key_sha256?: string;
  previous_authorization_key_expires_at?: string;
}

/**
 * Whether the previous key of a rotation still works at `nowMs`: up to, not including, its expiry
 * instant ("keeps working until now + grace, and stops at once after"). Decided at request time, so
 * no snapshot has to arrive at the expiry instant.
 */
export function previousKeyValidAt(keys: IntegrationAuthorizationKeys, nowMs: number): boolean {
  if (keys.previous_authorization_key_sha256 === undefined || keys.previous_authorization_key_expires_at === undefined) return false;
  const expiresAt = Date.parse(keys.previous_authorization_key_expires_at);
  return Number.isFinite(expiresAt) && nowMs < expiresAt;
}

/**
 * Which of the integration's keys a presented key is at `nowMs`: the current one, the previous one
 * while it is valid, or null. Each comparison is in constant time (secretMatchesSha256); while a
 * previous key exists both are compared, whichever matches, so timing does not tell them apart.
 */
export function matchAuthorizationKey(presented: string | null, keys: IntegrationAuthorizationKeys, nowMs: number): AuthorizationKeyUsed | null {
  if (presented === null) return null;
  const current = secretMatchesSha256(presented, keys.authorization_key_sha256);
  if (keys.previous_authorization_key_sha256 === undefined) return current ? 'current' : null;
  const previous = secretMatchesSha256(presented, keys.previous_authorization_key_sha256);
  if (current) return 'current';
  return previous && previousKeyValidAt(keys, nowMs) ? 'previous' : null;
}
