import { dropDatabase, quoteIdentifier, withClient, withDatabaseName } from '@alert-ingestion/database';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { requireTestEnv, TEST_ENV, testDatabasePrefix } from './test-environment';

export interface TestDatabase {
  /** postgresql:// URL of a fresh, fully migrated database of its own. */
  url: string;
  name: string;
  /** Drops it (teardown drops whatever a spec leaves behind, too). */
  drop(): Promise<void>;
  /**
   * What a PostgreSQL restart is to the services that use this database: every connection to it is
   * ended (SQLSTATE 57P01, as at a shutdown) and new ones are refused for `downMs`, then accepted
   * again. Other databases of the server (other specs') are left alone.
   */
  interrupt(downMs: number): Promise<void>;
  /** A pool of `max` connections for the spec's own queries; end it before drop(). */
  pool(max: number): Pool;
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
  const url = withDatabaseName(adminUrl, name);
  return {
    url,
    name,
    drop: () => dropDatabase(adminUrl, name),
    interrupt: (downMs) => interruptDatabase(adminUrl, name, downMs),
    pool: (max) => specPool(url, max),
  };
}

/**
 * pg-pool's end() resolves once it has asked its idle connections to close, not once they have
 * (brianc/node-postgres#2328), so the drop that follows (DROP DATABASE ... WITH (FORCE)) may
 * terminate one still open. PostgreSQL then sends that connection an error (57P01), which the pool
 * emits as its own 'error' event: without a listener, an unhandled error that fails the spec after
 * all its tests passed. An idle connection's error is no outcome of a test (a query's error still
 * rejects the query), so this pool ignores it.
 */
function specPool(url: string, max: number): Pool {
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

async function interruptDatabase(adminUrl: string, name: string, downMs: number): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await client.query(`ALTER DATABASE ${quoteIdentifier(name)} WITH ALLOW_CONNECTIONS false`);
    try {
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      await new Promise((resolve) => setTimeout(resolve, downMs));
    } finally {
      await client.query(`ALTER DATABASE ${quoteIdentifier(name)} WITH ALLOW_CONNECTIONS true`);
    }
  });
}
