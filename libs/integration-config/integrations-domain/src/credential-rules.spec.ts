import { IntegrationRuleViolation } from './integration-rule-violation';
import { generateSigningSecret, gracePeriodMinutes, previousKeyAfterReset, previousKeyStillValid, signatureTimestampSwitchChange, signingSecretChange } from './credential-rules';

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

  it('keeps the replaced key until now + grace, or none without a grace period', () => {
    expect(previousKeyAfterReset(replaced, 0, now)).toBeNull();
    expect(previousKeyAfterReset(replaced, 60, now)).toEqual({ ...replaced, expires_at: new Date('2026-11-25T13:00:00.000Z') });
    expect(previousKeyAfterReset(replaced, 10_080, now)?.expires_at).toEqual(new Date('2026-12-02T12:00:00.000Z'));
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
