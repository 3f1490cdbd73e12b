/** What the integration management feature needs from the service's configuration. */
export interface IntegrationsFeatureOptions {
  /** The bootstrap administrator's token (ADMIN_TOKEN). */
  adminToken: string;
  /** Base of the integration URLs shown to users (GATEWAY_PUBLIC_URL). */
  gatewayPublicUrl: string;
  /** Where integration-config itself reaches the gateway to send test alerts; defaults to the public URL. */
  gatewayInternalUrl: string;
  /** AES-256 key for authorization keys at rest (32 bytes). */
  authorizationKeyEncryptionKey: Buffer;
  /** KAFKA_TOPIC_PREFIX. */
  topicPrefix: string;
  /** How long a test alert may take at the gateway before the request gives up. */
  testAlertTimeoutMs: number;
  /** Republish every integration to the compacted topic at start-up (default true). */
  resyncOnStart?: boolean;
}

export const INTEGRATIONS_FEATURE_OPTIONS = Symbol('INTEGRATIONS_FEATURE_OPTIONS');
