import { ProjectTier } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { canonicalJson, JsonValue, withoutPaths } from '@alert-ingestion/json';
import { AlertSource } from './alert-source';
import { hasExplicitFingerprint } from './normalise-alert';

/**
 * What grouping compares (spec 3, CONTRACT.md "Alert semantics"), as SHA-256 hex, or null when the
 * alert is never grouped:
 * - the payload's own fingerprint (or its mapped field) when present, on every tier;
 * - otherwise, on Premium, the whole payload without start_time, end_time and hosts (or their mapped
 *   keys), so that identical payloads group and a recovery payload (same payload plus an end time)
 *   matches the alert it resolves;
 * - otherwise (Free tier) null: Free groups only by an explicit fingerprint.
 * Both inputs are canonical JSON (key order does not matter, arrays are unambiguous); the prefixes
 * keep an explicit fingerprint from ever colliding with a computed one.
 */
export function fingerprintSha256(source: AlertSource, tier: ProjectTier): string | null {
  const explicit = source.fields.fingerprint;
  if (hasExplicitFingerprint(explicit)) return explicitFingerprintSha256(explicit);
  if (tier !== 'premium') return null;
  return sha256Hex(`payload:${canonicalJson(withoutPaths(source.payload, source.fingerprintExclusions))}`);
}

/** What grouping compares for a payload's own fingerprint `value` (see fingerprintSha256). */
export function explicitFingerprintSha256(value: JsonValue): string {
  return sha256Hex(`fingerprint:${canonicalJson(value)}`);
}
