import 'reflect-metadata';
export * from './topics';
export * from './alert';
export * from './decode-message';
export * as RawAlert from './raw-alert';
export * as AlertReply from './alert-reply';
export * as AlertEvent from './alert-event';
export * as IntegrationSnapshot from './integration-snapshot';
export * as DeadLetter from './dead-letter';
