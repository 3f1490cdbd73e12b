import { MAX_KEY_GRACE_PERIOD_MINUTES, SIGNING_SECRET_MAX_LENGTH, SIGNING_SECRET_MIN_LENGTH } from '@alert-ingestion/contracts';
import { randomBytes } from 'node:crypto';
import { IntegrationRuleViolation } from './integration-rule-violation';
import type { IntegrationType } from './integration-rules';

const invalid = (code: string, message: string) => new IntegrationRuleViolation('invalid', code, message);

/** An authorization key as stored: its ciphertext (to show it again) and its SHA-256 (for the gateway). */
export interface StoredAuthorizationKey {
  encrypted: string;
  sha256: string;
}

/** A previous key of a rotation with a grace period: when it was replaced, and when it stops working. */
export interface StoredPreviousAuthorizationKey extends StoredAuthorizationKey {
  replaced_at: Date;
  expires_at: Date;
}

/**
 * How many previous keys may work at once. Two covers a second reset during a rollout (senders on
 * the first and on the second key both keep working); a third is refused rather than dropping one
 * a reset promised (see previousKeysAfterReset).
 */
export const MAX_PREVIOUS_AUTHORIZATION_KEYS = 2;

/**
 * `POST .../reset_authorization_key` `{grace_period_minutes}`: an integer from 0 to 10080 (7 days);
 * absent means 0, the old key stops at once.
 */
export function gracePeriodMinutes(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_KEY_GRACE_PERIOD_MINUTES) {
    throw invalid('invalid_grace_period', `grace_period_minutes must be an integer from 0 to ${MAX_KEY_GRACE_PERIOD_MINUTES} (7 days).`);
  }
  return value;
}

/** `{revoke_previous_keys}` of a reset: true revokes every previous key now; absent means false. */
export function revokePreviousKeys(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalid('invalid_revoke_previous_keys', 'revoke_previous_keys must be true or false.');
  return value;
}

/** What a key reset asks for: the replaced key's grace period, and whether the previous keys are revoked. */
export interface KeyReset {
  graceMinutes: number;
  revokePreviousKeys: boolean;
}

/**
 * The previous keys after a reset at `now`, newest first. Every previous key keeps working until
 * its own expiry, as its reset promised; expired ones are gone. With a grace period the key being
 * replaced joins them until now + grace; without one it stops at once. A reset that would need a
 * third working previous key is refused (409) unless it revokes the previous keys explicitly, in
 * which case they stop at once and only the replaced key (with a grace period) remains.
 */
export function previousKeysAfterReset(
  previous: readonly StoredPreviousAuthorizationKey[],
  replaced: StoredAuthorizationKey,
  reset: KeyReset,
  now: Date,
): StoredPreviousAuthorizationKey[] {
  const working = reset.revokePreviousKeys ? [] : validPreviousKeys(previous, now);
  if (reset.graceMinutes === 0) return working;
  if (working.length >= MAX_PREVIOUS_AUTHORIZATION_KEYS) {
    const until = working.map((key) => `one until ${key.expires_at.toISOString()}`).join(', ');
    const firstExpiry = new Date(Math.min(...working.map((key) => key.expires_at.getTime()))).toISOString();
    throw new IntegrationRuleViolation(
      'conflict',
      'too_many_previous_keys',
      `This integration already has ${working.length} previous authorization keys that still work (${until}); ` +
        `a reset with a grace period would make a third, and at most ${MAX_PREVIOUS_AUTHORIZATION_KEYS} are kept. ` +
        `Reset again after ${firstExpiry}, when the oldest stops working; or reset with grace_period_minutes 0 (the current key stops at once, the previous keys keep working); ` +
        'or send "revoke_previous_keys": true to revoke the previous keys now (requests still using them are refused from then on).',
    );
  }
  return [{ ...replaced, replaced_at: now, expires_at: new Date(now.getTime() + reset.graceMinutes * 60_000) }, ...working];
}

/** The previous keys that still work at `now`, newest (last replaced) first. */
export function validPreviousKeys<T extends { replaced_at: Date; expires_at: Date }>(previous: readonly T[], now: Date): T[] {
  return previous.filter((key) => previousKeyStillValid(key.expires_at, now)).sort((a, b) => b.replaced_at.getTime() - a.replaced_at.getTime());
}

/** Whether a stored previous key still works at `now` (shown, and published to the gateway). */
export function previousKeyStillValid(expiresAt: Date | null, now: Date): expiresAt is Date {
  return expiresAt !== null && now.getTime() < expiresAt.getTime();
}

/**
 * A signing secret change in `PUT .../alert_integrations/:iid`: undefined leaves it, null removes
 * it, a string of 16 to 256 characters sets it. The external link receives nothing, so it is never signed.
 */
export function signingSecretChange(value: unknown, type: IntegrationType): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (type === 'external_link') throw invalid('not_applicable', 'The external link integration receives no alerts: it has no signing secret.');
  if (typeof value !== 'string' || value.length < SIGNING_SECRET_MIN_LENGTH || value.length > SIGNING_SECRET_MAX_LENGTH) {
    throw invalid('invalid_signing_secret', `signing_secret must be a string of ${SIGNING_SECRET_MIN_LENGTH} to ${SIGNING_SECRET_MAX_LENGTH} characters, or null to remove it.`);
  }
  return value;
}

/**
 * `allow_signature_without_timestamp` in a create or `PUT .../alert_integrations/:iid`: undefined
 * leaves it, else true or false. Only an HTTP Endpoint can turn it on (the external link is never signed).
 */
export function signatureTimestampSwitchChange(value: unknown, type: IntegrationType): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') {
    throw invalid('invalid_allow_signature_without_timestamp', 'allow_signature_without_timestamp must be true or false.');
  }
  if (value && type === 'external_link') throw invalid('not_applicable', 'The external link integration receives no alerts: it has no signature settings.');
  return value;
}

/** `POST .../reset_signing_secret`: 32 random bytes, hex (64 characters, 256 bits). */
export function generateSigningSecret(): string {
  return randomBytes(32).toString('hex');
}
