import { IntegrationSnapshot, Topic } from '@alert-ingestion/contracts';
import { createTestTopics, eventually, testKafka, TestTopics, IntegrationPublisher } from '@alert-ingestion/testing';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { KafkaNames } from '@alert-ingestion/kafka';
import { IntegrationRegistry, IntegrationRegistryOptions } from '../src';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

function snapshot(id: number, overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    id: String(id),
    project_id: '7',
    project_tier: 'premium',
    type: 'http',
    name: `Endpoint ${id}`,
    active: true,
    url_token: `token-${id}`,
    authorization_key_sha256: 'ab'.repeat(32),
    payload_field_mapping: [],
    version: 1,
    updated_at: new Date().toISOString(),
    ...overrides,
  };
}

describe('IntegrationRegistry and IntegrationPublisher (real Kafka)', () => {
  let kafka: Kafka;
  let topics: TestTopics;
  let prefix: string;
  let publisher: IntegrationPublisher;
  let rawProducer: Producer;
  const registries: IntegrationRegistry[] = [];

  const startRegistry = async (options: IntegrationRegistryOptions = {}): Promise<IntegrationRegistry> => {
    const registry = new IntegrationRegistry(kafka, { topicPrefix: prefix, consumerName: 'test', ...options });
    registries.push(registry);
    await registry.start();
    return registry;
  };

  beforeAll(async () => {
    kafka = testKafka();
    topics = await createTestTopics();
    prefix = topics.prefix;
    publisher = new IntegrationPublisher(kafka, { topicPrefix: prefix });
    rawProducer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await rawProducer.connect();
  });

  afterAll(async () => {
    await Promise.all(registries.map((registry) => registry.stop()));
    await publisher.disconnect();
    await rawProducer.disconnect();
    await topics.drop();
  });

  it('starts on an empty topic and knows no integration', async () => {
    const registry = await startRegistry();
    expect(registry.size).toBe(0);
    expect(registry.findByUrlToken('token-1')).toBeUndefined();
    expect(registry.healthy).toBe(true);
  });

  it('has read everything published before start() once start() resolves', async () => {
    for (let id = 1; id <= 40; id++) await publisher.publish(snapshot(id));
    await publisher.publish(snapshot(5, { name: 'Renamed', version: 2 }));
    await publisher.publishDeletion('6');

    const registry = await startRegistry();

    expect(registry.size).toBe(39);
    expect(registry.findById('40')?.url_token).toBe('token-40');
    expect(registry.findByUrlToken('token-5')?.name).toBe('Renamed');
    expect(registry.findById('6')).toBeUndefined();
    expect(registry.findByUrlToken('token-6')).toBeUndefined();
  });

  it('follows changes after start: a new URL token or key hash replaces the old one within 2 s', async () => {
    const changes: Array<{ id: string; change: string }> = [];
    const registry = await startRegistry({ onChange: ({ id, change }) => changes.push({ id, change }) });
    expect(registry.findByUrlToken('token-1')?.authorization_key_sha256).toBe('ab'.repeat(32));
    changes.length = 0;

    await publisher.publish(snapshot(1, { url_token: 'token-1-new', authorization_key_sha256: 'cd'.repeat(32), version: 2 }));

    // The gateway must stop accepting a reset key within 2 s (CONTRACT.md).
    await eventually(() => {
      expect(registry.findByUrlToken('token-1')).toBeUndefined();
      expect(registry.findByUrlToken('token-1-new')?.authorization_key_sha256).toBe('cd'.repeat(32));
    }, 2_000);
    expect(changes).toEqual([{ id: '1', change: 'upserted' }]);
  });

  it('forgets an integration on its tombstone and ignores stale versions', async () => {
    const registry = await startRegistry();
    await publisher.publish(snapshot(2, { active: false, version: 5 }));
    await publisher.publish(snapshot(2, { active: true, version: 4 }));
    await publisher.publishDeletion('3');
    await publisher.publish(snapshot(41));

    await eventually(() => expect(registry.findById('41')).toBeDefined(), 5_000);
    expect(registry.findById('2')).toMatchObject({ active: false, version: 5 });
    expect(registry.findById('3')).toBeUndefined();
    expect(registry.findByUrlToken('token-3')).toBeUndefined();
  });

  it('skips a record that breaks the snapshot contract and keeps going', async () => {
    const registry = await startRegistry();
    const topic = new KafkaNames(prefix).topic(Topic.Integrations);
    await rawProducer.send({
      topic,
      messages: [
        { key: '4', value: '{"id":"4","active":"yes"}' },
        { key: '9', value: 'not json' },
      ],
    });
    await publisher.publish(snapshot(42));

    await eventually(() => expect(registry.findById('42')).toBeDefined(), 5_000);
    expect(registry.findById('4')).toMatchObject({ active: true, url_token: 'token-4' });
    expect(registry.findById('9')?.url_token).toBe('token-9');
  });

  it('refuses to publish a snapshot that breaks its contract', async () => {
    await expect(publisher.publish(snapshot(43, { authorization_key_sha256: 'not-a-hash' }))).rejects.toThrow(/authorization_key_sha256/);
  });

  it('fails start() when the topic does not exist', async () => {
    const quiet = testKafka({ logLevel: logLevel.NOTHING });
    const registry = new IntegrationRegistry(quiet, { topicPrefix: `${prefix}missing-`, startTimeoutMs: 10_000 });
    await expect(registry.start()).rejects.toThrow();
    expect(registry.healthy).toBe(false);
  });
});
