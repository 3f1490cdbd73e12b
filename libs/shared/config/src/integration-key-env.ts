import { resolveAuthorizationKeyEncryptionKey } from '@alert-ingestion/crypto';
import { LoggerService } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { BaseEnv } from './base-env';

/**
 * BaseEnv with the key that integration-config and the gateway share: integration-config encrypts
 * authorization keys and webhook signing secrets at rest under it, and the gateway derives from it
 * the key that decrypts the signing secrets integration snapshots carry (@alert-ingestion/crypto).
 */
export class IntegrationKeyEnv extends BaseEnv {
  /**
   * Base64 of 32 random bytes (`openssl rand -base64 32`), the same for both services. Unset outside
   * production: a key is generated once and kept in INTEGRATION_KEY_ENCRYPTION_KEY_FILE, which both
   * services read.
   */
  @IsOptional()
  @IsString()
  INTEGRATION_KEY_ENCRYPTION_KEY?: string = undefined;

  /** The generated local key's file (under the git-ignored .data/). */
  @IsString()
  INTEGRATION_KEY_ENCRYPTION_KEY_FILE = '.data/integration-key-encryption.key';
}

/**
 * The key of an IntegrationKeyEnv (resolveAuthorizationKeyEncryptionKey). When none is configured,
 * a warning names the local key file and what this service does with the key (`use`).
 */
export function integrationKeyEncryptionKey(env: IntegrationKeyEnv, logger: LoggerService, use: string): Buffer {
  const resolution = resolveAuthorizationKeyEncryptionKey({
    base64: env.INTEGRATION_KEY_ENCRYPTION_KEY,
    file: env.INTEGRATION_KEY_ENCRYPTION_KEY_FILE,
    production: env.NODE_ENV === 'production',
  });
  if (resolution.source !== 'configured') {
    logger.warn(`INTEGRATION_KEY_ENCRYPTION_KEY is not set: ${use} with the local key in ${env.INTEGRATION_KEY_ENCRYPTION_KEY_FILE}`);
  }
  return resolution.key;
}
