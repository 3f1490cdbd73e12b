export * from './authorization-credentials';
export * from './alert-body-shape';
export * from './rate-limit-headers';
export * from './authorization-key-match';
export * from './webhook-signature';
export * from './signature-replay';
export * from './server-timing';
