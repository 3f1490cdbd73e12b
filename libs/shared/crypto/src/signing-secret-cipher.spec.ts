import { randomBytes } from 'node:crypto';
import { AuthorizationKeyCipher, AuthorizationKeyDecryptionError } from './authorization-key-cipher';
import { signingSecretCipher } from './signing-secret-cipher';

describe('signingSecretCipher', () => {
  const encryptionKey = randomBytes(32);

  it('round-trips a signing secret under the same encryption key, in another process too', () => {
    const stored = signingSecretCipher(encryptionKey).encrypt('a-shared-signing-secret');
    expect(stored).not.toContain('a-shared-signing-secret');
    expect(signingSecretCipher(Buffer.from(encryptionKey)).decrypt(stored)).toBe('a-shared-signing-secret');
  });

  it('uses a key of its own: the key at rest of authorization keys cannot read it, nor the other way round', () => {
    const stored = signingSecretCipher(encryptionKey).encrypt('a-shared-signing-secret');
    expect(() => new AuthorizationKeyCipher(encryptionKey).decrypt(stored)).toThrow(AuthorizationKeyDecryptionError);
    const authorizationKey = new AuthorizationKeyCipher(encryptionKey).encrypt('an-authorization-key');
    expect(() => signingSecretCipher(encryptionKey).decrypt(authorizationKey)).toThrow(AuthorizationKeyDecryptionError);
  });

  it('refuses a ciphertext made under another encryption key', () => {
    const stored = signingSecretCipher(randomBytes(32)).encrypt('a-shared-signing-secret');
    expect(() => signingSecretCipher(encryptionKey).decrypt(stored)).toThrow(AuthorizationKeyDecryptionError);
  });
});
