export * from './test-environment';
export * from './test-database';
export * from './test-kafka';
export * from './service-env';
export * from './service-process';
export * from './eventually';
export * from './process-alive';
