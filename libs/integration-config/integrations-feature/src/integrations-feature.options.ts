/** What the integration management feature needs from the service's configuration. */
export interface IntegrationsFeatureOptions {
  /** Base of the integration URLs shown to users (GATEWAY_PUBLIC_URL). */
  gatewayPublicUrl: string;
  /** Where integration-config itself reaches the gateway to send test alerts; defaults to the public URL. */
  gatewayInternalUrl: string;
  /** AES-256 key for authorization keys at rest (32 bytes). */
  authorizationKeyEncryptionKey: Buffer;
  /** How long a test alert may take at the gateway before the request gives up. */
  testAlertTimeoutMs: number;
  /** DATABASE_URL: the snapshot relay keeps a session of its own. */
  databaseUrl: string;
  /** How long a change waits for its snapshot to reach the integrations topic before it is answered anyway. */
  snapshotPublishTimeoutMs: number;
  /** The unit of heartbeat intervals when telling a heartbeat's status: a minute; shorter only in tests (HEARTBEAT_MINUTE_MS). */
  heartbeatMinuteMs: number;
}

export const INTEGRATIONS_FEATURE_OPTIONS = Symbol('INTEGRATIONS_FEATURE_OPTIONS');
