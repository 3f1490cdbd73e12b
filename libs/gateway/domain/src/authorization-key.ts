import { createHash, timingSafeEqual } from 'node:crypto';

/** Hex SHA-256 of an authorization key, as integration snapshots carry it. */
export function authorizationKeySha256(authorizationKey: string): string {
  return createHash('sha256').update(authorizationKey, 'utf8').digest('hex');
}

/**
 * Whether a presented key is the integration's authorization key. Compares the digests in constant
 * time (CONTRACT.md "Receiving alerts"): hashing first gives both sides the same length whatever the
 * caller sends, so neither the length nor the content of the key leaks through timing.
 */
export function authorizationKeyMatches(presentedKey: string, expectedSha256Hex: string): boolean {
  const presented = createHash('sha256').update(presentedKey, 'utf8').digest();
  const expected = Buffer.from(expectedSha256Hex, 'hex');
  if (expected.length !== presented.length) {
    // A malformed stored digest never matches; compare anyway so this path costs the same.
    timingSafeEqual(presented, presented);
    return false;
  }
  return timingSafeEqual(presented, expected);
}
