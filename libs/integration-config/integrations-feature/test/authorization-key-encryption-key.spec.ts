import { AuthorizationKeyCipher, resolveAuthorizationKeyEncryptionKey } from '@alert-ingestion/crypto';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('resolveAuthorizationKeyEncryptionKey', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'integration-key-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses the configured key', () => {
    const key = randomBytes(32);
    expect(resolveAuthorizationKeyEncryptionKey({ base64: key.toString('base64'), file: join(dir, 'k'), production: true })).toEqual({ key, source: 'configured' });
  });

  it('generates a local key once, keeps it in a private file and reads it back', () => {
    const file = join(dir, '.data', 'integration-key-encryption.key');
    const generated = resolveAuthorizationKeyEncryptionKey({ file, production: false });
    expect(generated.source).toBe('generated');
    expect(generated.key).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(generated.key);

    const again = resolveAuthorizationKeyEncryptionKey({ file, production: false });
    expect(again).toEqual({ key: generated.key, source: 'file' });
    // What was encrypted before a restart can still be read after it.
    const stored = new AuthorizationKeyCipher(generated.key).encrypt('the-authorization-key');
    expect(new AuthorizationKeyCipher(again.key).decrypt(stored)).toBe('the-authorization-key');
  });

  it('refuses to generate a key in production, and refuses a malformed key', () => {
    expect(() => resolveAuthorizationKeyEncryptionKey({ file: join(dir, 'k'), production: true })).toThrow(/required in production/);
    expect(() => resolveAuthorizationKeyEncryptionKey({ base64: randomBytes(31).toString('base64'), file: join(dir, 'k'), production: false })).toThrow(
      /INTEGRATION_KEY_ENCRYPTION_KEY must be base64 of exactly 32 bytes/,
    );
  });
});
