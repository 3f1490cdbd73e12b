import { withinTime } from '@alert-ingestion/async';
import { ContractViolationError, Topic } from '@alert-ingestion/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { Admin, Kafka, KafkaJSError } from 'kafkajs';
import { BatchConsumer, BatchConsumerOptions } from './batch-consumer';
import { TopicKey, TopicValue } from './topic-message';
import { fetchTopicOffsets } from './topic-offsets';

/**
 * One record of the topic as the view applies it, decoded by TOPIC_REGISTRY: its value (null: a
 * tombstone), or why the registry refused it.
 */
export type ViewRecord<T extends Topic> = { offset: string; key: TopicKey<T> | null } & (
  | { value: TopicValue<T> | null; invalid?: undefined }
  | { value?: undefined; invalid: ContractViolationError }
);

/** The consumer's name (in log lines), logical topic, names and logger, and how the view reads. */
export interface TopicViewOptions<T extends Topic> extends Pick<BatchConsumerOptions<T>, 'name' | 'topic' | 'names' | 'logger'> {
  /** A group of this reader alone: every reader needs every record, and nothing is committed. */
  groupId: string;
  /** How long a fetch waits for new records when there are none: how soon a change is seen. */
  maxWaitTimeInMs: number;
  /** start() fails when the topic cannot be read up to its start-time end within this time. */
  startTimeoutMs: number;
  /** Applies one record to the view's state, in offset order per partition. */
  apply(record: ViewRecord<T>): void;
}

/**
 * An in-memory view of a topic (a compacted topic's latest state per key): reads it from the
 * beginning, `start()` resolves once it has read up to the end offsets the topic had when start()
 * was called, and it keeps following afterwards.
 *
 * Read-your-writes: a writer answers once its record is on the topic, but a view learns it a fetch
 * later. `awaitLatest()` waits until the view has read the topic up to its end offsets as they are
 * at the moment of the call; `findFresh()` is the one policy built on it for a lookup that may be
 * news to the view.
 */
export class TopicView<T extends Topic> {
  private readonly consumer: BatchConsumer<T>;
  private admin: Promise<Admin> | undefined;
  private started = false;
  /** The catch-up round that has not read its end offsets yet: calls until then share it. */
  private nextRound: Promise<void> | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: TopicViewOptions<T>,
  ) {
    this.consumer = new BatchConsumer(kafka, {
      name: options.name,
      topic: options.topic,
      names: options.names,
      groupId: options.groupId,
      fromBeginning: true,
      readyWhen: 'run',
      config: { maxWaitTimeInMs: options.maxWaitTimeInMs, sessionTimeout: 10_000, heartbeatInterval: 1_000 },
      logger: options.logger,
      handle: async ({ messages, key, decode }) => {
        for (const message of messages) {
          const { offset } = message;
          // An empty value is a tombstone as much as a null one.
          if (message.value === null || message.value.length === 0) {
            options.apply({ offset, key: key(message), value: null });
            continue;
          }
          let value: TopicValue<T>;
          try {
            value = decode(message);
          } catch (error) {
            const invalid = error instanceof ContractViolationError ? error : new ContractViolationError(options.topic, String(error));
            options.apply({ offset, key: key(message), invalid });
            continue;
          }
          options.apply({ offset, key: key(message), value });
        }
      },
    });
  }

  /** False once the consumer has stopped for good: the view no longer follows the topic. */
  get healthy(): boolean {
    return this.started && this.consumer.healthy;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error(`The ${this.options.name} view is already started`);
    this.started = true;
    const { startTimeoutMs } = this.options;
    const readToEnd = async () => {
      const targets = await this.endOffsets();
      await this.consumer.start();
      await this.consumer.reached(targets);
    };
    try {
      await withinTime(readToEnd(), startTimeoutMs, () => {
        throw new Error(`The topic ${this.consumer.topic} was not read to its end within ${startTimeoutMs} ms`);
      });
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    await this.consumer.stop();
    if (admin) await (await admin.catch(() => undefined))?.disconnect();
  }

  /**
   * Resolves true once the view has read the topic up to its end offsets as they are now (or
   * later), false after `timeoutMs` or when the end cannot be read. Concurrent calls that come
   * before the end offsets are read share one round, so a burst of misses costs one request.
   */
  async awaitLatest(timeoutMs: number): Promise<boolean> {
    if (!this.healthy) return false;
    this.nextRound ??= (async () => {
      // Calls made in this turn of the event loop join this round; a later one starts its own,
      // whose end offsets are read after it began.
      await Promise.resolve();
      this.nextRound = undefined;
      await this.consumer.reached(await this.endOffsets());
    })();
    const round = this.nextRound;
    try {
      return await withinTime(round.then(() => true), timeoutMs, () => false);
    } catch (error) {
      this.options.logger.warn(`Reading the end of ${this.consumer.topic} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /**
   * The freshness policy of a lookup: `find()` now; when `isFinal` says the result may still be
   * news to the view (say an unknown id that a writer answered a moment ago), wait until the view
   * has caught up with the topic and find again, within `timeoutMs`. Caught up is the answer:
   * waiting longer cannot change it. While the end cannot be read (a Kafka hiccup) it tries again
   * shortly; a view that has stopped following the topic cannot catch up, so it decides at once.
   */
  async findFresh<T>(find: () => T, isFinal: (found: T) => boolean, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      const left = deadline - Date.now();
      if (isFinal(found) || left <= 0 || !this.healthy) return found;
      if (await this.awaitLatest(left)) return find();
      await sleep(Math.min(100, Math.max(0, deadline - Date.now())));
    }
  }

  /**
   * The end offset of every partition that holds records. Retried while the broker answers with a
   * retriable error (e.g. a just-created topic whose leader is not known yet).
   */
  private async endOffsets(): Promise<Map<number, bigint>> {
    const admin = await this.connectedAdmin();
    for (let attempt = 1; ; attempt++) {
      try {
        const offsets = await fetchTopicOffsets(admin, this.consumer.topic);
        const targets = new Map<number, bigint>();
        for (const { partition, high, low } of offsets) {
          if (BigInt(high) > BigInt(low)) targets.set(partition, BigInt(high));
        }
        return targets;
      } catch (error) {
        if (!(error instanceof KafkaJSError) || !error.retriable || attempt >= 20) throw error;
        await sleep(250);
      }
    }
  }

  /** One admin connection for the view's lifetime: a catch-up round costs one request, not a connection. */
  private connectedAdmin(): Promise<Admin> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.admin = undefined;
      throw error;
    });
    return this.admin;
  }
}
