export * from './alerts-database';
export * from './alert-row';
export * from './alert-event-outbox';
export * from './alert-batch-changes';
export * from './alert-batch.repository';
export * from './alerts-query.repository';
export * from './project-access.repository';
export * from './alert-event-relay.store';
