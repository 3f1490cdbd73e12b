import { waitForGroupJoin } from '@alert-ingestion/kafka';
import { Consumer, IHeaders, Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Received<T> {
  key: string | null;
  value: T;
  headers: Record<string, string>;
  partition: number;
  offset: string;
  /** The record's Kafka timestamp (ms since the epoch): its producer's send time, or the broker's append time on a LogAppendTime topic. */
  timestamp: number;
}

/** Everything a topic delivered to a test consumer of its own (a group of its own, from the beginning), in arrival order. */
export class TopicCollector<T> {
  readonly received: Received<T>[] = [];
  private constructor(private readonly consumer: Consumer) {}

  static async start<T>(kafka: Kafka, topic: string, groupPrefix: string): Promise<TopicCollector<T>> {
    const consumer = kafka.consumer({ groupId: `${groupPrefix}test-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 50, sessionTimeout: 6_000, heartbeatInterval: 500 });
    const collector = new TopicCollector<T>(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const joined = waitForGroupJoin(consumer);
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
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
  waitFor(match: (message: Received<T>) => boolean, count = 1, timeoutMs = 20_000): Promise<Received<T>[]> {
    return waitForMatching(this.received, match, count, timeoutMs);
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
