import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Variables the integration project's global setup (tools/test/global-setup.ts) exports to the
 * Jest workers. Specs do not read them directly; they use createTestDatabase, createTestTopics,
 * testKafka and serviceEnv.
 */
export const TEST_ENV = {
  /** Random id of this test run; part of every database, topic and group name it creates. */
  runId: 'TEST_RUN_ID',
  /** A URL on the test PostgreSQL server with the right to create and drop databases. */
  databaseAdminUrl: 'TEST_DATABASE_ADMIN_URL',
  /** The migrated database that createTestDatabase() clones. */
  databaseTemplate: 'TEST_DATABASE_TEMPLATE',
  /** The test Kafka cluster. */
  kafkaBrokers: 'KAFKA_BROKERS',
} as const;

export function requireTestEnv(name: (typeof TEST_ENV)[keyof typeof TEST_ENV]): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: integration specs need the integration project's global setup ` +
        '(run them with `npx jest --selectProjects integration <path>` or `npm run test:integration`)',
    );
  }
  return value;
}

/** Prefix of every database this run creates (the template included), so teardown finds them all. */
export function testDatabasePrefix(runId: string): string {
  return `alert_ingestion_test_${runId}_`;
}

/** The run's temporary folder (the global setup creates it and teardown removes it): specs keep their own servers' data in it. */
export function testRunDir(runId: string): string {
  return join(tmpdir(), `alert-ingestion-test-${runId}`);
}

/** Prefix of every topic this run creates. */
export function testTopicPrefix(runId: string): string {
  return `test.${runId}.`;
}
