import { Topic, TOPIC_SPECS, topicName } from '@alert-ingestion/contracts';
import { requireTestEnv, TEST_ENV, testKafka, testTopicPrefix } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { Admin, ConfigResourceTypes, Kafka } from 'kafkajs';
import { deleteTopicsWithPrefix, ensureTopics, listTopics, TopicLayoutError, topicNames } from '../src';

describe('ensureTopics (real Kafka)', () => {
  let kafka: Kafka;
  let admin: Admin;

  /** A prefix in this run's namespace with nothing created under it yet. */
  const freshPrefix = async (): Promise<string> => `${testTopicPrefix(requireTestEnv(TEST_ENV.runId))}${randomBytes(4).toString('hex')}.`;

  const partitionCounts = async (names: string[]): Promise<Map<string, number>> => {
    const metadata = await admin.fetchTopicMetadata({ topics: names });
    return new Map(metadata.topics.map((topic) => [topic.name, topic.partitions.length]));
  };

  const cleanupPolicies = async (names: string[]): Promise<Map<string, string>> => {
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['cleanup.policy'] })),
    });
    return new Map(described.resources.map((resource) => [resource.resourceName, resource.configEntries[0]?.configValue ?? '']));
  };

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
    for (const spec of TOPIC_SPECS) {
      const name = topicName(spec.topic, prefix);
      expect({ name, partitions: partitions.get(name), policy: policies.get(name) }).toEqual({
        name,
        partitions: spec.partitions,
        policy: spec.compacted ? 'compact' : 'delete',
      });
    }
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('leaves existing topics alone on a second call', async () => {
    const prefix = await freshPrefix();
    await ensureTopics(kafka, prefix);
    const again = await ensureTopics(kafka, prefix);
    expect(again).toEqual({ created: [], expanded: [] });
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('creates each topic once when several processes start together', async () => {
    const prefix = await freshPrefix();
    const results = await Promise.all([ensureTopics(testKafka(), prefix), ensureTopics(testKafka(), prefix), ensureTopics(testKafka(), prefix)]);
    const partitions = await partitionCounts(topicNames(prefix));
    expect(partitions.get(topicName(Topic.RawAlerts, prefix))).toBe(12);
    expect(results.every((result) => result.expanded.length === 0)).toBe(true);
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('adds partitions to a topic that has fewer than the spec', async () => {
    const prefix = await freshPrefix();
    const raw = topicName(Topic.RawAlerts, prefix);
    await ensureTopics(kafka, prefix, { specs: [{ topic: Topic.RawAlerts, partitions: 2, compacted: false }] });

    const result = await ensureTopics(kafka, prefix);

    expect(result.expanded).toEqual([raw]);
    expect((await partitionCounts([raw])).get(raw)).toBe(12);
    await deleteTopicsWithPrefix(kafka, prefix);
  });

  it('refuses a topic whose cleanup policy contradicts the spec', async () => {
    const prefix = await freshPrefix();
    const integrations = topicName(Topic.Integrations, prefix);
    await ensureTopics(kafka, prefix, { specs: [{ topic: Topic.Integrations, partitions: 1, compacted: false }] });

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
