export * from './outbox-table';
export * from './outbox-relay.store';
export * from './relay-health';
export * from './outbox-relay';
export * from './relay-health-check';
export * from './outbox-metrics';
export * from './record-refusals';
