import { sha256Hex } from '@alert-ingestion/crypto';
import { matchAuthorizationKey, previousKeyValidAt } from './authorization-key-match';

describe('matchAuthorizationKey', () => {
  const expiresAt = '2026-11-25T12:00:00.000Z';
  const expiry = Date.parse(expiresAt);
  // A snapshot of a release that kept one previous key.
  const keys = {
    authorization_key_sha256: sha256Hex('new-key'),
    previous_authorization_key_sha256: sha256Hex('old-key'),
    previous_authorization_key_expires_at: expiresAt,
  };
  const previous = { used: 'previous', expires_at: expiresAt };

  it('accepts the current key, before and after the previous one expires', () => {
    expect(matchAuthorizationKey('new-key', keys, expiry - 1)).toEqual({ used: 'current' });
    expect(matchAuthorizationKey('new-key', keys, expiry + 86_400_000)).toEqual({ used: 'current' });
  });

  it('accepts the previous key up to the millisecond before its expiry, and refuses it at that instant', () => {
    expect(matchAuthorizationKey('old-key', keys, expiry - 60_000)).toEqual(previous);
    expect(matchAuthorizationKey('old-key', keys, expiry - 1)).toEqual(previous);
    expect(matchAuthorizationKey('old-key', keys, expiry)).toBeNull();
    expect(matchAuthorizationKey('old-key', keys, expiry + 1)).toBeNull();
  });

  it('accepts each of several previous keys until its own expiry, and names it by that expiry', () => {
    const laterExpiry = '2026-11-25T13:30:00.000Z';
    const several = {
      authorization_key_sha256: sha256Hex('third-key'),
      previous_authorization_keys: [
        { authorization_key_sha256: sha256Hex('second-key'), expires_at: laterExpiry },
        { authorization_key_sha256: sha256Hex('first-key'), expires_at: expiresAt },
      ],
      // The list wins over the single key an older gateway reads.
      previous_authorization_key_sha256: sha256Hex('second-key'),
      previous_authorization_key_expires_at: laterExpiry,
    };
    expect(matchAuthorizationKey('first-key', several, expiry - 1)).toEqual({ used: 'previous', expires_at: expiresAt });
    expect(matchAuthorizationKey('second-key', several, expiry - 1)).toEqual({ used: 'previous', expires_at: laterExpiry });
    expect(matchAuthorizationKey('first-key', several, expiry)).toBeNull();
    expect(matchAuthorizationKey('second-key', several, expiry)).toEqual({ used: 'previous', expires_at: laterExpiry });
    expect(matchAuthorizationKey('third-key', several, expiry)).toEqual({ used: 'current' });
    expect(matchAuthorizationKey('first-key', { ...several, previous_authorization_keys: [] }, expiry - 1)).toBeNull();
  });

  it('refuses another key, no key, and the previous key of an integration without a grace period', () => {
    expect(matchAuthorizationKey('other-key', keys, expiry - 1)).toBeNull();
    expect(matchAuthorizationKey(null, keys, expiry - 1)).toBeNull();
    expect(matchAuthorizationKey('old-key', { authorization_key_sha256: keys.authorization_key_sha256 }, expiry - 1)).toBeNull();
    expect(matchAuthorizationKey('new-key', { authorization_key_sha256: keys.authorization_key_sha256 }, expiry - 1)).toEqual({ used: 'current' });
  });

  it('never lets a previous key with an unreadable expiry work', () => {
    expect(previousKeyValidAt({ authorization_key_sha256: sha256Hex('old-key'), expires_at: 'not a date' }, 0)).toBe(false);
    expect(matchAuthorizationKey('old-key', { ...keys, previous_authorization_key_expires_at: 'not a date' }, 0)).toBeNull();
  });
});
