import { parseEncryptionKey } from './authorization-key-cipher';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface EncryptionKeySource {
  /** INTEGRATION_KEY_ENCRYPTION_KEY: base64 of 32 bytes. */
  base64?: string;
  /** Where the generated local key is kept when no key is configured (git-ignored .data/). */
  file: string;
  /** In production a key must be configured: a generated one would not be shared by replicas. */
  production: boolean;
}

export type EncryptionKeyResolution = { key: Buffer; source: 'configured' | 'generated' | 'file' };

/**
 * The key that encrypts authorization keys at rest. Configured (INTEGRATION_KEY_ENCRYPTION_KEY) in
 * production; for local use it is generated once and kept in a file so stored keys stay readable
 * across restarts. Several processes may race to create the file: each writes a whole key to a file of
 * its own and links it into place, which fails when the file exists, so the first one wins and no
 * reader ever sees a half-written key.
 */
export function resolveAuthorizationKeyEncryptionKey(source: EncryptionKeySource): EncryptionKeyResolution {
  if (source.base64 !== undefined && source.base64 !== '') {
    const parsed = parseEncryptionKey(source.base64);
    if (typeof parsed === 'string') throw new Error(`INTEGRATION_KEY_ENCRYPTION_KEY ${parsed}`);
    return { key: parsed, source: 'configured' };
  }
  if (source.production) {
    throw new Error('INTEGRATION_KEY_ENCRYPTION_KEY is required in production (base64 of 32 random bytes: `openssl rand -base64 32`)');
  }
  const file = resolve(source.file);
  mkdirSync(dirname(file), { recursive: true });
  let generated = false;
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(candidate, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(candidate, file);
    generated = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(candidate);
  }
  const parsed = parseEncryptionKey(readFileSync(file, 'utf8'));
  if (typeof parsed === 'string') throw new Error(`The key file ${file} ${parsed}`);
  return { key: parsed, source: generated ? 'generated' : 'file' };
}
