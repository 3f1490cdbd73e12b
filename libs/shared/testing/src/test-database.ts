import { dropDatabase, quoteIdentifier, withClient, withDatabaseName } from '@alert-ingestion/database';
import { randomBytes } from 'node:crypto';
import { requireTestEnv, TEST_ENV, testDatabasePrefix } from './test-environment';

export interface TestDatabase {
  /** postgresql:// URL of a fresh, fully migrated database of its own. */
  url: string;
  name: string;
  /** Drops it (teardown drops whatever a spec leaves behind, too). */
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /** false: an empty database (no migrations applied), for tests of migrating itself. Default true. */
  migrated?: boolean;
}

/**
 * A new database cloned from this run's migrated template (CREATE DATABASE ... TEMPLATE), so each
 * spec file starts from the real schema with no data and never sees another's rows.
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = requireTestEnv(TEST_ENV.databaseAdminUrl);
  const runId = requireTestEnv(TEST_ENV.runId);
  const template = options.migrated === false ? undefined : requireTestEnv(TEST_ENV.databaseTemplate);
  const name = `${testDatabasePrefix(runId)}${randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, async (client) => {
    await client.query(`CREATE DATABASE ${quoteIdentifier(name)}${template ? ` TEMPLATE ${quoteIdentifier(template)}` : ''}`);
  });
  return {
    url: withDatabaseName(adminUrl, name),
    name,
    drop: () => dropDatabase(adminUrl, name),
  };
}
