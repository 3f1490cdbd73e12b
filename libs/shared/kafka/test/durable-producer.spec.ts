import { Topic } from '@alert-ingestion/contracts';
import { createTestTopics, testKafka } from '@alert-ingestion/testing';
import { Consumer, Kafka } from 'kafkajs';
import { DurableProducer, waitForGroupJoin, KafkaNames } from '../src';

interface Received {
  key: string;
  value: string;
  partition: number;
  offset: string;
}

/** Reads `topic` from the beginning until `count` messages arrived (or the deadline passes). */
async function readAll(kafka: Kafka, topic: string, groupId: string, count: number): Promise<Received[]> {
  const consumer: Consumer = kafka.consumer({ groupId, sessionTimeout: 6_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 100 });
  const received: Received[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    const joined = waitForGroupJoin(consumer);
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        received.push({ key: message.key?.toString() ?? '', value: message.value?.toString() ?? '', partition, offset: message.offset });
      },
    });
    await joined;
    const deadline = Date.now() + 20_000;
    while (received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    // A little longer, so that duplicates would show up too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return received;
  } finally {
    await consumer.disconnect();
  }
}

describe('DurableProducer (real Kafka)', () => {
  let kafka: Kafka;
  let prefix: string;
  let producer: DurableProducer;

  beforeAll(async () => {
    kafka = testKafka();
    ({ prefix } = await createTestTopics());
    producer = new DurableProducer(kafka);
    await producer.connect();
  });

  afterAll(async () => {
    await producer.disconnect();
  });

  it('is idempotent by default', () => {
    expect(producer.isIdempotent).toBe(true);
  });

  // kafkajs issue #1005: idempotent producers lost messages when more sends than partitions were in flight.
  it.each([
    ['a 12-partition topic', Topic.RawAlerts, 300],
    ['a 1-partition topic', Topic.RawAlertsDeadLetter, 200],
  ])('stores every one of many concurrent sends exactly once on %s', async (_label, topic, count) => {
    const name = new KafkaNames(prefix).topic(topic);
    const sent = Array.from({ length: count }, (_, index) => ({ key: `integration-${index % 17}`, value: `message-${index}` }));

    const results = await Promise.all(sent.map((message) => producer.send({ topic: name, messages: [message] })));

    expect(results.every((metadata) => metadata[0]?.errorCode === 0)).toBe(true);
    const received = await readAll(kafka, name, `${prefix}producer-${topic}`, count);
    expect(received.map((message) => message.value).sort()).toEqual(sent.map((message) => message.value).sort());
    const positions = new Set(received.map((message) => `${message.partition}:${message.offset}`));
    expect(positions.size).toBe(count);
  });

  it('puts every message with the same key on the same partition', async () => {
    const name = new KafkaNames(prefix).topic(Topic.AlertEvents);
    const keys = ['7:1', '7:2', '42:1'];
    const batches = await Promise.all(
      keys.flatMap((key) => [1, 2, 3, 4].map((n) => producer.send({ topic: name, messages: [{ key, value: `${key}#${n}` }] }))),
    );
    expect(batches).toHaveLength(12);

    const received = await readAll(kafka, name, `${prefix}producer-keys`, 12);
    for (const key of keys) {
      const partitions = new Set(received.filter((message) => message.key === key).map((message) => message.partition));
      expect({ key, partitions: partitions.size }).toEqual({ key, partitions: 1 });
    }
  });

  it('sends batches to several topics with acks from every in-sync replica', async () => {
    const events = new KafkaNames(prefix).topic(Topic.AlertEvents);
    const dlq = new KafkaNames(prefix).topic(Topic.RawAlertsDeadLetter);
    const metadata = await producer.sendBatch({
      topicMessages: [
        { topic: events, messages: [{ key: '1:1', value: 'event' }] },
        { topic: dlq, messages: [{ value: 'dead' }] },
      ],
    });
    expect(metadata.map((entry) => entry.topicName).sort()).toEqual([dlq, events].sort());
  });
});
