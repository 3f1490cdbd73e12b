import type { AuthorizationKeyUsed } from '@alert-ingestion/contracts';
import { secretMatchesSha256 } from '@alert-ingestion/crypto';

/** A previous key as the snapshot carries it: its SHA-256 (never the key) and when it stops working. */
export interface PreviousAuthorizationKeyDigest {
  authorization_key_sha256: string;
  expires_at: string;
}

/** An integration's authorization keys as the snapshot carries them (their SHA-256, never the keys). */
export interface IntegrationAuthorizationKeys {
  authorization_key_sha256: string;
  /** Every previous key still in its grace period, newest first. */
  previous_authorization_keys?: readonly PreviousAuthorizationKeyDigest[];
  /** The newest previous key alone, as snapshots of integration-config releases that kept one carry it. */
  previous_authorization_key_sha256?: string;
  previous_authorization_key_expires_at?: string;
}

/** Which key a request presented; a previous one is named by its expiry (deliveries tell them apart by it). */
export type AuthorizationKeyMatch = { used: Extract<AuthorizationKeyUsed, 'current'> } | { used: Extract<AuthorizationKeyUsed, 'previous'>; expires_at: string };

/** The previous keys of a snapshot: its list, or else the single previous key of an older snapshot. */
export function previousAuthorizationKeys(keys: IntegrationAuthorizationKeys): readonly PreviousAuthorizationKeyDigest[] {
  if (keys.previous_authorization_keys !== undefined) return keys.previous_authorization_keys;
  if (keys.previous_authorization_key_sha256 === undefined || keys.previous_authorization_key_expires_at === undefined) return [];
  return [{ authorization_key_sha256: keys.previous_authorization_key_sha256, expires_at: keys.previous_authorization_key_expires_at }];
}

/**
 * Whether a previous key of a rotation still works at `nowMs`: up to, not including, its expiry
 * instant ("keeps working until now + grace, and stops at once after"). Decided at request time, so
 * no snapshot has to arrive at the expiry instant.
 */
export function previousKeyValidAt(key: PreviousAuthorizationKeyDigest, nowMs: number): boolean {
  const expiresAt = Date.parse(key.expires_at);
  return Number.isFinite(expiresAt) && nowMs < expiresAt;
}

/**
 * Which of the integration's keys a presented key is at `nowMs`: the current one, a previous one
 * while it is valid (each until its own expiry), or null. Every key is compared, in constant time
 * each (secretMatchesSha256), whichever matches, so timing does not tell them apart.
 */
export function matchAuthorizationKey(presented: string | null, keys: IntegrationAuthorizationKeys, nowMs: number): AuthorizationKeyMatch | null {
  if (presented === null) return null;
  const current = secretMatchesSha256(presented, keys.authorization_key_sha256);
  const previous = previousAuthorizationKeys(keys).filter((key) => secretMatchesSha256(presented, key.authorization_key_sha256));
  if (current) return { used: 'current' };
  const valid = previous.find((key) => previousKeyValidAt(key, nowMs));
  return valid === undefined ? null : { used: 'previous', expires_at: new Date(Date.parse(valid.expires_at)).toISOString() };
}
