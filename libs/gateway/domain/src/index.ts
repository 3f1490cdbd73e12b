export * from './authorization-credentials';
export * from './json-body-limits';
export * from './alert-body-shape';
export * from './rate-limit-headers';
