import { EventEmitter, once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Topic } from '@alert-ingestion/contracts';
import { Consumer, ConsumerConfig, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { restartWhile, waitForConsumerReady, waitForGroupJoin } from './consumer-group';
import { consumerCrashNeedsAttention } from './kafka-errors';
import { KafkaNames } from './kafka-names';
import { bindingOf, TopicKey, TopicValue } from './topic-message';

/** Where a consumer reports (a Nest Logger fits). */
export interface BatchConsumerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

/** How a consumer reads its topic's messages: through TOPIC_REGISTRY, the one decoder of every topic. */
export interface TopicDecoder<T extends Topic> {
  /** The message's key as the registry reads it (null: none). */
  key(message: KafkaMessage): TopicKey<T> | null;
  /** The message's value, parsed and validated by the registry; throws ContractViolationError with the reason. */
  decode(message: KafkaMessage): TopicValue<T>;
}

export function topicDecoder<T extends Topic>(topic: T): TopicDecoder<T> {
  const binding = bindingOf(topic);
  return { key: (message) => binding.decodeKey(message.key), decode: (message) => binding.decode(message.value) };
}

/**
 * A run of messages of one partition, in offset order, handed to the handler at once. Messages
 * stay as fetched until the handler decodes them (`decode`, `key`), so a handler that skips some
 * pays nothing for them.
 */
export interface ConsumedChunk<T extends Topic = Topic> extends TopicDecoder<T> {
  /** The physical (prefixed) topic. */
  topic: string;
  partition: number;
  /** The partition's high watermark when the batch was fetched. */
  highWatermark: string;
  messages: KafkaMessage[];
  /** The offset after the chunk's last message. */
  nextOffset: string;
  heartbeat(): Promise<void>;
  /** False once the consumer stops: long work (retries) should end. */
  isRunning(): boolean;
}

/**
 * What a handler may hand back: work that has to complete before the chunk's offsets may be
 * committed, e.g. sending the replies of stored messages. It starts once the previous chunk's has
 * completed and runs while the next chunk is handled (the broker round trip overlaps the handler's
 * own work); a failure restarts the consumer from the committed offset.
 */
export interface ChunkOutcome {
  settle?: () => Promise<void>;
}

export type ChunkHandler<T extends Topic = Topic> = (chunk: ConsumedChunk<T>) => Promise<ChunkOutcome | void>;

export interface BatchConsumerOptions<T extends Topic = Topic> {
  /** Names the consumer in log lines. */
  name: string;
  /** The logical topic: its physical name is KafkaNames', its messages are read through TOPIC_REGISTRY. */
  topic: T;
  names: KafkaNames;
  groupId: string;
  /** Where a group without committed offsets starts. */
  fromBeginning: boolean;
  /** kafkajs tuning (fetch sizes and waits, session timeout...). */
  config?: Omit<ConsumerConfig, 'groupId' | 'retry' | 'allowAutoTopicCreation'>;
  /**
   * When start() resolves: `join` (default) once the group is joined; `fetch` once the first fetch
   * fixed the starting offsets (a consumer from the latest offsets receives everything produced
   * after that); `run` as soon as kafkajs runs it.
   */
  readyWhen?: 'join' | 'fetch' | 'run';
  /**
   * Commit the offsets of handled chunks (their `settle` work done), in the background, one
   * OffsetCommit at a time and at most one per interval. Without it nothing is committed: the
   * group's position does not outlive the process.
   */
  commitIntervalMs?: number;
  /** Most messages per chunk; a larger fetched batch is cut. Default: the whole batch. */
  maxChunkMessages?: number;
  partitionsConsumedConcurrently?: number;
  logger: BatchConsumerLogger;
  /** Called on every group join (a new generation: partitions may have moved). */
  onGroupJoin?: () => void;
  handle: ChunkHandler<T>;
}

interface PartitionPipeline {
  /** The next offset to consume, every earlier message handled and its work settled. */
  committable: string | undefined;
  /** The last offset committed by this instance in this generation. */
  committed: string | undefined;
  /** The `settle` work of the last chunk, awaited before the next chunk's offsets move. */
  settling: Promise<void>;
}

/**
 * The one way the services consume Kafka: kafkajs `eachBatch` (not one message at a time), with
 * - crash handling: kafkajs restarts a crashed consumer while it runs (restartWhile); a consumer
 *   that stopped for good makes `healthy` false (for `/healthz`);
 * - readiness: start() resolves at the join, at the first fetch, or at once (readyWhen);
 * - positions: the next offset per partition after every batch, also one of transaction markers
 *   only (which never reaches the handler), and `reached()` to wait for given end offsets;
 * - optional offset commits of handled chunks only, off the fetch path (commitIntervalMs);
 * - graceful stop: the chunk in flight finishes, settled work is awaited and committed, then the
 *   consumer leaves its group.
 */
export class BatchConsumer<T extends Topic = Topic> {
  private consumer: Consumer | undefined;
  private crashed: Error | undefined;
  private running = false;
  private readonly positions = new Map<number, bigint>();
  /** Emits `moved` whenever a position moves or the consumer stops (reached() waits for it). */
  private readonly progress = new EventEmitter().setMaxListeners(0);
  /** Per partition of the current group generation. */
  private partitions = new Map<number, PartitionPipeline>();
  private generation = 0;
  private commitInFlight: Promise<void> | undefined;
  private commitAgain = false;
  private lastCommitAt = 0;
  private commitOffsets: EachBatchPayload['commitOffsetsIfNecessary'] | undefined;
  /** The physical (prefixed) topic. */
  readonly topic: string;
  private readonly decoder: TopicDecoder<T>;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: BatchConsumerOptions<T>,
  ) {
    this.topic = options.names.topic(options.topic);
    this.decoder = topicDecoder(options.topic);
  }

  /** False before start(), after stop(), and once the consumer stopped for good after a crash. */
  get healthy(): boolean {
    return this.running && this.crashed === undefined;
  }

  async start(): Promise<void> {
    if (this.consumer) throw new Error(`The ${this.options.name} consumer is already started`);
    const consumer = this.kafka.consumer({
      ...this.options.config,
      groupId: this.options.groupId,
      allowAutoTopicCreation: false,
      retry: restartWhile(() => this.running && this.consumer === consumer),
    });
    this.consumer = consumer;
    this.running = true;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      // A new generation re-fetches from the committed offsets; what the previous one left
      // uncommitted is redelivered.
      this.generation += 1;
      this.partitions = new Map();
      this.options.onGroupJoin?.();
    });
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => this.advance(payload.partition, BigInt(payload.lastOffset) + 1n));
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      const line = `The ${this.options.name} consumer crashed (${payload.restart ? 'restarting' : 'stopped'}): ${payload.error.message}`;
      if (consumerCrashNeedsAttention(payload)) this.options.logger.error(line);
      else this.options.logger.debug?.(line);
      if (!payload.restart && this.consumer === consumer) {
        this.crashed = payload.error;
        this.progress.emit('moved');
      }
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic: this.topic, fromBeginning: this.options.fromBeginning });
      const readyWhen = this.options.readyWhen ?? 'join';
      const ready = readyWhen === 'join' ? waitForGroupJoin(consumer) : readyWhen === 'fetch' ? waitForConsumerReady(consumer) : undefined;
      // Without a waiter nobody handles its rejection.
      ready?.catch(() => undefined);
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently,
        eachBatch: (payload) => this.handleBatch(payload),
      });
      await ready;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Stops fetching, lets the chunk in flight finish, commits what is settled, then leaves the group. */
  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.running = false;
    if (!consumer) return;
    // Still in the group here: commit what is done so far (an idle partition's last chunks); the
    // chunk in flight commits itself once it sees that the consumer stops.
    await this.settle();
    await this.flush().catch((error: unknown) => this.options.logger.warn(`Offset commit before shutdown failed: ${String(error)}`));
    this.consumer = undefined;
    this.progress.emit('moved');
    await consumer.disconnect();
  }

  /** The next offset to read of a partition, everything before it handled. */
  private position(partition: number): bigint {
    return this.positions.get(partition) ?? 0n;
  }

  /**
   * Resolves once every partition's position has reached its target; rejects when the consumer
   * stops (for good, or by stop()) first.
   */
  async reached(targets: ReadonlyMap<number, bigint>): Promise<void> {
    while (![...targets].every(([partition, end]) => this.position(partition) >= end)) {
      const stopped = this.crashed ?? (this.consumer ? undefined : new Error(`The ${this.options.name} consumer has stopped`));
      if (stopped) throw stopped;
      await once(this.progress, 'moved');
    }
  }

  private advance(partition: number, next: bigint): void {
    if (next <= this.position(partition)) return;
    this.positions.set(partition, next);
    this.progress.emit('moved');
  }

  private pipeline(partition: number): PartitionPipeline {
    let pipeline = this.partitions.get(partition);
    if (!pipeline) {
      pipeline = { committable: undefined, committed: undefined, settling: Promise.resolve() };
      this.partitions.set(partition, pipeline);
    }
    return pipeline;
  }

  private async handleBatch({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }: EachBatchPayload): Promise<void> {
    this.commitOffsets = commitOffsetsIfNecessary;
    const size = this.options.maxChunkMessages ?? Math.max(1, batch.messages.length);
    const pipeline = this.pipeline(batch.partition);
    for (let start = 0; start < batch.messages.length; start += size) {
      // After a rebalance or on shutdown, leave the rest to whoever consumes the partition next.
      if (!isRunning() || isStale()) break;
      const messages = batch.messages.slice(start, start + size);
      const last = messages[messages.length - 1].offset;
      const nextOffset = (BigInt(last) + 1n).toString();
      const outcome = await this.options.handle({
        topic: batch.topic,
        partition: batch.partition,
        highWatermark: batch.highWatermark,
        messages,
        nextOffset,
        heartbeat,
        isRunning: () => isRunning() && this.running,
        key: this.decoder.key,
        decode: this.decoder.decode,
      });
      // The previous chunk's settled work ran while this one was handled. A failure throws out of
      // eachBatch: kafkajs restarts the consumer, which fetches again from the committed offset
      // (never beyond a chunk whose work did not settle).
      await pipeline.settling;
      resolveOffset(last);
      pipeline.settling = (outcome?.settle?.() ?? Promise.resolve()).then(() => {
        pipeline.committable = nextOffset;
        // The OffsetCommit round trip runs in the background instead of before the next fetch.
        this.requestCommit();
      });
      // Awaited by the next chunk, or at shutdown; a rejection must not count as unhandled meanwhile.
      pipeline.settling.catch(() => undefined);
      await heartbeat();
    }
    if (!isRunning()) {
      // Shutting down: the group is left after this returns, so settle and commit what is done now.
      await this.settle();
      await this.flush().catch((error: unknown) => this.options.logger.warn(`Offset commit at shutdown failed: ${String(error)}`));
    }
  }

  /** Waits for the settled work in flight (a failure is only logged: its messages are redelivered). */
  private async settle(): Promise<void> {
    const results = await Promise.allSettled([...this.partitions.values()].map((pipeline) => pipeline.settling));
    for (const result of results) {
      if (result.status === 'rejected') this.options.logger.warn(`Handling ${this.topic} failed (the messages will be redelivered): ${String(result.reason)}`);
    }
  }

  /** Commits every committable offset (after the commit in flight, if any). */
  private async flush(): Promise<void> {
    while (this.commitInFlight) await this.commitInFlight;
    await this.commitNow();
  }

  /** At most one OffsetCommit in flight, and at most one per interval; another follows when offsets moved meanwhile. */
  private requestCommit(): void {
    const interval = this.options.commitIntervalMs;
    if (interval === undefined) return;
    if (this.commitInFlight) {
      this.commitAgain = true;
      return;
    }
    const wait = this.lastCommitAt + interval - Date.now();
    this.commitInFlight = (wait > 0 ? sleep(wait) : Promise.resolve())
      .then(() => {
        this.lastCommitAt = Date.now();
        return this.commitNow();
      })
      .catch((error: unknown) => this.options.logger.warn(`Offset commit failed (the messages will be redelivered if it is not retried): ${String(error)}`))
      .finally(() => {
        this.commitInFlight = undefined;
        if (this.commitAgain) {
          this.commitAgain = false;
          this.requestCommit();
        }
      });
  }

  private async commitNow(): Promise<void> {
    const commit = this.commitOffsets;
    if (!commit || this.options.commitIntervalMs === undefined) return;
    const partitions: Array<{ partition: number; offset: string }> = [];
    const pipelines = this.partitions;
    for (const [partition, pipeline] of pipelines) {
      if (pipeline.committable !== undefined && pipeline.committable !== pipeline.committed) partitions.push({ partition, offset: pipeline.committable });
    }
    if (partitions.length === 0) return;
    const generation = this.generation;
    await commit({ topics: [{ topic: this.topic, partitions }] });
    if (generation !== this.generation) return;
    for (const { partition, offset } of partitions) {
      const pipeline = pipelines.get(partition);
      if (pipeline) pipeline.committed = offset;
    }
  }
}
