import { BaseEnv, IntegerSetting, LOCAL_ADMIN_TOKEN } from '@alert-ingestion/config';
import { IsOptional, IsString, IsUrl, MinLength } from 'class-validator';

/** An absolute http(s) URL; a host without a top-level domain (localhost, a service name) is fine. */
const HttpUrl = () => IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true });

/**
 * integration-config's environment (CONTRACT.md "Processes and defaults"). Defaults serve the local
 * stack; in production ADMIN_TOKEN and INTEGRATION_KEY_ENCRYPTION_KEY must be set.
 */
export class IntegrationConfigEnv extends BaseEnv {
  override PORT = 8081;

  /** The bootstrap administrator's token: creates users and projects (CONTRACT.md "Management API"). */
  @IsString()
  @MinLength(16)
  ADMIN_TOKEN = LOCAL_ADMIN_TOKEN;

  /** Base of the integration URLs users configure in their monitoring tools. */
  @HttpUrl()
  GATEWAY_PUBLIC_URL = 'http://127.0.0.1:8080';

  /** Where this service reaches the gateway to send test alerts; defaults to GATEWAY_PUBLIC_URL. */
  @IsOptional()
  @HttpUrl()
  GATEWAY_INTERNAL_URL?: string = undefined;

  /**
   * Base64 of 32 random bytes (`openssl rand -base64 32`): the AES-256-GCM key for authorization
   * keys at rest. Unset outside production: a key is generated once and kept in
   * INTEGRATION_KEY_ENCRYPTION_KEY_FILE.
   */
  @IsOptional()
  @IsString()
  INTEGRATION_KEY_ENCRYPTION_KEY?: string = undefined;

  /** The generated local key's file (under the git-ignored .data/). */
  @IsString()
  INTEGRATION_KEY_ENCRYPTION_KEY_FILE = '.data/integration-key-encryption.key';

  /**
   * Where the alerts query API runs (alert-processor). The console reaches it through this
   * service's narrow proxy of `/api/v4/projects/:id/alerts...`, so it needs one origin only.
   */
  @HttpUrl()
  ALERT_PROCESSOR_URL = 'http://127.0.0.1:8082';

  /** How long a test alert may take at the gateway (which itself answers 202 after its reply timeout). */
  @IntegerSetting({ min: 1_000 })
  TEST_ALERT_TIMEOUT_MS = 30_000;

  /**
   * How long a change to an integration waits for its snapshot to reach the integrations topic
   * before it is answered anyway (stored, and published once Kafka takes it). Normally milliseconds.
   */
  @IntegerSetting({ min: 0, max: 60_000 })
  SNAPSHOT_PUBLISH_TIMEOUT_MS = 5_000;

  /**
   * For tests only: the length of the minute that heartbeat intervals count in when an
   * integration's heartbeat status is told (the same as alert-processor's). Leave it at 60000.
   */
  @IntegerSetting({ min: 1 })
  HEARTBEAT_MINUTE_MS = 60_000;
}
