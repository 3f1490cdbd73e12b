import { createHash } from 'node:crypto';
import { authorizationKeyMatches, authorizationKeySha256 } from './authorization-key';

describe('authorizationKeySha256', () => {
  it('is the hex SHA-256 of the key', () => {
    expect(authorizationKeySha256('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(authorizationKeySha256('abc')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('authorizationKeyMatches', () => {
  const key = 'f1c2a7d0e6b94c1d8a3e5f7b9c0d2e4f';
  const digest = authorizationKeySha256(key);

  it('accepts the key whose SHA-256 is stored', () => {
    expect(authorizationKeyMatches(key, digest)).toBe(true);
  });

  it('refuses another key, a prefix of the key and an empty key', () => {
    expect(authorizationKeyMatches('wrong', digest)).toBe(false);
    expect(authorizationKeyMatches(key.slice(0, -1), digest)).toBe(false);
    expect(authorizationKeyMatches(`${key} `, digest)).toBe(false);
    expect(authorizationKeyMatches('', digest)).toBe(false);
  });

  it('never matches a malformed stored digest', () => {
    expect(authorizationKeyMatches(key, '')).toBe(false);
    expect(authorizationKeyMatches(key, digest.slice(0, 62))).toBe(false);
    expect(authorizationKeyMatches(key, 'zz'.repeat(32))).toBe(false);
  });

  it('compares digests, so uppercase hex of the right digest still matches', () => {
    expect(authorizationKeyMatches(key, digest.toUpperCase())).toBe(true);
  });
});
