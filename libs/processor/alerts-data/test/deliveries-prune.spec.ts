import { withClient } from '@alert-ingestion/database';
import { randomUUID } from 'node:crypto';
import { DeliveriesRepository } from '../src';
import { alertsDatabaseFixture } from './alerts-database.fixture';

describe('DeliveriesRepository.prune (real PostgreSQL)', () => {
  const store = alertsDatabaseFixture();

  /** Deliveries of one integration, received at the given times; returns their request ids in that order. */
  async function insertDeliveries(integrationId: number, receivedAt: readonly Date[]): Promise<string[]> {
    const requestIds = receivedAt.map(() => randomUUID());
    await withClient(store.database.url, (client) =>
      client.query(
        `INSERT INTO alert_deliveries (delivery_id, project_id, integration_id, request_id, received_at, status, body, body_size, body_truncated)
         SELECT gen_random_uuid(), 1, $1, request_id, received_at, 200, '{}', 2, false FROM unnest($2::text[], $3::timestamptz[]) AS t(request_id, received_at)`,
        [integrationId, requestIds, receivedAt],
      ),
    );
    return requestIds;
  }

  it('keeps per integration the latest deliveries within the retention, and removes the older and the surplus ones', async () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    const hour = 60 * 60 * 1000;
    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * hour);
    // Integration 1: four recent deliveries, of which the oldest is beyond a count of three, and one too old.
    const [, ...recentKept] = await insertDeliveries(1, [at(4), at(3), at(2), at(1)]);
    await insertDeliveries(1, [at(30)]);
    // Integration 2: two recent ones (within the count) and one too old.
    const otherKept = await insertDeliveries(2, [at(2), at(1)]);
    await insertDeliveries(2, [at(25)]);

    const removed = await new DeliveriesRepository(store.alerts).prune(now, 24 * hour, 3);

    expect(removed).toBe(3);
    const left = await withClient(store.database.url, (client) => client.query<{ request_id: string }>('SELECT request_id FROM alert_deliveries'));
    expect(left.rows.map((row) => row.request_id).sort()).toEqual([...recentKept, ...otherKept].sort());
  });

  it('vacuums the table after a prune that leaves many dead rows, so no dead row is left without autovacuum', async () => {
    await withClient(store.database.url, (client) => client.query('TRUNCATE alert_deliveries'));
    const now = new Date('2026-11-22T12:00:00.000Z');
    const receivedAt = Array.from({ length: 12_000 }, (_, n) => new Date(now.getTime() - (12_000 - n) * 1000));
    const requestIds = await insertDeliveries(3, receivedAt);

    expect(await new DeliveriesRepository(store.alerts).prune(now, 24 * 60 * 60 * 1000, 100)).toBe(11_900);

    const stats = await withClient(store.database.url, (client) =>
      client.query<{ dead: string; vacuums: string }>("SELECT n_dead_tup AS dead, vacuum_count AS vacuums FROM pg_stat_user_tables WHERE relname = 'alert_deliveries'"),
    );
    expect(Number(stats.rows[0].vacuums)).toBeGreaterThan(0);
    expect(Number(stats.rows[0].dead)).toBe(0);
    const left = await withClient(store.database.url, (client) => client.query<{ request_id: string }>('SELECT request_id FROM alert_deliveries'));
    expect(left.rows.map((row) => row.request_id).sort()).toEqual(requestIds.slice(-100).sort());
  });
});
