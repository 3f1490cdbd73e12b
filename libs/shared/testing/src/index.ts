export * from './test-environment';
export * from './test-database';
export * from './test-kafka';
export * from './service-env';
export * from './service-process';
export * from './eventually';
export * from './process-alive';
// Local infrastructure (also used by `npm start` and the integration global setup).
export * from './local/supervised-process';
export * from './local/free-port';
export * from './local/repo-root';
export * from './local/kafka-jars';
export * from './local/kafka-broker';
export * from './local/embedded-postgres';
export * from './local/postgres-server';
