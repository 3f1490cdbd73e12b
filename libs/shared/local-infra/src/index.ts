// Real Kafka and PostgreSQL on this machine, for `npm start` (tools/dev-stack), the integration
// tests' global setup and the benchmarks: a broker from the Maven Central jars, the system's or an
// embedded PostgreSQL, supervised child processes, free ports and health probes.
export * from './supervised-process';
export * from './free-port';
export * from './repo-root';
export * from './kafka-jars';
export * from './kafka-broker';
export * from './embedded-postgres';
export * from './postgres-server';
