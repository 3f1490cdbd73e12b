import 'reflect-metadata';
export * from './topics';
export * from './alert';
export * from './oncall';
export * from './access';
export * from './management';
export * from './deprecations';
// decodeMessage and encodeMessage are the topic registry's: messages are decoded and encoded through TOPIC_REGISTRY.
export { ContractViolationError, validateMessage } from './decode-message';
export * as RawAlert from './raw-alert';
export * as AlertReply from './alert-reply';
export * as AlertEvent from './alert-event';
export * as IncidentEvent from './incident-event';
export * as OncallEvent from './oncall-event';
export * as IntegrationSnapshot from './integration-snapshot';
export * as DeadLetter from './dead-letter';
export * as OutboxDeadLetter from './outbox-dead-letter';
export * as DeliveryRecord from './delivery-record';
export * from './integration-url';
