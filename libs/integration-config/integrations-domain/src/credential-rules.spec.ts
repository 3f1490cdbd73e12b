import { IntegrationRuleViolation } from './integration-rule-violation';
import {
  generateSigningSecret,
  gracePeriodMinutes,
  previousKeysAfterReset,
  previousKeyStillValid,
  revokePreviousKeys,
  signatureTimestampSwitchChange,
  signingSecretChange,
  StoredPreviousAuthorizationKey,
} from './credential-rules';

describe('key rotation with a grace period', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  const replaced = { encrypted: 'v1.a.b.c', sha256: 'f'.repeat(64) };

  it('takes a grace period of 0 to 10080 minutes, 0 when absent', () => {
    expect(gracePeriodMinutes(undefined)).toBe(0);
    expect(gracePeriodMinutes(0)).toBe(0);
    expect(gracePeriodMinutes(60)).toBe(60);
    expect(gracePeriodMinutes(10_080)).toBe(10_080);
    for (const wrong of [-1, 10_081, 1.5, '60', true]) {
      expect(() => gracePeriodMinutes(wrong)).toThrow(expect.objectContaining({ kind: 'invalid', code: 'invalid_grace_period' }));
    }
  });

  const keep = { graceMinutes: 60, revokePreviousKeys: false };
  const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
  const previousKey = (name: string, replacedMinutesAgo: number, expiresInMinutes: number): StoredPreviousAuthorizationKey => ({
    encrypted: `v1.${name}`,
    sha256: name.repeat(64).slice(0, 64),
    replaced_at: minutes(-replacedMinutesAgo),
    expires_at: minutes(expiresInMinutes),
  });

  it('keeps the replaced key until now + grace, or none without a grace period', () => {
    expect(previousKeysAfterReset([], replaced, { ...keep, graceMinutes: 0 }, now)).toEqual([]);
    expect(previousKeysAfterReset([], replaced, keep, now)).toEqual([{ ...replaced, replaced_at: now, expires_at: new Date('2026-11-25T13:00:00.000Z') }]);
    expect(previousKeysAfterReset([], replaced, { ...keep, graceMinutes: 10_080 }, now)[0].expires_at).toEqual(new Date('2026-12-02T12:00:00.000Z'));
  });

  it('keeps every previous key until its own expiry, newest first, and forgets expired ones', () => {
    const first = previousKey('a', 30, 30);
    expect(previousKeysAfterReset([first], replaced, keep, now)).toEqual([{ ...replaced, replaced_at: now, expires_at: minutes(60) }, first]);
    // A reset without a grace period stops only the current key.
    expect(previousKeysAfterReset([first], replaced, { ...keep, graceMinutes: 0 }, now)).toEqual([first]);
    const expired = previousKey('b', 90, 0);
    expect(previousKeysAfterReset([expired, first], replaced, keep, now).map((key) => key.encrypted)).toEqual([replaced.encrypted, first.encrypted]);
  });

  it('refuses a third working previous key (409 naming both expiries) unless the reset revokes them', () => {
    const older = previousKey('a', 50, 10);
    const newer = previousKey('b', 20, 40);
    const refusal = (() => {
      try {
        previousKeysAfterReset([older, newer], replaced, keep, now);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(IntegrationRuleViolation);
    expect(refusal).toMatchObject({ kind: 'conflict', code: 'too_many_previous_keys' });
    const message = (refusal as Error).message;
    expect(message).toContain(newer.expires_at.toISOString());
    expect(message).toContain(older.expires_at.toISOString());
    expect(message).toContain(`after ${older.expires_at.toISOString()}`);
    expect(message).toContain('"revoke_previous_keys": true');

    expect(previousKeysAfterReset([older, newer], replaced, { ...keep, revokePreviousKeys: true }, now)).toEqual([{ ...replaced, replaced_at: now, expires_at: minutes(60) }]);
    expect(previousKeysAfterReset([older, newer], replaced, { graceMinutes: 0, revokePreviousKeys: true }, now)).toEqual([]);
    expect(previousKeysAfterReset([older, newer], replaced, { graceMinutes: 0, revokePreviousKeys: false }, now)).toEqual([newer, older]);
    // Once the older one has expired, a third reset needs no revocation.
    expect(previousKeysAfterReset([older, newer], replaced, keep, minutes(10)).map((key) => key.encrypted)).toEqual([replaced.encrypted, newer.encrypted]);
  });

  it('takes revoke_previous_keys as a boolean, false when absent', () => {
    expect(revokePreviousKeys(undefined)).toBe(false);
    expect(revokePreviousKeys(true)).toBe(true);
    expect(() => revokePreviousKeys('yes')).toThrow(expect.objectContaining({ kind: 'invalid', code: 'invalid_revoke_previous_keys' }));
  });

  it('says a previous key is valid before its expiry instant, not at it', () => {
    const expiresAt = new Date(now.getTime() + 1);
    expect(previousKeyStillValid(expiresAt, now)).toBe(true);
    expect(previousKeyStillValid(now, now)).toBe(false);
    expect(previousKeyStillValid(null, now)).toBe(false);
  });
});

describe('signing secrets', () => {
  it('leaves, removes or sets a secret of 16 to 256 characters', () => {
    expect(signingSecretChange(undefined, 'http')).toBeUndefined();
    expect(signingSecretChange(null, 'http')).toBeNull();
    expect(signingSecretChange('s'.repeat(16), 'http')).toBe('s'.repeat(16));
    expect(signingSecretChange('s'.repeat(256), 'http')).toBe('s'.repeat(256));
    for (const wrong of ['s'.repeat(15), 's'.repeat(257), 42]) {
      expect(() => signingSecretChange(wrong, 'http')).toThrow(expect.objectContaining({ code: 'invalid_signing_secret' }));
    }
  });

  it('gives the external link no signing secret, but lets it be cleared', () => {
    expect(() => signingSecretChange('s'.repeat(16), 'external_link')).toThrow(IntegrationRuleViolation);
    expect(signingSecretChange(null, 'external_link')).toBeNull();
  });

  it('generates 256-bit secrets, each new', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});

describe('allow_signature_without_timestamp', () => {
  it('takes true or false, leaves the setting when absent, and refuses anything else', () => {
    expect(signatureTimestampSwitchChange(undefined, 'http')).toBeUndefined();
    expect(signatureTimestampSwitchChange(true, 'http')).toBe(true);
    expect(signatureTimestampSwitchChange(false, 'http')).toBe(false);
    for (const wrong of [null, 'true', 1]) {
      expect(() => signatureTimestampSwitchChange(wrong, 'http')).toThrow(expect.objectContaining({ kind: 'invalid', code: 'invalid_allow_signature_without_timestamp' }));
    }
  });

  it('cannot be turned on for the external link, which is never signed', () => {
    expect(() => signatureTimestampSwitchChange(true, 'external_link')).toThrow(expect.objectContaining({ kind: 'invalid', code: 'not_applicable' }));
    expect(signatureTimestampSwitchChange(false, 'external_link')).toBe(false);
  });
});
