import { IntegrationSnapshot, Topic } from '@alert-ingestion/contracts';
import { BatchConsumerLogger, ConsumerGroup, KafkaNames, TopicView, ViewRecord } from '@alert-ingestion/kafka';
import { randomUUID } from 'node:crypto';
import { Kafka } from 'kafkajs';
import { IntegrationView, IntegrationViewChange } from './integration-view';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

export interface IntegrationRegistryOptions {
  /** KAFKA_TOPIC_PREFIX: the registry reads `<prefix>integrations.v1` and names its group with it. */
  topicPrefix?: string;
  /** Who is reading, part of the group id (e.g. "gateway"). */
  consumerName?: string;
  /**
   * How long a fetch waits for new records when there are none (500 ms). It bounds only an empty
   * poll: the broker answers a waiting fetch as soon as a snapshot is appended, so a change (a reset
   * key, a disabled integration) reaches the view in a few milliseconds whatever this is, and a
   * longer wait means fewer empty fetches while idle (two a second per view instead of ten).
   */
  maxWaitTimeInMs?: number;
  /** start() fails when the topic cannot be read up to its start-time end within this time. */
  startTimeoutMs?: number;
  /** Where the registry reports problems (a Nest Logger fits). Keys never reach it: snapshots hold only hashes. */
  logger?: BatchConsumerLogger;
  /** Called after every applied change, e.g. to drop caches keyed by integration. */
  onChange?: (change: { id: string; change: IntegrationViewChange; snapshot?: Snapshot }) => void;
}

const silentLogger: BatchConsumerLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * An in-memory view of the compacted integrations topic, for the gateway and the processor, so that
 * they learn integrations (URL token, key hash, active flag, tier, mapping) without a database call
 * per request: the IntegrationView fed by a TopicView (read to the end at start(), followed after,
 * under a group id of its own since every instance needs every integration).
 *
 * Read-your-writes: integration-config answers a change once its snapshot is on the topic, but this
 * view learns it a fetch later. `findFresh()` (TopicView's one freshness policy) lets a lookup that
 * may be news wait for what was published before it, and then decide.
 */
export class IntegrationRegistry {
  private readonly view = new IntegrationView();
  private readonly topic: string;
  private readonly logger: BatchConsumerLogger;
  private readonly reader: TopicView<Topic.Integrations>;

  constructor(
    kafka: Kafka,
    private readonly options: IntegrationRegistryOptions = {},
  ) {
    const names = new KafkaNames(options.topicPrefix ?? '');
    this.topic = names.topic(Topic.Integrations);
    this.logger = options.logger ?? silentLogger;
    this.reader = new TopicView(kafka, {
      name: 'integrations topic',
      topic: Topic.Integrations,
      names,
      groupId: names.group(ConsumerGroup.IntegrationsRegistry, options.consumerName ?? 'reader', randomUUID()),
      maxWaitTimeInMs: options.maxWaitTimeInMs ?? 500,
      startTimeoutMs: options.startTimeoutMs ?? 60_000,
      logger: this.logger,
      apply: (record) => this.apply(record),
    });
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
    return this.reader.healthy;
  }

  /** TopicView.findFresh over this view: a lookup that may be news waits for the view to catch up. */
  findFresh<T>(find: () => T, isFinal: (found: T) => boolean, timeoutMs: number): Promise<T> {
    return this.reader.findFresh(find, isFinal, timeoutMs);
  }

  async start(): Promise<void> {
    await this.reader.start();
    this.logger.log(`Read ${this.view.size} integrations from ${this.topic}`);
  }

  stop(): Promise<void> {
    return this.reader.stop();
  }

  private apply(record: ViewRecord<Topic.Integrations>): void {
    const key = record.key;
    if (!key) {
      this.logger.warn(`Ignoring a record without key at offset ${record.offset} of ${this.topic}`);
      return;
    }
    if (record.invalid) {
      // Keep the last good state of the integration rather than guess; the next valid snapshot
      // (integration-config republishes every integration at start-up) repairs it.
      this.logger.error(`Ignoring an invalid integration snapshot for key ${key} at offset ${record.offset}: ${record.invalid.reason}`);
      return;
    }
    const snapshot = record.value;
    if (snapshot === null) {
      this.notify(key, this.view.delete(key));
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
