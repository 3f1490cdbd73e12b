export * from './alerts-database';
export * from './alert-event-outbox';
export * from './alert-batch.repository';
export * from './alerts-query.repository';
export * from './processed-raw-alerts.retention';
export * from './deliveries.repository';
export * from './heartbeats.repository';
export * from './silences.repository';
