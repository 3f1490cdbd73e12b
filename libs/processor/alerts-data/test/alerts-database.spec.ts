import { withClient } from '@alert-ingestion/database';
import { once } from 'node:events';
import { alertsDatabaseFixture } from './alerts-database.fixture';

describe('AlertsDatabase transactions when PostgreSQL ends their connection (real PostgreSQL)', () => {
  const store = alertsDatabaseFixture({ maxConnections: 2, transactionAttempts: 1 });

  it('fails the step after its session was terminated between two steps, and the pool goes on with a new connection', async () => {
    let terminated = 0;
    const outcome = store.alerts.scriptedTransaction(async (transaction) => {
      const [{ rows }] = await transaction.step<{ pid: number }>(['SELECT pg_backend_pid() AS pid']);
      terminated = rows[0].pid;
      // The session ends while the transaction holds the connection and no statement runs on it.
      const ended = once(transaction.client, 'end');
      await withClient(store.database.url, (client) => client.query('SELECT pg_terminate_backend($1)', [terminated]));
      await ended;
      await transaction.commit(['SELECT 2']);
    });

    await expect(outcome).rejects.toThrow();
    const { rows } = await store.alerts.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(rows[0].pid).not.toBe(terminated);
  });
});
