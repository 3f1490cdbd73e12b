export * from './key';
export { ONCALL_EVENT_TYPES, OncallEventValue } from './value';
export type { OncallEventType } from './value';
export * from './examples';
