import { randomBytes } from 'node:crypto';
import { AuthorizationKeyCipher, AuthorizationKeyDecryptionError, parseEncryptionKey } from './authorization-key-cipher';
const generateAuthorizationKey = () => randomBytes(32).toString('hex');

describe('AuthorizationKeyCipher (AES-256-GCM)', () => {
  const cipher = new AuthorizationKeyCipher(randomBytes(32));

  it('round-trips an authorization key and never stores it in clear', () => {
    const key = generateAuthorizationKey();
    const stored = cipher.encrypt(key);
    expect(stored).not.toContain(key);
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(cipher.decrypt(stored)).toBe(key);
  });

  it('uses a fresh IV each time', () => {
    const key = generateAuthorizationKey();
    expect(cipher.encrypt(key)).not.toBe(cipher.encrypt(key));
  });

  it('refuses altered data and a wrong encryption key', () => {
    const stored = cipher.encrypt(generateAuthorizationKey());
    const parts = stored.split('.');
    const ciphertext = Buffer.from(parts[3], 'base64url');
    ciphertext[0] ^= 1;
    const altered = [...parts.slice(0, 3), ciphertext.toString('base64url')].join('.');
    expect(() => cipher.decrypt(altered)).toThrow(AuthorizationKeyDecryptionError);
    expect(() => new AuthorizationKeyCipher(randomBytes(32)).decrypt(stored)).toThrow(AuthorizationKeyDecryptionError);
    expect(() => cipher.decrypt('plain-text-key')).toThrow(AuthorizationKeyDecryptionError);
  });

  it('parses a base64 encryption key of 32 bytes and explains anything else', () => {
    const key = randomBytes(32);
    expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(parseEncryptionKey(randomBytes(16).toString('base64'))).toMatch(/exactly 32 bytes.*got 16/);
    expect(() => new AuthorizationKeyCipher(randomBytes(16))).toThrow();
  });
});
