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

/** The previous key of a rotation with a grace period, and when it stops working. */
export interface StoredPreviousAuthorizationKey extends StoredAuthorizationKey {
  expires_at: Date;
}

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

/**
 * The previous key after a reset at `now`: with a grace period, the key being replaced works until
 * now + grace; without one, none (the old key stops at once). Only one previous key is kept, so a
 * reset during a grace period drops the older previous key and keeps the then-current one.
 */
export function previousKeyAfterReset(replaced: StoredAuthorizationKey, graceMinutes: number, now: Date): StoredPreviousAuthorizationKey | null {
  if (graceMinutes === 0) return null;
  return { ...replaced, expires_at: new Date(now.getTime() + graceMinutes * 60_000) };
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
