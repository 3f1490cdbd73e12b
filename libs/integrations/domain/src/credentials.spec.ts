import {
  generateAuthorizationKey,
  generatePersonalAccessToken,
  generateUrlToken,
  isPersonalAccessTokenUsable,
  personalAccessTokenExpiry,
  PERSONAL_ACCESS_TOKEN_PREFIX,
  secretMatchesSha256,
  sha256Hex,
} from './credentials';

describe('credentials', () => {
  it('makes url tokens of 192 random bits, url-safe', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateUrlToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(24);
    }
  });

  it('makes authorization keys of 256 random bits', () => {
    const key = generateAuthorizationKey();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(generateAuthorizationKey()).not.toBe(key);
  });

  it('makes prefixed personal access tokens', () => {
    const token = generatePersonalAccessToken();
    expect(token.startsWith(PERSONAL_ACCESS_TOKEN_PREFIX)).toBe(true);
    expect(Buffer.from(token.slice(PERSONAL_ACCESS_TOKEN_PREFIX.length), 'base64url')).toHaveLength(32);
  });

  it('hashes with SHA-256 and compares a secret with a stored hash', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(secretMatchesSha256('abc', sha256Hex('abc'))).toBe(true);
    expect(secretMatchesSha256('abd', sha256Hex('abc'))).toBe(false);
    expect(secretMatchesSha256('abc', 'not-hex')).toBe(false);
  });

  it('gives tokens one year (spec 9.5) and refuses expired or revoked ones', () => {
    const issued = new Date('2026-01-01T00:00:00Z');
    const expires = personalAccessTokenExpiry(issued);
    expect(expires.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(isPersonalAccessTokenUsable({ expires_at: expires, revoked_at: null }, new Date('2026-12-31T23:59:59Z'))).toBe(true);
    expect(isPersonalAccessTokenUsable({ expires_at: expires, revoked_at: null }, expires)).toBe(false);
    expect(isPersonalAccessTokenUsable({ expires_at: expires, revoked_at: issued }, issued)).toBe(false);
  });
});
