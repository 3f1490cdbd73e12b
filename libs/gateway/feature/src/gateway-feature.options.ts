/** Settings of the gateway's receive pipeline, taken from GatewayEnv by the app. */
export interface GatewayFeatureOptions {
  /** How long a receive request waits for the processor's answer before it gets 202 {request_id}. */
  replyTimeoutMs: number;
  /** How long a request for an integration the view does not know yet waits for it. */
  integrationWaitMs: number;
  unavailableRetryAfterSeconds: number;
  rawAlertBatching: { lingerMs: number; maxMessages: number; maxBytes: number; maxInFlight: number; compressAboveBytes: number };
  replies: { maxWaitTimeInMs: number; minBytes: number };
  deliveryRecordsPerSecond: number;
  /** INTEGRATION_KEY_ENCRYPTION_KEY (32 bytes): decrypts the signing secrets in integration snapshots. */
  encryptionKey: Buffer;
  rateLimit: { defaultPerMinute: number; redisUrl?: string; keyPrefix: string };
}

export const GATEWAY_FEATURE_OPTIONS = Symbol('GATEWAY_FEATURE_OPTIONS');
