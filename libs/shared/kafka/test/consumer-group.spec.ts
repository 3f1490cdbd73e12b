import { Topic } from '@alert-ingestion/contracts';
import { createTestTopics, testKafka } from '@alert-ingestion/testing';
import { Kafka } from 'kafkajs';
import { DurableProducer, waitForConsumerReady, waitForGroupJoin, KafkaNames } from '../src';

describe('waitForGroupJoin and waitForConsumerReady (real Kafka)', () => {
  let kafka: Kafka;
  let prefix: string;

  beforeAll(async () => {
    kafka = testKafka();
    ({ prefix } = await createTestTopics());
  });

  it('waitForConsumerReady resolves once joined and fetching, so a message sent afterwards is consumed from latest offsets', async () => {
    const topic = new KafkaNames(prefix).topic(Topic.AlertEvents);
    const consumer = kafka.consumer({ groupId: `${prefix}join`, sessionTimeout: 6_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 100 });
    const producer = new DurableProducer(kafka);
    const received: string[] = [];
    await Promise.all([consumer.connect(), producer.connect()]);
    try {
      await consumer.subscribe({ topic, fromBeginning: false });
      const ready = waitForConsumerReady(consumer);
      await consumer.run({ eachMessage: async ({ message }) => void received.push(message.value?.toString() ?? '') });

      const join = await ready;

      expect(join.memberId).toEqual(expect.any(String));
      expect(join.memberAssignment[topic]).toHaveLength(12);
      await producer.send({ topic, messages: [{ key: 'k', value: 'after-join' }] });
      const deadline = Date.now() + 10_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toEqual(['after-join']);
    } finally {
      await Promise.all([consumer.disconnect(), producer.disconnect()]);
    }
  });

  it('waitForGroupJoin resolves with the assignment when the group is joined', async () => {
    const topic = new KafkaNames(prefix).topic(Topic.RawAlerts);
    const consumer = kafka.consumer({ groupId: `${prefix}joined`, sessionTimeout: 6_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 100 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      const joined = waitForGroupJoin(consumer);
      await consumer.run({ eachMessage: async () => undefined });
      const join = await joined;
      expect(join.groupId).toBe(`${prefix}joined`);
      expect([...join.memberAssignment[topic]].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    } finally {
      await consumer.disconnect();
    }
  });

  it('rejects when the consumer never joins in time', async () => {
    const consumer = kafka.consumer({ groupId: `${prefix}never` });
    await expect(waitForGroupJoin(consumer, 300)).rejects.toThrow('did not join its group within 300 ms');
    await expect(waitForConsumerReady(consumer, 300)).rejects.toThrow('did not join its group within 300 ms');
  });
});
