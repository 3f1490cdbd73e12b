import { sha256Hex } from '@alert-ingestion/crypto';
import { matchAuthorizationKey, previousKeyValidAt } from './authorization-key-match';

describe('matchAuthorizationKey', () => {
  const expiresAt = '2026-11-25T12:00:00.000Z';
  const expiry = Date.parse(expiresAt);
  const keys = {
    authorization_key_sha256: sha256Hex('new-key'),
    previous_authorization_key_sha256: sha256Hex('old-key'),
    previous_authorization_key_expires_at: expiresAt,
  };

  it('accepts the current key, before and after the previous one expires', () => {
    expect(matchAuthorizationKey('new-key', keys, expiry - 1)).toBe('current');
    expect(matchAuthorizationKey('new-key', keys, expiry + 86_400_000)).toBe('current');
  });

  it('accepts the previous key up to the millisecond before its expiry, and refuses it at that instant', () => {
    expect(matchAuthorizationKey('old-key', keys, expiry - 60_000)).toBe('previous');
    expect(matchAuthorizationKey('old-key', keys, expiry - 1)).toBe('previous');
    expect(matchAuthorizationKey('old-key', keys, expiry)).toBeNull();
    expect(matchAuthorizationKey('old-key', keys, expiry + 1)).toBeNull();
  });

  it('refuses another key, no key, and the previous key of an integration without a grace period', () => {
    expect(matchAuthorizationKey('other-key', keys, expiry - 1)).toBeNull();
    expect(matchAuthorizationKey(null, keys, expiry - 1)).toBeNull();
    expect(matchAuthorizationKey('old-key', { authorization_key_sha256: keys.authorization_key_sha256 }, expiry - 1)).toBeNull();
    expect(matchAuthorizationKey('new-key', { authorization_key_sha256: keys.authorization_key_sha256 }, expiry - 1)).toBe('current');
  });

  it('never lets a previous key with an unreadable expiry work', () => {
    expect(previousKeyValidAt({ ...keys, previous_authorization_key_expires_at: 'not a date' }, 0)).toBe(false);
    expect(previousKeyValidAt({ authorization_key_sha256: keys.authorization_key_sha256, previous_authorization_key_expires_at: expiresAt }, 0)).toBe(false);
  });
});
