import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT_VERSION = 'v1';

/** A stored authorization key that cannot be decrypted: wrong encryption key or altered data. */
export class AuthorizationKeyDecryptionError extends Error {
  constructor(reason: string) {
    super(`The stored authorization key cannot be decrypted: ${reason}`);
    this.name = 'AuthorizationKeyDecryptionError';
  }
}

/**
 * Parses the configured encryption key (base64 of 32 bytes). Returns the key or a message saying
 * what is wrong with it, without echoing the value.
 */
export function parseEncryptionKey(base64: string): Buffer | string {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) return `must be base64 of exactly 32 bytes (AES-256), got ${key.length} bytes`;
  return key;
}

/**
 * Authorization keys are kept encrypted at rest so maintainers can view them again (CONTRACT.md
 * "Integrations"). AES-256-GCM with a random 96-bit IV per encryption; the stored text is
 * `v1.<iv>.<tag>.<ciphertext>` (base64url parts), so a future key rotation can add a `v2`.
 */
export class AuthorizationKeyCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AuthorizationKeyCipher needs a 32-byte key');
  }

  encrypt(authorizationKey: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    const ciphertext = Buffer.concat([cipher.update(authorizationKey, 'utf8'), cipher.final()]);
    return [FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  decrypt(stored: string): string {
    const parts = stored.split('.');
    if (parts.length !== 4 || parts[0] !== FORMAT_VERSION) throw new AuthorizationKeyDecryptionError('unknown format');
    const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new AuthorizationKeyDecryptionError('malformed');
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new AuthorizationKeyDecryptionError('authentication failed (wrong encryption key?)');
    }
  }
}
