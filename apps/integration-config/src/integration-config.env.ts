import { HEARTBEAT_MINUTE_MS_DEFAULT, HeartbeatMinuteSetting, IntegerSetting, IntegrationKeyEnv, LOCAL_ADMIN_TOKEN } from '@alert-ingestion/config';
import { IsOptional, IsString, IsUrl, MinLength } from 'class-validator';

/** An absolute http(s) URL; a host without a top-level domain (localhost, a service name) is fine. */
const HttpUrl = () => IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true });

/**
 * integration-config's environment (CONTRACT.md "Processes and defaults"). Defaults serve the local
 * stack; in production ADMIN_TOKEN and INTEGRATION_KEY_ENCRYPTION_KEY must be set.
 */
export class IntegrationConfigEnv extends IntegrationKeyEnv {
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

  @HeartbeatMinuteSetting()
  HEARTBEAT_MINUTE_MS = HEARTBEAT_MINUTE_MS_DEFAULT;
}
