import { randomBytes } from 'node:crypto';

/**
 * Credentials are random strings, never derived from ids:
 * - url token: 24 bytes (192 bits), base64url, 32 characters: the unguessable part of the
 *   integration URL (spec 2.1 "url ... generated");
 * - authorization key: 32 bytes (256 bits), hex, 64 characters (spec 5; CONTRACT.md asks >= 128 bits);
 * - personal access token: 32 bytes, base64url, behind a recognisable prefix so secret scanners can find leaked ones.
 */
export const URL_TOKEN_BYTES = 24;
export const AUTHORIZATION_KEY_BYTES = 32;
export const PERSONAL_ACCESS_TOKEN_BYTES = 32;
export const PERSONAL_ACCESS_TOKEN_PREFIX = 'aipat-';

/** Spec 9.5: access tokens without an expiry get one year. Every token is issued with it. */
export const PERSONAL_ACCESS_TOKEN_LIFETIME_DAYS = 365;

export function generateUrlToken(): string {
  return randomBytes(URL_TOKEN_BYTES).toString('base64url');
}

export function generateAuthorizationKey(): string {
  return randomBytes(AUTHORIZATION_KEY_BYTES).toString('hex');
}

export function generatePersonalAccessToken(): string {
  return PERSONAL_ACCESS_TOKEN_PREFIX + randomBytes(PERSONAL_ACCESS_TOKEN_BYTES).toString('base64url');
}

export function personalAccessTokenExpiry(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + PERSONAL_ACCESS_TOKEN_LIFETIME_DAYS * 24 * 60 * 60 * 1000);
}

