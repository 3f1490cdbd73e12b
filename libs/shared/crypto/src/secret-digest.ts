import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Hex SHA-256 of a text. Secrets here (authorization keys, access tokens) are high-entropy random
 * strings, so a fast hash is sound for them: there is nothing to brute-force.
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Whether a presented secret is the one whose SHA-256 is stored. The digests are compared in
 * constant time: hashing first gives both sides the same length whatever the caller sends, so
 * neither the length nor the content of the secret leaks through timing.
 */
export function secretMatchesSha256(presentedSecret: string, expectedSha256Hex: string): boolean {
  const presented = createHash('sha256').update(presentedSecret, 'utf8').digest();
  const expected = Buffer.from(expectedSha256Hex, 'hex');
  if (expected.length !== presented.length) {
    // A malformed stored digest never matches; compare anyway so this path costs the same.
    timingSafeEqual(presented, presented);
    return false;
  }
  return timingSafeEqual(presented, expected);
}
