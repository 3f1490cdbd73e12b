export * from './key';
export { INCIDENT_EVENT_TYPES, IncidentEventValue } from './value';
export type { IncidentEventType } from './value';
export * from './examples';
