export * from './authorization-credentials';
export * from './authorization-key';
export * from './json-body-limits';
export * from './alert-body-shape';
export * from './integration-rate-limiter';
