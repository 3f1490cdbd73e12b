import { withClient } from '@alert-ingestion/database';
import { randomUUID } from 'node:crypto';
import { ProcessedRawAlertsRetention } from '../src';
import { alertsDatabaseFixture } from './alerts-database.fixture';

describe('ProcessedRawAlertsRetention (real PostgreSQL)', () => {
  const store = alertsDatabaseFixture();

  async function insertProcessed(processedAt: Date, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => randomUUID());
    await withClient(store.database.url, (client) =>
      client.query(
        `INSERT INTO processed_raw_alerts (request_id, project_id, result, processed_at)
         SELECT id, 1, '{"alerts":[]}', $2 FROM unnest($1::uuid[]) AS id`,
        [ids, processedAt],
      ),
    );
    return ids;
  }

  it('removes records processed before the cut-off, in chunks, and keeps the others', async () => {
    const cutoff = new Date('2026-11-14T00:00:00.000Z');
    await insertProcessed(new Date('2026-11-01T00:00:00.000Z'), 25);
    await insertProcessed(new Date(cutoff.getTime() - 1), 1);
    const kept = [...(await insertProcessed(cutoff, 1)), ...(await insertProcessed(new Date('2026-11-20T00:00:00.000Z'), 3))];

    const removed = await new ProcessedRawAlertsRetention(store.alerts).removeProcessedBefore(cutoff, 10);

    expect(removed).toBe(26);
    const left = await withClient(store.database.url, (client) => client.query<{ request_id: string }>('SELECT request_id FROM processed_raw_alerts'));
    expect(left.rows.map((row) => row.request_id).sort()).toEqual([...kept].sort());
  });

  it('vacuums the table after a sweep that leaves many dead rows, so no dead row is left without autovacuum', async () => {
    await withClient(store.database.url, (client) => client.query('TRUNCATE processed_raw_alerts'));
    const cutoff = new Date('2026-11-14T00:00:00.000Z');
    await insertProcessed(new Date('2026-11-01T00:00:00.000Z'), 20_000);
    const kept = await insertProcessed(new Date('2026-11-20T00:00:00.000Z'), 5);

    expect(await new ProcessedRawAlertsRetention(store.alerts).removeProcessedBefore(cutoff)).toBe(20_000);

    const stats = await withClient(store.database.url, (client) =>
      client.query<{ dead: string; vacuums: string }>(
        "SELECT n_dead_tup AS dead, vacuum_count AS vacuums FROM pg_stat_user_tables WHERE relname = 'processed_raw_alerts'",
      ),
    );
    expect(Number(stats.rows[0].vacuums)).toBeGreaterThan(0);
    expect(Number(stats.rows[0].dead)).toBe(0);
    const left = await withClient(store.database.url, (client) => client.query<{ request_id: string }>('SELECT request_id FROM processed_raw_alerts'));
    expect(left.rows.map((row) => row.request_id).sort()).toEqual([...kept].sort());
  });
});
