import { Topic } from '@alert-ingestion/contracts';
import { createTestTopics, eventually, TestTopics, testKafka } from '@alert-ingestion/testing';
import { Admin, Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DurableProducer, KafkaNames, OnDemandConsumer } from '../src';

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** Waits until `check` passes: a failure then shows the value last seen. */
const until = (check: () => Promise<void> | void) => eventually(check, 20_000);

describe('OnDemandConsumer: consumes only while its records are wanted (real Kafka)', () => {
  let kafka: Kafka;
  let topics: TestTopics;
  let names: KafkaNames;
  let admin: Admin;
  let producer: DurableProducer;

  beforeAll(async () => {
    kafka = testKafka();
    topics = await createTestTopics();
    names = new KafkaNames(topics.prefix);
    admin = kafka.admin();
    producer = new DurableProducer(kafka);
    await Promise.all([admin.connect(), producer.connect()]);
  });

  afterAll(async () => {
    await Promise.all([admin?.disconnect(), producer?.disconnect()]);
    await topics?.drop();
  });

  /** Each test reads a topic of its own. */
  function send(values: string[], topic: Topic = Topic.Deliveries): Promise<unknown> {
    return producer.send({ topic: names.topic(topic), messages: values.map((value, index) => ({ key: `k${index}`, value })) });
  }

  async function committed(groupId: string): Promise<number> {
    const [topic] = await admin.fetchOffsets({ groupId, topics: [names.topic(Topic.Deliveries)] });
    return topic.partitions.reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
  }

  async function members(groupId: string): Promise<number> {
    const { groups } = await admin.describeGroups([groupId]);
    return groups[0].members.length;
  }

  function options(groupId: string, handled: string[], topic: Topic = Topic.Deliveries) {
    return {
      topic,
      names,
      groupId,
      fromBeginning: true,
      commitIntervalMs: 100,
      config: { sessionTimeout: 6_000, heartbeatInterval: 500, maxWaitTimeInMs: 100 },
      logger: quiet,
      demandIntervalMs: 100,
      handle: async (chunk: { messages: Array<{ value: Buffer | null }> }) => void handled.push(...chunk.messages.map((message) => message.value?.toString() ?? '')),
    } as const;
  }

  it('while unwanted it is no member of its group and reads nothing; once wanted it reads what arrived after, and skips what arrived while unwanted', async () => {
    const groupId = `${topics.prefix}on-demand`;
    let wanted = false;
    const handled: string[] = [];
    const consumer = new OnDemandConsumer(kafka, { ...options(groupId, handled), name: 'on-demand spec', wanted: async () => wanted });
    consumer.start();
    try {
      expect(consumer.state).toBe('idle');
      expect(consumer.healthy).toBe(true);
      await send(['skipped-1', 'skipped-2', 'skipped-3']);
      // Two looks at the demand after the records arrived: their ends are known to be skippable.
      await sleep(400);
      expect(await members(groupId)).toBe(0);

      wanted = true;
      await until(() => expect(consumer.state).toBe('consuming')); // the consumer started
      expect(await committed(groupId)).toBe(3);
      await send(['read-1', 'read-2']);
      await until(() => expect(handled.length).toBeGreaterThanOrEqual(2)); // both records after the start were handled
      expect(await members(groupId)).toBe(1);

      wanted = false;
      await until(() => expect(consumer.state).toBe('idle')); // the consumer stopped
      await until(async () => expect(await members(groupId)).toBe(0)); // the group has no member
      await send(['skipped-4']);
      await sleep(400);
      wanted = true;
      await until(() => expect(consumer.state).toBe('consuming')); // the consumer started again
      await send(['read-3']);
      await until(() => expect(handled.length).toBeGreaterThanOrEqual(3)); // the record after the second start was handled
      await sleep(300);
      expect(handled.sort()).toEqual(['read-1', 'read-2', 'read-3']);
    } finally {
      await consumer.stop();
    }
  }, 90_000);

  it('joins where another instance of the group is when it cannot move the offsets of a group with members', async () => {
    const groupId = `${topics.prefix}on-demand-shared`;
    let wanted = false;
    const busyHandled: string[] = [];
    const lateHandled: string[] = [];
    const busy = new OnDemandConsumer(kafka, { ...options(groupId, busyHandled, Topic.RawAlerts), name: 'busy', wanted: async () => true });
    const late = new OnDemandConsumer(kafka, { ...options(groupId, lateHandled, Topic.RawAlerts), name: 'late', wanted: async () => wanted });
    busy.start();
    late.start();
    try {
      await send(['a', 'b', 'c', 'd'], Topic.RawAlerts);
      await until(() => expect(busyHandled).toHaveLength(4)); // the busy instance read the records
      await sleep(300);
      wanted = true;
      await until(() => expect(late.state).toBe('consuming')); // the late instance started
      expect(late.healthy).toBe(true);
      await until(async () => expect(await members(groupId)).toBe(2)); // both instances are members
      await send(['e', 'f', 'g', 'h', 'i', 'j'], Topic.RawAlerts);
      await until(() => expect(busyHandled.length + lateHandled.length).toBe(10)); // the new records were read
      await sleep(300);
      expect([...busyHandled, ...lateHandled].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    } finally {
      await Promise.all([busy.stop(), late.stop()]);
    }
  }, 90_000);
});
