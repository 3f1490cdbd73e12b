import { OutboxDeadLetter, Topic } from '@alert-ingestion/contracts';
import { KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { SqlQuery } from '@alert-ingestion/sql';
import { createTestDatabase, eventually, Received, requireTestEnv, TEST_ENV, testKafka, testTopicPrefix, TestDatabase, TopicCollector } from '@alert-ingestion/testing';
import { Admin, Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { OUTBOX_ID_HEADER, OutboxRecord, OutboxRelay, OutboxRelayOptions, OutboxTable, writeOutbox } from '../src';

const table: OutboxTable = { name: 'thing_outbox', channel: 'thing_outbox', writeLock: 9_100_001, leaderLock: 9_100_002 };
/** The topic's max.message.bytes: small, so that a refused record is cheap to make. */
const TOPIC_MAX_BYTES = 200_000;

interface Thing {
  n: number;
  pad?: string;
}

class CollectingLogger {
  readonly lines: Array<{ level: string; message: string }> = [];
  log = (message: string) => void this.lines.push({ level: 'log', message });
  warn = (message: string) => void this.lines.push({ level: 'warn', message });
  error = (message: string) => void this.lines.push({ level: 'error', message });
  at(level: string): string[] {
    return this.lines.filter((line) => line.level === level).map((line) => line.message);
  }
}

describe('OutboxRelay (real PostgreSQL and Kafka)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let kafka: Kafka;
  let admin: Admin;
  let query: SqlQuery;
  const relays: OutboxRelay[] = [];

  /** Topics of a test of its own, so that every test reads only its own records. */
  async function topics(options: { create?: boolean } = {}): Promise<{ prefix: string; topic: string; deadLetterTopic: string }> {
    const prefix = `${testTopicPrefix(requireTestEnv(TEST_ENV.runId))}${randomBytes(4).toString('hex')}.`;
    const names = { prefix, topic: new KafkaNames(prefix).topic(Topic.AlertEvents), deadLetterTopic: new KafkaNames(prefix).topic(Topic.AlertEventsDeadLetter) };
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        ...(options.create === false ? [] : [{ topic: names.topic, numPartitions: 3, configEntries: [{ name: 'max.message.bytes', value: String(TOPIC_MAX_BYTES) }] }]),
        { topic: names.deadLetterTopic, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: String(2 * 1024 * 1024) }] },
      ],
    });
    return names;
  }

  function relay(names: { prefix: string; topic: string; deadLetterTopic: string }, logger = new CollectingLogger(), overrides: Partial<OutboxRelayOptions> = {}, client = kafka): OutboxRelay {
    const producer = new TransactionalTopicProducer(client, new KafkaNames(names.prefix), {
      topic: Topic.AlertEvents,
      transactionalId: `${names.prefix}relay`,
      positionGroupId: `${names.prefix}relay`,
      maxBatchBytes: 150_000,
    });
    const created = new OutboxRelay(producer, {
      name: 'things',
      databaseUrl: database.url,
      table,
      deadLetterTopic: Topic.AlertEventsDeadLetter,
      batchSize: 100,
      lingerMs: 0,
      pollIntervalMs: 200,
      initialRetryMs: 200,
      maxRetryMs: 1_000,
      maxAttempts: 2,
      stallAfterMs: 60_000,
      backlogIntervalMs: 200,
      query,
      logger,
      ...overrides,
    });
    relays.push(created);
    return created;
  }

  /** Writes records in a committed transaction, as a service's change would. */
  async function commit(records: OutboxRecord[]): Promise<bigint | null> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const id = await writeOutbox(async (text, values) => (await client.query(text, [...values])).rows, table, records);
      await client.query('COMMIT');
      return id;
    } finally {
      client.release();
    }
  }

  const thing = (key: string, n: number, padBytes = 0): OutboxRecord => ({
    key,
    value: JSON.stringify({ n, ...(padBytes ? { pad: 'x'.repeat(padBytes) } : {}) }),
    headers: { ce_id: `thing-${key}-${n}`, ce_type: 'thing.counted' },
  });
  const ns = (received: Received<Thing>[], key: string) => received.filter((message) => message.key === key).map((message) => message.value.n);

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool(4);
    query = async <Row>(text: string, values: readonly unknown[]) => (await pool.query(text, [...values])).rows as Row[];
    await pool.query(`CREATE TABLE ${table.name} (id bigserial PRIMARY KEY, key text NOT NULL, value json, created_at timestamptz(3) NOT NULL DEFAULT now(), headers json)`);
    kafka = testKafka();
    admin = kafka.admin();
    await admin.connect();
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((started) => started.stop()));
    await pool.query(`TRUNCATE ${table.name}`);
  });

  afterAll(async () => {
    await admin.disconnect();
    await pool.end();
    await database.drop();
  });

  it('publishes what was committed while no relay ran, in order per key, exactly once, across relays', async () => {
    const names = await topics();
    const records = Array.from({ length: 250 }, (_, n) => thing(`k${n % 5}`, n));
    await commit(records.slice(0, 120));
    await commit(records.slice(120));
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);

    const first = relay(names);
    first.start();
    await received.waitFor(() => true, 250);
    await first.stop();
    for (let key = 0; key < 5; key++) {
      expect(ns(received.received, `k${key}`)).toEqual(Array.from({ length: 50 }, (_, i) => i * 5 + key));
    }
    await eventually(async () => expect((await pool.query(`SELECT count(*)::int AS n FROM ${table.name}`)).rows[0].n).toBe(0));

    // A second relay continues from the position the first committed with its last transaction.
    await commit([thing('k0', 250), thing('k1', 251)]);
    relay(names).start();
    await received.waitFor(() => true, 252);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = received.received.map((message) => message.headers[OUTBOX_ID_HEADER]);
    expect(new Set(ids).size).toBe(252);
    expect(received.received).toHaveLength(252);
    // Each record carries the headers its row was written with, beside its outbox id.
    expect(received.received.map((message) => message.headers)).toEqual(
      received.received.map((message) => ({ ce_id: `thing-${message.key}-${message.value.n}`, ce_type: 'thing.counted', [OUTBOX_ID_HEADER]: expect.stringMatching(/^\d+$/) })),
    );
    await received.stop();
  });

  it('sends a batch larger than a record batch of the topic in several produce requests', async () => {
    const names = await topics();
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);
    relay(names).start();
    // 30 records of 20 kB in one partition: 600 kB, three times what the topic takes in one batch.
    await commit(Array.from({ length: 30 }, (_, n) => thing('same-key', n, 20_000)));
    await received.waitFor(() => true, 30);
    expect(ns(received.received, 'same-key')).toEqual(Array.from({ length: 30 }, (_, n) => n));
    await received.stop();
  });

  it('dead-letters a record the topic refuses, after bounded attempts, and publishes the ones after it', async () => {
    const names = await topics();
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);
    const deadLetters = await TopicCollector.start<OutboxDeadLetter.OutboxDeadLetterValue>(kafka, names.deadLetterTopic, names.prefix);
    const logger = new CollectingLogger();
    const started = relay(names, logger);
    started.start();
    const refusedId = await commit([thing('a', 1), thing('b', 2, 300_000), thing('a', 3)]);
    await commit([thing('b', 4)]);

    await received.waitFor(() => true, 3);
    expect(received.received.map((message) => [message.key, message.value.n])).toEqual(
      expect.arrayContaining([
        ['a', 1],
        ['a', 3],
        ['b', 4],
      ]),
    );
    expect(ns(received.received, 'a')).toEqual([1, 3]);
    const [letter] = await deadLetters.waitFor(() => true);
    expect(letter.key).toBe('b');
    expect(letter.value).toMatchObject({
      topic: names.topic,
      key: 'b',
      outbox_id: String((refusedId as bigint) - 1n),
      value_bytes: 300_000 + '{"n":2,"pad":""}'.length,
      value_truncated: false,
      reason: expect.stringMatching(/^refused by the broker 2 times: .*(MESSAGE_TOO_LARGE|RECORD_LIST_TOO_LARGE)/),
    });
    expect(JSON.parse(letter.value.value as string)).toMatchObject({ n: 2 });
    expect(started.status()).toMatchObject({ deadLettered: 1, published: 3 });
    expect(logger.at('error')).toEqual([expect.stringContaining(`went to ${names.deadLetterTopic}`)]);
    await received.stop();
    await deadLetters.stop();
  });

  it('logs a failing relay once per change of state, backs off, and recovers', async () => {
    // The topic does not exist yet: every attempt fails the same way.
    const names = await topics({ create: false });
    const logger = new CollectingLogger();
    const quickToFail = testKafka({ retry: { retries: 1, initialRetryTime: 50, maxRetryTime: 100 } });
    const started = relay(names, logger, { initialRetryMs: 100, maxRetryMs: 400 }, quickToFail);
    started.start();
    await commit([thing('k', 1)]);
    await eventually(() => expect(started.status()).toMatchObject({ state: 'failing', failure: expect.any(String) }), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.at('error')[0]).toMatch(/^things: publishing failed, retrying with backoff/);

    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: names.topic, numPartitions: 3 }] });
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);
    const [published] = await received.waitFor(() => true, 1, 15_000);
    // Tried again and again, the row is published with the headers it was written with: its ce_id is the one decided when it was written.
    expect(published.headers).toMatchObject({ ce_id: 'thing-k-1', ce_type: 'thing.counted' });
    await eventually(() => expect(logger.at('log')).toContainEqual(expect.stringMatching(/^things: recovered after .* and \d+ failed attempts$/)));
    expect(started.status()).toMatchObject({ state: 'publishing', failure: null, published: 1 });
    await received.stop();
  });

  it('awaitPublished resolves once the row is on the topic, false while no relay can publish it', async () => {
    const names = await topics();
    // Hold the leadership: the relay stands by, the row waits in the outbox.
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [table.leaderLock]);
    const started = relay(names);
    started.start();
    const id = (await commit([thing('k', 1)])) as bigint;
    expect(await started.awaitPublished(id, 400)).toBe(false);
    expect(started.status()).toMatchObject({ state: 'standby', backlogRows: null });

    await holder.end();
    expect(await started.awaitPublished(id, 10_000)).toBe(true);
    await eventually(() => expect(started.status()).toMatchObject({ state: 'publishing', backlogRows: 0, published: 1 }));
  });

  it('vacuums the outbox once a burst is published, so neither its dead rows nor their pages are left', async () => {
    const names = await topics();
    // A burst written while the relay stands by, then published at once.
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [table.leaderLock]);
    const started = relay(names, new CollectingLogger(), { batchSize: 500, reclaimIntervalMs: 0 });
    started.start();
    for (let chunk = 0; chunk < 6; chunk++) await commit(Array.from({ length: 500 }, (_, n) => thing(`k${n % 7}`, chunk * 500 + n)));
    const received = await TopicCollector.start<Thing>(kafka, names.topic, names.prefix);
    await holder.end();

    await received.waitFor(() => true, 3_000);
    await received.stop();
    const stats = async () =>
      (
        await pool.query<{ dead: string; vacuums: string; bytes: string }>(
          `SELECT n_dead_tup AS dead, vacuum_count AS vacuums, pg_relation_size(relid) AS bytes FROM pg_stat_user_tables WHERE relname = '${table.name}'`,
        )
      ).rows[0];
    // Without autovacuum (off on the test server), the relay's own VACUUM.
    await eventually(async () => {
      const after = await stats();
      expect(Number(after.vacuums)).toBeGreaterThan(0);
      expect(Number(after.dead)).toBe(0);
      expect(Number(after.bytes)).toBe(0);
    }, 30_000);
    await eventually(() => expect(started.status()).toMatchObject({ state: 'publishing', backlogRows: 0, published: 3_000 }));
  });
});
