import { Topic } from '@alert-ingestion/contracts';
import { KafkaNames, waitForGroupJoin } from '@alert-ingestion/kafka';
import { Consumer, IHeaders, Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventSchemas } from './event-schemas';

export interface Received<T> {
  key: string | null;
  value: T;
  headers: Record<string, string>;
  partition: number;
  offset: string;
  /** The record's Kafka timestamp (ms since the epoch): its producer's send time, or the broker's append time on a LogAppendTime topic. */
  timestamp: number;
}

let eventSchemas: EventSchemas | undefined;

/**
 * Everything a topic delivered to a test consumer of its own (a group of its own, from the
 * beginning), in arrival order. One started with `published` also checks every record against what
 * the committed AsyncAPI document says of its topic (EventSchemas): waiting for records fails once
 * any record was not (stopping does not, so that a spec's clean-up still runs).
 */
export class TopicCollector<T> {
  readonly received: Received<T>[] = [];
  /** The records that are not what the AsyncAPI document says of the topic, with why. */
  readonly invalid: Array<{ offset: string; partition: number; problems: string[] }> = [];
  private constructor(
    private readonly consumer: Consumer,
    private readonly schemaTopic?: Topic,
  ) {}

  /**
   * A collector of a topic of the services (its name with the run's prefix) that validates every
   * record, value and headers, against the committed schemas of `topic`, as a consumer outside the
   * repository would read them.
   */
  static published<T>(kafka: Kafka, topicPrefix: string, topic: Topic): Promise<TopicCollector<T>> {
    return TopicCollector.start<T>(kafka, new KafkaNames(topicPrefix).topic(topic), topicPrefix, topic);
  }

  static async start<T>(kafka: Kafka, topic: string, groupPrefix: string, schemaTopic?: Topic): Promise<TopicCollector<T>> {
    const consumer = kafka.consumer({ groupId: `${groupPrefix}test-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 50, sessionTimeout: 6_000, heartbeatInterval: 500 });
    const collector = new TopicCollector<T>(consumer, schemaTopic);
    const schemas = schemaTopic ? (eventSchemas ??= EventSchemas.load()) : undefined;
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const joined = waitForGroupJoin(consumer);
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        if (schemas && schemaTopic) {
          const problems = schemas.problems(schemaTopic, { value: message.value, headers: headersOf(message.headers) });
          if (problems.length > 0) collector.invalid.push({ offset: message.offset, partition, problems });
        }
        collector.received.push({
          key: message.key?.toString() ?? null,
          value: JSON.parse(message.value?.toString() ?? 'null') as T,
          headers: headersOf(message.headers),
          partition,
          offset: message.offset,
          timestamp: Number(message.timestamp),
        });
      },
    });
    await joined;
    return collector;
  }

  /** Waits until `count` received messages match, and returns them. */
  async waitFor(match: (message: Received<T>) => boolean, count = 1, timeoutMs = 20_000): Promise<Received<T>[]> {
    const found = await waitForMatching(this.received, match, count, timeoutMs);
    this.assertValid();
    return found;
  }

  /** Throws when a record was not what the AsyncAPI document says of its topic (collectors started with `published`). */
  assertValid(): void {
    if (this.invalid.length === 0) return;
    const lines = this.invalid.map(({ partition, offset, problems }) => `partition ${partition} offset ${offset}: ${problems.join('; ')}`);
    throw new Error(`Records of ${this.schemaTopic} are not what docs/asyncapi says:\n  ${lines.join('\n  ')}`);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

function headersOf(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) result[name] = value.toString();
  return result;
}

/** Waits until `count` entries of a list that grows as messages arrive match, and returns them. */
export async function waitForMatching<M>(received: readonly M[], match: (message: M) => boolean, count: number, timeoutMs: number): Promise<M[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = received.filter(match);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`Expected ${count} matching messages, got ${found.length} within ${timeoutMs} ms`);
    await sleep(25);
  }
}
