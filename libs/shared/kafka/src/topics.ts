import { setTimeout as sleep } from 'node:timers/promises';
import { TOPIC_SPECS, TopicSpec } from '@alert-ingestion/contracts';
import { Admin, ConfigEntries, ConfigResourceTypes, ConfigSource, ITopicConfig, ITopicMetadata, Kafka, KafkaJSError } from 'kafkajs';
import { KafkaNames } from './kafka-names';
import { fetchTopicOffsets } from './topic-offsets';

/** A topic exists with a layout the code cannot work with and Kafka cannot change in place. */
export class TopicLayoutError extends Error {
  constructor(readonly problems: string[]) {
    super(`Kafka topics do not match TOPIC_SPECS: ${problems.join('; ')}`);
    this.name = 'TopicLayoutError';
  }
}

export interface EnsureTopicsResult {
  /** Topics that did not exist when we looked (created by this call or by a concurrent one). */
  created: string[];
  /** Topics that existed and had partitions added to reach the spec. */
  expanded: string[];
  /** Topics that existed with a smaller max.message.bytes and were given the spec's. */
  resized: string[];
}

export interface EnsureTopicsOptions {
  specs?: readonly TopicSpec[];
  /** How long to wait for creation and partition leaders. Default 30 s. */
  timeoutMs?: number;
}

function topicConfig(spec: TopicSpec, names: KafkaNames): ITopicConfig {
  return {
    topic: names.topic(spec.topic),
    numPartitions: spec.partitions,
    replicationFactor: -1, // the broker's default.replication.factor
    configEntries: [
      ...(spec.compacted ? [{ name: 'cleanup.policy', value: 'compact' }] : []),
      ...(spec.retentionMs == null ? [] : [{ name: 'retention.ms', value: String(spec.retentionMs) }]),
      { name: 'max.message.bytes', value: String(spec.maxMessageBytes) },
    ],
  };
}

async function withAdmin<T>(kafka: Kafka, work: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

function isRetriable(error: unknown): boolean {
  return error instanceof KafkaJSError && error.retriable;
}

/**
 * Retries a metadata request while the cluster reports a transient state. kafkajs fails a whole
 * metadata response when any topic in it is mid-creation or mid-deletion (e.g. "This server does
 * not host this topic-partition"), which on a shared broker happens whenever another process is
 * creating or deleting topics.
 */
async function retryTransient<T>(deadline: number, attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetriable(error) || Date.now() >= deadline) throw error;
      await sleep(100);
    }
  }
}

/** Every topic name in the cluster, tolerant of other clients creating and deleting topics. */
export async function listTopics(admin: Admin, timeoutMs = 10_000): Promise<string[]> {
  return retryTransient(Date.now() + timeoutMs, () => admin.listTopics());
}

/**
 * Waits until every partition of the topics has a leader that serves it. kafkajs's own
 * `waitForLeaders` gives up as soon as a KRaft broker answers "unknown topic" for a topic the
 * controller has just created, and even a leader in the metadata may still answer "not the leader"
 * for a moment; a consumer that meets that in its first ListOffsets rejoins its group and, starting
 * from the latest offsets, skips what was produced meanwhile. So this asks until the metadata shows
 * leaders AND the offsets of every partition can be listed.
 */
async function waitForTopicLeaders(admin: Admin, topics: string[], deadline: number): Promise<ITopicMetadata[]> {
  for (;;) {
    let lastProblem: string;
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      const leaderless = metadata.filter((topic) => topic.partitions.some((partition) => partition.leader < 0));
      if (metadata.length === topics.length && leaderless.length === 0) {
        await Promise.all(topics.map((topic) => fetchTopicOffsets(admin, topic)));
        return metadata;
      }
      lastProblem = `no leader yet for ${leaderless.map((topic) => topic.name).join(', ')}`;
    } catch (error) {
      if (!isRetriable(error)) throw error;
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) throw new Error(`Kafka topics not ready in time (${lastProblem}): ${topics.join(', ')}`);
    await sleep(100);
  }
}

/** Every configuration entry of each topic, by topic name. */
async function describeTopicConfigs(admin: Admin, topics: string[]): Promise<Map<string, ConfigEntries[]>> {
  const described = await admin.describeConfigs({ includeSynonyms: false, resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name })) });
  return new Map(described.resources.map((resource) => [resource.resourceName, resource.configEntries]));
}

/**
 * Sets max.message.bytes of existing topics. AlterConfigs (kafkajs has no incremental variant)
 * replaces a topic's whole set of topic-level overrides, so every override the topic has (its
 * cleanup policy, an operator's retention) is sent again with the new size.
 */
async function raiseMaxMessageBytes(admin: Admin, topics: Array<{ name: string; maxMessageBytes: number }>, configs: Map<string, ConfigEntries[]>): Promise<void> {
  await admin.alterConfigs({
    validateOnly: false,
    resources: topics.map(({ name, maxMessageBytes }) => {
      const overrides = (configs.get(name) ?? [])
        .filter((entry) => entry.configSource === ConfigSource.TOPIC_CONFIG && entry.configName !== 'max.message.bytes')
        .map((entry) => ({ name: entry.configName, value: entry.configValue }));
      return { type: ConfigResourceTypes.TOPIC, name, configEntries: [...overrides, { name: 'max.message.bytes', value: String(maxMessageBytes) }] };
    }),
  });
}

/**
 * Creates every topic of TOPIC_SPECS (names prefixed) with its explicit partition count and, for
 * compacted ones, cleanup.policy=compact, each with its retention.ms and max.message.bytes (an
 * existing topic keeps the retention an operator gave it), and waits until every
 * partition has a leader. Existing topics are checked: too few partitions are added, a smaller
 * max.message.bytes is raised; too many partitions, or the wrong cleanup policy, is an error. Safe to
 * call from several processes at once.
 */
export async function ensureTopics(kafka: Kafka, prefix = '', options: EnsureTopicsOptions = {}): Promise<EnsureTopicsResult> {
  const specs = options.specs ?? TOPIC_SPECS;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const kafkaNames = new KafkaNames(prefix);
  const name = (spec: TopicSpec) => kafkaNames.topic(spec.topic);
  const names = specs.map(name);
  return withAdmin(kafka, async (admin) => {
    const existing = new Set(await listTopics(admin, timeoutMs));
    const missing = specs.filter((spec) => !existing.has(name(spec)));
    if (missing.length > 0) {
      // Resolves false (no error) when a concurrent caller created them first.
      await admin.createTopics({ topics: missing.map((spec) => topicConfig(spec, kafkaNames)), waitForLeaders: false, timeout: timeoutMs });
    }
    let metadata = await waitForTopicLeaders(admin, names, deadline);

    const problems: string[] = [];
    const partitionCounts = new Map(metadata.map((topic) => [topic.name, topic.partitions.length]));
    const toExpand: { topic: string; count: number }[] = [];
    for (const spec of specs) {
      const actual = partitionCounts.get(name(spec)) ?? 0;
      if (actual < spec.partitions) toExpand.push({ topic: name(spec), count: spec.partitions });
      if (actual > spec.partitions) problems.push(`${name(spec)} has ${actual} partitions, the spec says ${spec.partitions}`);
    }
    if (toExpand.length > 0) {
      await admin.createPartitions({ topicPartitions: toExpand, validateOnly: false, timeout: timeoutMs });
      for (;;) {
        metadata = await waitForTopicLeaders(admin, names, deadline);
        const counts = new Map(metadata.map((topic) => [topic.name, topic.partitions.length]));
        if (toExpand.every((entry) => (counts.get(entry.topic) ?? 0) >= entry.count)) break;
        if (Date.now() >= deadline) throw new Error(`Partitions were not added in time: ${toExpand.map((entry) => entry.topic).join(', ')}`);
        await sleep(100);
      }
    }

    const configs = await describeTopicConfigs(admin, names);
    const setting = (spec: TopicSpec, config: string) => configs.get(name(spec))?.find((entry) => entry.configName === config)?.configValue;
    const toResize: Array<{ name: string; maxMessageBytes: number }> = [];
    for (const spec of specs) {
      const policy = setting(spec, 'cleanup.policy') ?? 'delete';
      if (policy.split(',').includes('compact') !== spec.compacted) {
        problems.push(`${name(spec)} has cleanup.policy=${policy}, the spec says ${spec.compacted ? 'compact' : 'delete'}`);
      }
      // A topic created before its size was set (or by another tool) takes the size of the spec:
      // raising max.message.bytes is safe at any time.
      if (Number(setting(spec, 'max.message.bytes')) < spec.maxMessageBytes) toResize.push({ name: name(spec), maxMessageBytes: spec.maxMessageBytes });
    }
    if (problems.length > 0) throw new TopicLayoutError(problems);
    if (toResize.length > 0) await raiseMaxMessageBytes(admin, toResize, configs);
    return {
      created: missing.map(name),
      expanded: toExpand.map((entry) => entry.topic),
      resized: toResize.map((entry) => entry.name),
    };
  });
}
