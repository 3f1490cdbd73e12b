import { ContractViolationError, decodeMessage, IntegrationSnapshot, Topic, topicName } from '@alert-ingestion/contracts';
import { consumerCrashNeedsAttention, restartWhile } from '@alert-ingestion/kafka';
import { randomUUID } from 'node:crypto';
import { Admin, Consumer, EachBatchPayload, Kafka, KafkaJSError, KafkaMessage } from 'kafkajs';
import { IntegrationView, IntegrationViewChange } from './integration-view';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

/** Where the registry reports problems (a Nest Logger fits). Keys never reach it: snapshots hold only hashes. */
export interface IntegrationRegistryLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
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
 *
 * Read-your-writes: integration-config answers a change once its snapshot is on the topic, but this
 * view learns it a fetch later. `awaitLatest()` waits until the view has read the topic up to its
 * end offsets as they are at the moment of the call, so a lookup that misses can wait for what was
 * published before it, and then decide.
 */
export class IntegrationRegistry {
  private readonly view = new IntegrationView();
  private readonly topic: string;
  private readonly groupId: string;
  private readonly logger: IntegrationRegistryLogger;
  private consumer: Consumer | undefined;
  private crashed: Error | undefined;
  private admin: Promise<Admin> | undefined;
  /** The next offset to read, per partition, once everything before it is applied. */
  private readonly positions = new Map<number, bigint>();
  private readonly positionWaiters = new Set<() => void>();
  /** The catch-up round that has not read its end offsets yet: misses until then share it. */
  private nextRound: Promise<void> | undefined;

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

  /**
   * Resolves true once the view has read the topic up to its end offsets as they are now (or
   * later), false after `timeoutMs`. Concurrent calls that come before the end offsets are read
   * share one round, so a burst of misses costs one request to the broker.
   */
  async awaitLatest(timeoutMs: number): Promise<boolean> {
    if (!this.consumer || this.crashed) return false;
    this.nextRound ??= (async () => {
      // Calls made in this turn of the event loop join this round; a later one starts its own,
      // whose end offsets are read after it began.
      await Promise.resolve();
      this.nextRound = undefined;
      await this.reached(await this.endOffsets());
    })();
    const round = this.nextRound;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([round.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
    } catch (error) {
      this.logger.warn(`Reading the end of ${this.topic} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    } finally {
      clearTimeout(timer);
    }
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
    void this.reached(targets).then(() => caughtUp());
    // Positions move after each batch, also one of transaction markers only, which never reaches
    // eachBatch: the integration snapshot relay publishes in transactions.
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      if (payload.topic === this.topic) this.advance(payload.partition, BigInt(payload.lastOffset) + 1n);
    });

    consumer.on(consumer.events.CRASH, ({ payload }) => {
      const line = `Integrations topic consumer crashed (${payload.restart ? 'restarting' : 'stopped'}): ${payload.error.message}`;
      if (consumerCrashNeedsAttention(payload)) this.logger.error(line);
      else this.logger.debug?.(line);
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
        },
      });
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
    const admin = this.admin;
    this.admin = undefined;
    if (consumer) await consumer.disconnect();
    if (admin) await (await admin.catch(() => undefined))?.disconnect();
  }

  /** Resolves once every partition's position has reached its target. */
  private reached(targets: ReadonlyMap<number, bigint>): Promise<void> {
    const done = () => [...targets].every(([partition, end]) => (this.positions.get(partition) ?? 0n) >= end);
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        this.positionWaiters.delete(check);
        resolve();
      };
      this.positionWaiters.add(check);
    });
  }

  private advance(partition: number, next: bigint): void {
    if (next <= (this.positions.get(partition) ?? 0n)) return;
    this.positions.set(partition, next);
    for (const check of [...this.positionWaiters]) check();
  }

  /**
   * The end offset of every partition that holds records. Retried while the broker answers with a
   * retriable error (e.g. a just-created topic whose leader is not known yet).
   */
  private async endOffsets(): Promise<Map<number, bigint>> {
    const admin = await this.connectedAdmin();
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
  }

  /** One admin connection for the registry's lifetime: a catch-up round costs one request, not a connection. */
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
