import { withClient } from '@alert-ingestion/database';
import { eventually } from '@alert-ingestion/testing';
import { ChurnedTablesReclaimer } from '../src';
import { alertsDatabaseFixture } from './alerts-database.fixture';

describe('ChurnedTablesReclaimer (real PostgreSQL)', () => {
  const store = alertsDatabaseFixture();

  const vacuums = async () =>
    withClient(store.database.url, async (client) => {
      const { rows } = await client.query<{ dead: string; vacuums: string }>(
        "SELECT n_dead_tup AS dead, vacuum_count AS vacuums FROM pg_stat_user_tables WHERE relname = 'processed_raw_alerts'",
      );
      return { dead: Number(rows[0].dead), vacuums: Number(rows[0].vacuums) };
    });

  it('looks only after changes, at most once an interval, and vacuums a table whose rows were updated in bulk', async () => {
    const reclaimer = new ChurnedTablesReclaimer(store.alerts, ['processed_raw_alerts'], 1_000);
    // Nothing changed: no look, whatever the table holds.
    expect(await reclaimer.reclaimIfDue(0)).toEqual([]);

    await withClient(store.database.url, async (client) => {
      await client.query(
        `INSERT INTO processed_raw_alerts (request_id, project_id, result, processed_at)
         SELECT gen_random_uuid(), 1, '{"alerts":[]}', now() FROM generate_series(1, 15000)`,
      );
      // Every row updated once, as a claim marks its rows: 15,000 dead row versions.
      await client.query(`UPDATE processed_raw_alerts SET result = '{"alerts":[1]}'`);
    });
    expect((await vacuums()).vacuums).toBe(0);

    reclaimer.changed(0);
    // Within the interval of the last look: no look yet.
    expect(await reclaimer.reclaimIfDue(500)).toEqual([]);
    // Once PostgreSQL's statistics count the updates, a look after the interval vacuums the table.
    await eventually(async () => expect((await vacuums()).dead).toBeGreaterThanOrEqual(15_000), 15_000);
    expect(await reclaimer.reclaimIfDue(1_000)).toEqual(['processed_raw_alerts']);
    expect(await vacuums()).toEqual({ dead: 0, vacuums: 1 });
    // Changes long looked at are forgotten: no more looks while idle.
    expect(await reclaimer.reclaimIfDue(20_000)).toEqual([]);
    expect(await reclaimer.reclaimIfDue(40_000)).toEqual([]);
  });
});
