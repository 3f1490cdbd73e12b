import { ContractViolationError, decodeMessage, IntegrationSnapshot, Topic, topicName } from '@alert-ingestion/contracts';
import { restartWhile } from '@alert-ingestion/kafka';
import { randomUUID } from 'node:crypto';
import { Consumer, EachBatchPayload, Kafka, KafkaJSError, KafkaMessage } from 'kafkajs';
import { IntegrationView, IntegrationViewChange } from './integration-view';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

/** Where the registry reports problems (a Nest Logger fits). Keys never reach it: snapshots hold only hashes. */
export interface IntegrationRegistryLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface IntegrationRegistryOptions {
  /** KAFKA_TOPIC_PREFIX: the registry reads `<prefix>integrations.v1` and names its group with it. */
  topicPrefix?: string;
  /** Who is reading, part of the group id (e.g. "gateway"). */
  consumerName?: string;
  /**
   * How long a fetch waits for new records when there are none. Small, so a change (a reset key,
   * a disabled integration) reaches the gateway well within the 2 s the spec's issue allows.
   */
  maxWaitTimeInMs?: number;
  /** start() fails when the topic cannot be read up to its start-time end within this time. */
  startTimeoutMs?: number;
  logger?: IntegrationRegistryLogger;
  /** Called after every applied change, e.g. to drop caches keyed by integration. */
  onChange?: (change: { id: string; change: IntegrationViewChange; snapshot?: Snapshot }) => void;
}

const silentLogger: IntegrationRegistryLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * An in-memory view of the compacted integrations topic, for the gateway and the processor, so that
 * they learn integrations (URL token, key hash, active flag, tier, mapping) without a database call
 * per request. It reads the topic from the beginning under a group id of its own (every instance
 * needs every integration, and nothing is committed), `start()` resolves once it has read up to the
 * end offsets the topic had when start() was called, and it keeps following afterwards.
 */
export class IntegrationRegistry {
  private readonly view = new IntegrationView();
  private readonly topic: string;
  private readonly groupId: string;
  private readonly logger: IntegrationRegistryLogger;
  private consumer: Consumer | undefined;
  private crashed: Error | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: IntegrationRegistryOptions = {},
  ) {
    const prefix = options.topicPrefix ?? '';
    this.topic = topicName(Topic.Integrations, prefix);
    this.groupId = `${prefix}integrations-registry-${options.consumerName ?? 'reader'}-${randomUUID()}`;
    this.logger = options.logger ?? silentLogger;
  }

  findByUrlToken(urlToken: string): Snapshot | undefined {
    return this.view.findByUrlToken(urlToken);
  }

  findById(id: string): Snapshot | undefined {
    return this.view.findById(id);
  }

  /** Every integration currently known. */
  all(): Snapshot[] {
    return this.view.all();
  }

  get size(): number {
    return this.view.size;
  }

  /** False once the consumer has crashed for good: the view no longer follows the topic. */
  get healthy(): boolean {
    return this.consumer !== undefined && this.crashed === undefined;
  }

  async start(): Promise<void> {
    if (this.consumer) throw new Error('IntegrationRegistry already started');
    const targets = await this.endOffsets();
    const consumer = this.kafka.consumer({
      groupId: this.groupId,
      maxWaitTimeInMs: this.options.maxWaitTimeInMs ?? 100,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      allowAutoTopicCreation: false,
      retry: restartWhile(() => this.consumer === consumer),
    });
    this.consumer = consumer;

    let caughtUp: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      caughtUp = resolve;
      failed = reject;
    });
    const positions = new Map<number, bigint>();
    const checkCaughtUp = () => {
      for (const [partition, end] of targets) {
        if ((positions.get(partition) ?? -1n) < end) return;
      }
      caughtUp();
    };

    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.logger.error(`Integrations topic consumer crashed (${payload.restart ? 'restarting' : 'stopped'}): ${payload.error.message}`);
      if (!payload.restart) {
        this.crashed = payload.error;
        failed(payload.error);
      }
    });

    const timeoutMs = this.options.startTimeoutMs ?? 60_000;
    const timer = setTimeout(() => failed(new Error(`The integrations topic ${this.topic} was not read to its end within ${timeoutMs} ms`)), timeoutMs);
    try {
      await consumer.connect();
      await consumer.subscribe({ topic: this.topic, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: true,
        eachBatch: async ({ batch }: EachBatchPayload) => {
          for (const message of batch.messages) this.apply(message);
          if (batch.messages.length > 0) positions.set(batch.partition, BigInt(batch.lastOffset()) + 1n);
          checkCaughtUp();
        },
      });
      checkCaughtUp(); // an empty topic is read at once
      await ready;
      this.logger.log(`Read ${this.view.size} integrations from ${this.topic}`);
    } catch (error) {
      await this.stop();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = undefined;
    if (consumer) await consumer.disconnect();
  }

  /**
   * The end offset of every partition that holds records, read once at start. Retried while the
   * broker answers with a retriable error (e.g. a just-created topic whose leader is not known yet).
   */
  private async endOffsets(): Promise<Map<number, bigint>> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const offsets = await admin.fetchTopicOffsets(this.topic);
          const targets = new Map<number, bigint>();
          for (const { partition, high, low } of offsets) {
            if (BigInt(high) > BigInt(low)) targets.set(partition, BigInt(high));
          }
          return targets;
        } catch (error) {
          if (!(error instanceof KafkaJSError) || !error.retriable || attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    } finally {
      await admin.disconnect();
    }
  }

  private apply(message: KafkaMessage): void {
    const key = message.key?.toString();
    if (!key) {
      this.logger.warn(`Ignoring a record without key at offset ${message.offset} of ${this.topic}`);
      return;
    }
    if (message.value === null || message.value.length === 0) {
      this.notify(key, this.view.delete(key));
      return;
    }
    let snapshot: Snapshot;
    try {
      snapshot = decodeMessage(IntegrationSnapshot.IntegrationSnapshotValue, message.value);
    } catch (error) {
      // Keep the last good state of the integration rather than guess; the next valid snapshot
      // (integration-config republishes every integration at start-up) repairs it.
      const reason = error instanceof ContractViolationError ? error.reason : String(error);
      this.logger.error(`Ignoring an invalid integration snapshot for key ${key} at offset ${message.offset}: ${reason}`);
      return;
    }
    if (snapshot.id !== key) {
      this.logger.error(`Ignoring an integration snapshot whose id ${snapshot.id} differs from its key ${key}`);
      return;
    }
    const change = this.view.upsert(snapshot);
    if (change === 'stale') this.logger.warn(`Ignoring a stale snapshot of integration ${key} (version ${snapshot.version})`);
    this.notify(key, change, snapshot);
  }

  private notify(id: string, change: IntegrationViewChange, snapshot?: Snapshot): void {
    if (change === 'stale' || change === 'unchanged' || !this.options.onChange) return;
    try {
      this.options.onChange({ id, change, snapshot: change === 'deleted' ? undefined : snapshot });
    } catch (error) {
      this.logger.error(`An integration change listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
