import { withClient } from '@alert-ingestion/database';
import { setTimeout as delay } from 'node:timers/promises';
import { requireTestEnv, TEST_ENV } from '../src/test-environment';
import { createTestDatabase, TestDatabase } from '../src/test-database';

describe('createTestDatabase (real PostgreSQL)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it("gives a pool whose idle connections may be terminated, as the database's drop does after end(), without an unhandled error", async () => {
    const pool = database.pool(2);
    await Promise.all([pool.query('SELECT pg_sleep(0.05)'), pool.query('SELECT pg_sleep(0.05)')]);
    expect(pool.idleCount).toBe(2);
    // What DROP DATABASE ... WITH (FORCE) does to the connections still open.
    // (In the select list, so that it runs only for the rows the WHERE clause kept: the server's
    // other sessions are other specs' and other people's.)
    const terminated = await withClient(requireTestEnv(TEST_ENV.databaseAdminUrl), async (client) => {
      const result = await client.query<{ terminated: boolean }>('SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database.name]);
      return result.rows;
    });
    expect(terminated).toEqual([{ terminated: true }, { terminated: true }]);
    // Each terminated connection gets an error (57P01) and leaves the pool; with no listener on the
    // pool, that 'error' event would be thrown out of the socket's handler and fail this spec.
    while (pool.totalCount > 0) await delay(10);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
