import { hkdfSync } from 'node:crypto';
import { AuthorizationKeyCipher } from './authorization-key-cipher';

/** HKDF "info" naming what the derived key is for: a signing secret's key is never the key at rest of authorization keys. */
const SIGNING_SECRET_KEY_INFO = 'alert-ingestion/webhook-signing-secret/v1';

/**
 * The cipher of webhook signing secrets. A signing secret is kept encrypted at rest like the
 * authorization key, and the gateway must compute HMACs with it, so its ciphertext travels in the
 * integration snapshot: the same text in the table and on Kafka, never plaintext. Its key is
 * derived (HKDF-SHA256) from INTEGRATION_KEY_ENCRYPTION_KEY, which both integration-config and the
 * gateway are given; authorization keys never leave integration-config (only their SHA-256 does),
 * so a ciphertext on the topic can only ever be a signing secret.
 */
export function signingSecretCipher(encryptionKey: Buffer): AuthorizationKeyCipher {
  return new AuthorizationKeyCipher(Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), SIGNING_SECRET_KEY_INFO, 32)));
}
