import {
  generateAuthorizationKey,
  generatePersonalAccessToken,
  generateUrlToken,
  personalAccessTokenExpiry,
  PERSONAL_ACCESS_TOKEN_PREFIX,
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

  it('gives tokens one year (spec 9.5)', () => {
    expect(personalAccessTokenExpiry(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
