export * from './key';
// encodeAlertEvent is the topic registry's: producers encode through TOPIC_REGISTRY.
export { ALERT_EVENT_CAUSES, ALERT_EVENT_TYPES, AlertEventValue } from './value';
export type { AlertEventAlert, AlertEventCause, AlertEventCauseType, AlertEventType } from './value';
export * from './examples';
