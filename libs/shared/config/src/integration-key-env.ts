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
