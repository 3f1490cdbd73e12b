import { MAX_MESSAGE_BYTES, Topic, TOPIC_SPECS } from '@alert-ingestion/contracts';
import { deleteTopicsWithPrefix, requireTestEnv, TEST_ENV, testKafka, testTopicPrefix } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { Admin, ConfigResourceTypes, Kafka } from 'kafkajs';
import { ensureTopics, listTopics, TopicLayoutError, KafkaNames } from '../src';

/** Every physical topic name for a prefix, in TOPIC_SPECS order. */
const topicNames = (prefix: string): string[] => TOPIC_SPECS.map((spec) => new KafkaNames(prefix).topic(spec.topic));

describe('ensureTopics (real Kafka)', () => {
  let kafka: Kafka;
  let admin: Admin;

  /** A prefix in this run's namespace with nothing created under it yet. */
  const freshPrefix = async (): Promise<string> => `${testTopicPrefix(requireTestEnv(TEST_ENV.runId))}${randomBytes(4).toString('hex')}.`;

  const partitionCounts = async (names: string[]): Promise<Map<string, number>> => {
    const metadata = await admin.fetchTopicMetadata({ topics: names });
    return new Map(metadata.topics.map((topic) => [topic.name, topic.partitions.length]));
  };

  const topicConfig = async (names: string[], configName: string): Promise<Map<string, string>> => {
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: [configName] })),
    });
    return new Map(described.resources.map((resource) => [resource.resourceName, resource.configEntries[0]?.configValue ?? '']));
  };
  const cleanupPolicies = (names: string[]) => topicConfig(names, 'cleanup.policy');
  const maxMessageBytes = (names: string[]) => topicConfig(names, 'max.message.bytes');

  beforeAll(async () => {
    kafka = testKafka();
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await admin.disconnect();
  });

  it('creates every topic of TOPIC_SPECS with its partition count and cleanup policy', async () => {
    const prefix = await freshPrefix();
    const result = await ensureTopics(kafka, prefix);

    const names = topicNames(prefix);
    expect(result.created.sort()).toEqual([...names].sort());
    const partitions = await partitionCounts(names);
    const policies = await cleanupPolicies(names);
    const sizes = await maxMessageBytes(names);
    for (const spec of TOPIC_SPECS) {
      const name = new KafkaNames(prefix).topic(spec.topic);
      expect({ name, partitions: partitions.get(name), policy: policies.get(name), size: sizes.get(name) }).toEqual({
        name,
        partitions: spec.partitions,
        policy: spec.compacted ? 'compact' : 'delete',
        size: String(MAX_MESSAGE_BYTES),
      });
    }
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('leaves existing topics alone on a second call', async () => {
    const prefix = await freshPrefix();
    await ensureTopics(kafka, prefix);
    const again = await ensureTopics(kafka, prefix);
    expect(again).toEqual({ created: [], expanded: [], resized: [] });
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('creates each topic once when several processes start together', async () => {
    const prefix = await freshPrefix();
    const results = await Promise.all([ensureTopics(testKafka(), prefix), ensureTopics(testKafka(), prefix), ensureTopics(testKafka(), prefix)]);
    const partitions = await partitionCounts(topicNames(prefix));
    expect(partitions.get(new KafkaNames(prefix).topic(Topic.RawAlerts))).toBe(12);
    expect(results.every((result) => result.expanded.length === 0)).toBe(true);
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('adds partitions to a topic that has fewer than the spec', async () => {
    const prefix = await freshPrefix();
    const raw = new KafkaNames(prefix).topic(Topic.RawAlerts);
    await ensureTopics(kafka, prefix, { specs: [{ topic: Topic.RawAlerts, partitions: 2, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES }] });

    const result = await ensureTopics(kafka, prefix);

    expect(result.expanded).toEqual([raw]);
    expect((await partitionCounts([raw])).get(raw)).toBe(12);
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('raises max.message.bytes of an existing topic and keeps its other overrides', async () => {
    const prefix = await freshPrefix();
    const integrations = new KafkaNames(prefix).topic(Topic.Integrations);
    await ensureTopics(kafka, prefix, { specs: [{ topic: Topic.Integrations, partitions: 1, compacted: true, maxMessageBytes: 100_000 }] });
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: integrations,
          configEntries: [
            { name: 'cleanup.policy', value: 'compact' },
            { name: 'max.message.bytes', value: '100000' },
            { name: 'retention.ms', value: '3600000' },
          ],
        },
      ],
    });

    const result = await ensureTopics(kafka, prefix);

    expect(result.resized).toEqual([integrations]);
    const described = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: integrations }] });
    const config = new Map(described.resources[0].configEntries.map((entry) => [entry.configName, entry.configValue]));
    expect({ size: config.get('max.message.bytes'), policy: config.get('cleanup.policy'), retention: config.get('retention.ms') }).toEqual({
      size: String(MAX_MESSAGE_BYTES),
      policy: 'compact',
      retention: '3600000',
    });
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('refuses a topic whose cleanup policy contradicts the spec', async () => {
    const prefix = await freshPrefix();
    const integrations = new KafkaNames(prefix).topic(Topic.Integrations);
    await ensureTopics(kafka, prefix, { specs: [{ topic: Topic.Integrations, partitions: 1, compacted: false, maxMessageBytes: MAX_MESSAGE_BYTES }] });

    const attempt = ensureTopics(kafka, prefix);

    await expect(attempt).rejects.toBeInstanceOf(TopicLayoutError);
    await expect(attempt).rejects.toThrow(`${integrations} has cleanup.policy=delete, the spec says compact`);
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('deleteTopicsWithPrefix deletes only the topics under its prefix', async () => {
    const mine = await freshPrefix();
    const other = await freshPrefix();
    await ensureTopics(kafka, mine);
    await ensureTopics(kafka, other);

    const deleted = await deleteTopicsWithPrefix(kafka, mine);

    expect(deleted.sort()).toEqual(topicNames(mine).sort());
    // Deletion reaches the broker's metadata asynchronously.
    let remaining: string[] = [];
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      remaining = await listTopics(admin);
      if (!remaining.some((name) => name.startsWith(mine))) break;
    }
    expect(remaining.filter((name) => name.startsWith(mine))).toEqual([]);
    expect(remaining.filter((name) => name.startsWith(other)).sort()).toEqual(topicNames(other).sort());
    await expect(deleteTopicsWithPrefix(kafka, '')).rejects.toThrow('empty prefix');
    await deleteTopicsWithPrefix(kafka, other);
  });
});
