import { createTestDatabase, eventually, TestDatabase } from '@alert-ingestion/testing';
import { Client, Pool } from 'pg';
import { OUTBOX_ADVISORY_LOCKS, OutboxRecord, OutboxRelayStore, outboxTable, OutboxTable, RELAY_SESSION_SETTINGS, relayStatements, writeOutbox } from '../src';

/** Rows each outbox is filled with, published and deleted, before its relay's statements are planned. */
const DEAD_ROWS = 100_000;
const WRITE_CHUNK = 5_000;
/** The shard count the processors run with by default (EVENT_RELAY_SHARDS). */
const SHARDS = 8;

/** A plan node of EXPLAIN (FORMAT JSON). */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** About the size of an alert event row with its headers (docs/architecture.md, Messaging). */
const record = (n: number): OutboxRecord => ({
  key: `${n % 97}:${n}`,
  value: JSON.stringify({ type: 'alert.created', n, pad: 'x'.repeat(600) }),
  headers: { ce_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, ce_type: 'alert.created' },
});

describe('outbox relays with 100,000 dead rows (real PostgreSQL)', () => {
  let database: TestDatabase;
  let pool: Pool;
  /** A session with the relay's own settings, where its statements are planned. */
  let relaySession: Client;
  const stores: OutboxRelayStore[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool(2);
    relaySession = new Client({ connectionString: database.url, options: RELAY_SESSION_SETTINGS });
    await relaySession.connect();
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.release()));
  });

  afterAll(async () => {
    await relaySession.end();
    await pool.end();
    await database.drop();
  });

  /** Writes records as the services do (writeOutbox), in committed transactions; the highest id written. */
  async function write(table: OutboxTable, from: number, count: number): Promise<bigint> {
    let last = 0n;
    for (let start = from; start < from + count; start += WRITE_CHUNK) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const records = Array.from({ length: Math.min(WRITE_CHUNK, from + count - start) }, (_, i) => record(start + i));
        last = (await writeOutbox(async (text, values) => (await client.query(text, [...values])).rows, table, records)) ?? last;
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }
    return last;
  }

  /** The relays of `table` (one per shard of a sharded outbox), leading. */
  async function lead(table: OutboxTable): Promise<OutboxRelayStore[]> {
    const shards = table.sharding ? Array.from({ length: SHARDS }, (_, index) => ({ index, count: SHARDS })) : [undefined];
    const leading = shards.map((shard) => new OutboxRelayStore(database.url, table, 'dead rows spec', shard));
    stores.push(...leading);
    for (const store of leading) expect(await store.tryLead()).toBe(true);
    return leading;
  }

  /** EXPLAIN (FORMAT JSON) of a statement with its parameters, in a session with the relay's settings. */
  async function plan(text: string, values: unknown[]): Promise<PlanNode[]> {
    const result = await relaySession.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
    return nodes(result.rows[0]['QUERY PLAN'][0].Plan);
  }

  const tables = Object.keys(OUTBOX_ADVISORY_LOCKS) as Array<keyof typeof OUTBOX_ADVISORY_LOCKS>;

  it.each(tables)('%s: every statement of its relay goes by an index, with no parallel plan, and its VACUUM gives the space back', async (name) => {
    const table = outboxTable(name);
    const relays = await lead(table);

    // A burst published: every row written and deleted again by its relay, as after publishing.
    const burstEnd = (await write(table, 0, DEAD_ROWS)) + 1n;
    for (const relay of relays) await relay.removePublished(0n, burstEnd);
    // A few rows come after it, not yet published.
    const last = await write(table, DEAD_ROWS, 3);
    const { rows } = await pool.query<{ live: number }>(`SELECT count(*)::int AS live FROM ${table.name}`);
    expect(rows[0].live).toBe(3);

    // The statements of each relay (each shard's own), from its position (the end of the burst: the
    // relay publishing now) and from 0 (a new leader removing what a crashed one left).
    const shards = table.sharding ? Array.from({ length: SHARDS }, (_, index) => ({ index, count: SHARDS })) : [undefined];
    for (const shard of shards) {
      const statements = relayStatements(table, shard);
      const planned = [
        await plan(statements.read, [burstEnd.toString(), 500]),
        await plan(statements.backlog, [burstEnd.toString(), 10_000]),
        await plan(statements.removePublished, [burstEnd.toString(), (last + 1n).toString()]),
        await plan(statements.removePublished, ['0', burstEnd.toString()]),
      ];
      for (const planNodes of planned) {
        const onTable = planNodes.filter((node) => node['Relation Name'] === table.name);
        // The primary key walked from the position: no sequential scan, and no bitmap scan (which
        // would collect every row from the position, however few the statement wants).
        expect(onTable.length).toBeGreaterThan(0);
        for (const node of onTable) expect(['Index Scan', 'Index Only Scan', 'ModifyTable']).toContain(node['Node Type']);
        expect(onTable.some((node) => node['Index Name'] === `${table.name}_pkey`)).toBe(true);
        expect(planNodes.map((node) => node['Node Type'])).not.toEqual(expect.arrayContaining([expect.stringMatching(/^Gather/)]));
      }
    }

    // The relays' measurement and reading agree with the table, through the index.
    const backlogs = await Promise.all(relays.map((relay) => relay.backlog(burstEnd)));
    expect(backlogs.reduce((sum, backlog) => sum + backlog.rows, 0)).toBe(3);

    // Published too: the table holds only dead rows, and the relay's VACUUM gives their space back
    // (once PostgreSQL's statistics count the deletions).
    for (const relay of relays) await relay.removePublished(burstEnd, last + 1n);
    const size = async () => Number((await pool.query<{ bytes: string }>(`SELECT pg_relation_size('${table.name}') AS bytes`)).rows[0].bytes);
    expect(await size()).toBeGreaterThan(DEAD_ROWS * 500);
    await Promise.all(stores.splice(0).map((store) => store.release()));
    const [reclaimer] = await lead({ ...table, sharding: undefined });
    await eventually(async () => expect(await reclaimer.reclaim({ truncate: true })).toBe(true));
    expect(await size()).toBe(0);
    const { rows: stats } = await pool.query<{ dead: string }>(`SELECT pg_stat_get_dead_tuples('${table.name}'::regclass) AS dead`);
    expect(Number(stats[0].dead)).toBe(0);
  });
});
