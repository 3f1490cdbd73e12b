export * from './key';
// encodeRawAlert is the topic registry's: producers encode through TOPIC_REGISTRY.
export { IDEMPOTENCY_KEY_LIFETIME_MS, idempotentRequestId, rawAlertBody, rawAlertRequestId, RawAlertValue } from './value';
export type { RawAlertEnvelope, RawAlertOutgoing } from './value';
export * from './examples';
