import { Topic } from '@alert-ingestion/contracts';
import { KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { createTestDatabase, eventually, Received, requireTestEnv, TEST_ENV, testKafka, testTopicPrefix, TestDatabase, TopicCollector } from '@alert-ingestion/testing';
import { Admin, Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { OUTBOX_ID_HEADER, OutboxRecord, OutboxRelay, OutboxRelayOptions, OutboxTable, shardName, ShardedOutboxRelay, writeOutbox } from '../src';

const table: OutboxTable = {
  name: 'sharded_thing_outbox',
  channel: 'sharded_thing_outbox',
  writeLock: 9_200_001,
  leaderLock: 9_200_002,
  sharding: { keyHashColumn: 'key_hash', lockClass: 920_000 },
};
const SHARDS = 4;
/** The pause after a partial batch of one relay alone; the shards an instance leads share it. */
const LINGER_MS = 5;
const KEYS = 24;

interface Thing {
  n: number;
}

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('ShardedOutboxRelay (real PostgreSQL and Kafka)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let kafka: Kafka;
  let admin: Admin;
  const instances: ShardedOutboxRelay[] = [];
  const singles: OutboxRelay[] = [];

  async function topic(): Promise<{ prefix: string; topic: string }> {
    const prefix = `${testTopicPrefix(requireTestEnv(TEST_ENV.runId))}${randomBytes(4).toString('hex')}.`;
    const names = new KafkaNames(prefix);
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        { topic: names.topic(Topic.AlertEvents), numPartitions: 3 },
        { topic: names.topic(Topic.AlertEventsDeadLetter), numPartitions: 1 },
      ],
    });
    return { prefix, topic: names.topic(Topic.AlertEvents) };
  }

  /** The producer of a relay: `relay` for the single relay, `relay.shard-<n>-of-<count>` for a shard's. */
  const producer = (prefix: string, id: string) =>
    new TransactionalTopicProducer(kafka, new KafkaNames(prefix), { topic: Topic.AlertEvents, transactionalId: `${prefix}${id}`, positionGroupId: `${prefix}${id}` });

  const relayOptions = (name: string): OutboxRelayOptions => ({
    name,
    databaseUrl: database.url,
    table,
    deadLetterTopic: Topic.AlertEventsDeadLetter,
    batchSize: 20,
    lingerMs: LINGER_MS,
    pollIntervalMs: 200,
    initialRetryMs: 100,
    maxRetryMs: 1_000,
    maxAttempts: 2,
    stallAfterMs: 60_000,
    logger: quiet,
  });

  /** One relay instance, as one service replica runs it; its shards start where the single relay `relay` stopped. */
  function instance(prefix: string): ShardedOutboxRelay {
    const created = new ShardedOutboxRelay(
      (shard) => new OutboxRelay(producer(prefix, `relay.${shardName(shard)}`), { ...relayOptions(`things ${shardName(shard)}`), shard, predecessor: producer(prefix, 'relay') }),
      { databaseUrl: database.url, table, shardCount: SHARDS, rebalanceIntervalMs: 100, name: 'things', logger: quiet },
    );
    instances.push(created);
    return created;
  }

  /** The single relay of the whole outbox, as a replica of an earlier version runs it. */
  function single(prefix: string): OutboxRelay {
    const created = new OutboxRelay(producer(prefix, 'relay'), relayOptions('things'));
    singles.push(created);
    return created;
  }

  async function commit(records: OutboxRecord[]): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await writeOutbox(async (text, values) => (await client.query(text, [...values])).rows, table, records);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }

  /** `count` records, numbered from `from`, round-robin over the keys. */
  const things = (from: number, count: number): OutboxRecord[] => Array.from({ length: count }, (_, i) => ({ key: `k${(from + i) % KEYS}`, value: JSON.stringify({ n: from + i }) }));

  /** Every record exactly once (one copy of each outbox id) and each key's records in the order written. */
  function expectExactlyOnceInOrder(received: Received<Thing>[], total: number): void {
    expect(new Set(received.map((message) => message.headers[OUTBOX_ID_HEADER])).size).toBe(total);
    expect(received).toHaveLength(total);
    for (let key = 0; key < KEYS; key++) {
      const ns = received.filter((message) => message.key === `k${key}`).map((message) => message.value.n);
      expect(ns).toEqual([...ns].sort((a, b) => a - b));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool(4);
    await pool.query(
      `CREATE TABLE ${table.name} (id bigserial PRIMARY KEY, key text NOT NULL, value json, created_at timestamptz(3) NOT NULL DEFAULT now(), headers json,
        key_hash bigint NOT NULL GENERATED ALWAYS AS ((('x' || left(md5(key), 8))::bit(32)::bigint)) STORED)`,
    );
    kafka = testKafka();
    admin = kafka.admin();
    await admin.connect();
  });

  afterEach(async () => {
    await Promise.all([...instances.splice(0), ...singles.splice(0)].map((started) => started.stop()));
    await pool.query(`TRUNCATE ${table.name}`);
  });

  afterAll(async () => {
    await admin.disconnect();
    await pool.end();
    await database.drop();
  });

  it('spreads the shards over the instances, each publishing its share, every record once and in order per key', async () => {
    const names = await topic();
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);
    const [a, b] = [instance(names.prefix), instance(names.prefix)];
    a.start();
    b.start();
    await eventually(async () => {
      expect(a.leading()).toHaveLength(SHARDS / 2);
      expect(b.leading()).toHaveLength(SHARDS / 2);
    });
    expect([...a.leading(), ...b.leading()].sort()).toEqual([0, 1, 2, 3]);
    // Each instance's two shards share its transaction budget: each lingers twice as long.
    const lingers = (instance: ShardedOutboxRelay) => instance.shardStatuses().filter((shard) => shard.leading).map((shard) => shard.lingerMs);
    await eventually(async () => expect([...lingers(a), ...lingers(b)]).toEqual(Array<number>(SHARDS).fill(2 * LINGER_MS)));

    for (let batch = 0; batch < 20; batch++) await commit(things(batch * 30, 30));
    await received.waitFor(() => true, 600);
    await eventually(async () => expect(a.status().published + b.status().published).toBe(600));
    expectExactlyOnceInOrder(received.received, 600);
    expect(a.status().published).toBeGreaterThan(0);
    expect(b.status().published).toBeGreaterThan(0);
    // Each shard's rows were published by the one instance leading it.
    const byShard = [...a.shardStatuses(), ...b.shardStatuses()].filter((shard) => shard.published > 0);
    expect(byShard.map((shard) => shard.shard).sort()).toEqual([0, 1, 2, 3]);
    await eventually(async () => expect((await pool.query(`SELECT count(*)::int AS n FROM ${table.name}`)).rows[0].n).toBe(0));
    await received.stop();
  });

  it('hands a stopped instance’s shards to the one left, mid-stream, losing and repeating nothing', async () => {
    const names = await topic();
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);
    const [a, b] = [instance(names.prefix), instance(names.prefix)];
    a.start();
    b.start();
    // Each leads half of the shards before the stream starts (the first to start may lead them all for a moment).
    await eventually(async () => expect([a.leading().length, b.leading().length]).toEqual([SHARDS / 2, SHARDS / 2]));

    const writing = (async () => {
      for (let batch = 0; batch < 40; batch++) {
        await commit(things(batch * 20, 20));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    // Stopped mid-stream, once it has published some of its shards' rows.
    await eventually(async () => expect(a.status().published).toBeGreaterThan(0));
    await a.stop();
    await eventually(async () => expect(b.leading()).toEqual([0, 1, 2, 3]));
    // The one instance left leads every shard, within the budget one instance has.
    await eventually(async () => expect(b.shardStatuses().map((shard) => shard.lingerMs)).toEqual(Array<number>(SHARDS).fill(SHARDS * LINGER_MS)));
    await writing;
    await received.waitFor(() => true, 800);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expectExactlyOnceInOrder(received.received, 800);
    expect(a.status().published).toBeGreaterThan(0);
    expect(b.status().published).toBeGreaterThan(0);
    await received.stop();
  });

  it('takes over from a single relay of an earlier version: waits while it leads, starts where it stopped, and keeps it out', async () => {
    const names = await topic();
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);
    const earlier = single(names.prefix);
    earlier.start();
    await commit(things(0, 100));
    await received.waitFor(() => true, 100);

    // While the single relay leads, the sharded instance leads no shard.
    const sharded = instance(names.prefix);
    sharded.start();
    for (let check = 0; check < 10; check++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sharded.leading()).toEqual([]);
    }

    // Rows the single relay published but had not deleted when it stopped (as after a crash), put back with their ids.
    await earlier.stop();
    const published = received.received.slice(0, 10);
    for (const message of published) {
      await pool.query(`INSERT INTO ${table.name} (id, key, value) VALUES ($1, $2, $3)`, [message.headers[OUTBOX_ID_HEADER], message.key, JSON.stringify(message.value)]);
    }

    await eventually(async () => expect(sharded.leading()).toEqual([0, 1, 2, 3]));
    await commit(things(100, 100));
    await received.waitFor(() => true, 200);

    // A single relay started now stays out: the sharded instances hold its lock shared.
    const later = single(names.prefix);
    later.start();
    await commit(things(200, 20));
    await received.waitFor(() => true, 220);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(later.status()).toMatchObject({ state: 'standby', published: 0 });
    expect(sharded.status().published).toBe(120);
    expectExactlyOnceInOrder(received.received, 220);
    // The put-back rows were below the single relay's position: removed, never published again.
    await eventually(async () => expect((await pool.query(`SELECT count(*)::int AS n FROM ${table.name}`)).rows[0].n).toBe(0));
    await received.stop();
  });
});
