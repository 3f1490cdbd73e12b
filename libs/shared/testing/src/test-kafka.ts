import { withinTime } from '@alert-ingestion/async';
import { createKafkaConfig, ensureTopics, listTopics } from '@alert-ingestion/kafka';
import { Kafka, KafkaConfig, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { requireTestEnv, TEST_ENV, testTopicPrefix } from './test-environment';

/**
 * A kafkajs client for the test cluster, built by the same factory as the services' clients.
 * Silent unless TEST_LOG_LEVEL is set (error | warn | log | debug): kafkajs logs every transient
 * broker answer (a topic still being created, a coordinator still loading) as an error, and the
 * specs assert outcomes anyway.
 */
export function testKafka(overrides: Partial<KafkaConfig> = {}): Kafka {
  const level = process.env['TEST_LOG_LEVEL'];
  return new Kafka(
    createKafkaConfig(
      {
        KAFKA_BROKERS: requireTestEnv(TEST_ENV.kafkaBrokers),
        KAFKA_CLIENT_ID: `test-${process.env[TEST_ENV.runId] ?? 'run'}-${process.pid}`,
        LOG_LEVEL: level,
      },
      { overrides: { ...(level ? {} : { logLevel: logLevel.NOTHING }), ...overrides } },
    ),
  );
}

export interface TestTopics {
  /** KAFKA_TOPIC_PREFIX for the code under test; also a good prefix for consumer group ids. */
  prefix: string;
  /**
   * Deletes the topics, waiting at most DROP_WAIT_MS: a busy broker can take far longer to delete, and
   * the run's teardown deletes every topic of the run anyway, so a spec's clean-up never fails its spec.
   */
  drop(): Promise<void>;
}

/** Every topic of TOPIC_SPECS under a new prefix of its own, created with its real layout. */
export async function createTestTopics(): Promise<TestTopics> {
  const runId = requireTestEnv(TEST_ENV.runId);
  const prefix = `${testTopicPrefix(runId)}${randomBytes(4).toString('hex')}.`;
  const kafka = testKafka();
  await ensureTopics(kafka, prefix);
  return { prefix, drop: () => dropWithin(kafka, prefix, DROP_WAIT_MS) };
}

/** How long a spec waits for its topics to be deleted before leaving them to the run's teardown. */
const DROP_WAIT_MS = 10_000;

async function dropWithin(kafka: Kafka, prefix: string, waitMs: number): Promise<void> {
  const leftover = (why: string) => console.warn(`[test infrastructure] topics ${prefix}* ${why}; the run's teardown deletes them`);
  await withinTime(
    deleteTopicsWithPrefix(kafka, prefix, waitMs).then(
      () => undefined,
      (error: unknown) => leftover(`not deleted: ${String(error)}`),
    ),
    waitMs,
    () => leftover(`not deleted within ${waitMs} ms`),
  );
}

/** Deletes every topic whose name starts with `prefix` (tests and benchmarks clean up their per-run topics). */
export async function deleteTopicsWithPrefix(kafka: Kafka, prefix: string, timeoutMs = 30_000): Promise<string[]> {
  if (prefix.length === 0) throw new Error('Refusing to delete topics with an empty prefix');
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await listTopics(admin, timeoutMs)).filter((name) => name.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: timeoutMs });
    return topics;
  } finally {
    await admin.disconnect();
  }
}
