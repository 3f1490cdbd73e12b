import { MAX_RECORD_BATCH_VALUE_BYTES, Topic } from '@alert-ingestion/contracts';
import { Admin, IHeaders, Kafka, Message, Producer } from 'kafkajs';
import { setTimeout as delay } from 'node:timers/promises';
import { KafkaNames } from '../kafka-names';
import { PartitionRecorder, sendAcknowledged } from './acknowledged-send';
import { chunksByBytes } from './record-chunks';
import { encodeMessages, TopicMessage } from '../topic-message';
import { fetchTopicOffsets } from '../topic-offsets';

export interface TransactionalTopicProducerOptions {
  /** The topic the producer publishes to; its position is committed against it. */
  topic: Topic;
  /** Fixed per deployment: a producer that connects with it fences every older one holding it. */
  transactionalId: string;
  /** Consumer group under which the position is committed inside each transaction. */
  positionGroupId: string;
  /** Most key and value bytes per produce request (default: what a record batch of the topic holds). */
  maxBatchBytes?: number;
  /**
   * A publish resolves only once read_committed consumers can read it. A committed transaction
   * becomes readable a moment after the commit returns (the broker writes its commit markers
   * afterwards); a publisher someone waits for (read-your-writes) confirms it.
   */
  confirmReadable?: boolean;
}

/**
 * A record TOPIC_REGISTRY encoded when it was written, stored as it goes on the wire: an outbox
 * row (its value JSON text, null for a tombstone) is encoded once, in the writer's transaction.
 */
export interface EncodedRecord {
  key: string;
  value: string | null;
  headers?: IHeaders;
}

/** The kafkajs clients of one connection: a new one per connect(), so a failed one is never reused. */
interface Session {
  producer: Producer;
  /** Positions and last stable offsets: one connection per session, not one per transaction. */
  admin: Admin;
  /** Where the producer's partitioner put each message (sendAcknowledged). */
  partitions: PartitionRecorder;
}

/**
 * TopicProducer's `transactional` mode: exactly-once publishing of a position-ordered stream (an
 * outbox). Each publish sends its records and the stream's new position in one Kafka transaction,
 * the position committed as the offset of a dedicated consumer group (sendOffsets): records and
 * position become visible atomically, so whoever publishes next reads the position back
 * (committedPosition) and neither skips nor repeats a record. Connecting initialises the
 * transactional id, which fences any older producer holding it and aborts its open transaction.
 * Subscribers read with isolation level read_committed (kafkajs's default) to see each record once.
 */
export class TransactionalTopicProducer {
  private session: Session | undefined;

  constructor(
    private readonly kafka: Kafka,
    readonly names: KafkaNames,
    private readonly options: TransactionalTopicProducerOptions,
  ) {}

  /** The physical name of the topic published to. */
  get topicName(): string {
    return this.names.topic(this.options.topic);
  }

  /** Connects a new producer and admin client and fences older producers of the transactional id. */
  async connect(): Promise<void> {
    await this.disconnect();
    const partitions = new PartitionRecorder();
    const session: Session = {
      producer: this.kafka.producer({
        transactionalId: this.options.transactionalId,
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: partitions.createPartitioner,
        allowAutoTopicCreation: false,
      }),
      admin: this.kafka.admin(),
      partitions,
    };
    this.session = session;
    await session.producer.connect();
    await session.admin.connect();
    // Initialises the transactional producer id: older producers are fenced and their open
    // transaction aborted before anyone reads the position.
    await (await session.producer.transaction()).abort();
  }

  async disconnect(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    await session.producer.disconnect().catch(() => undefined);
    await session.admin.disconnect().catch(() => undefined);
  }

  /** The position committed with the last transaction (0 when there was none). */
  async committedPosition(): Promise<bigint> {
    const [topic] = await this.connected().admin.fetchOffsets({ groupId: this.options.positionGroupId, topics: [this.topicName] });
    const offset = BigInt(topic?.partitions.find((partition) => partition.partition === 0)?.offset ?? '-1');
    return offset < 0n ? 0n : offset;
  }

  /** Publishes records encoded when they were written (outbox rows) to the topic, and the new position, in one transaction. */
  publishEncoded(records: readonly EncodedRecord[], position: bigint): Promise<void> {
    return this.inTransaction(this.topicName, records, position, this.options.confirmReadable === true);
  }

  /** Publishes messages to `topic` (say the dead-letter topic), encoded by the registry, and the new position, in one transaction. */
  publish<T extends Topic>(topic: T, messages: readonly TopicMessage<T>[], position: bigint): Promise<void> {
    return this.inTransaction(this.names.topic(topic), encodeMessages(topic, messages), position, false);
  }

  /** Sends the messages and the new position in one transaction (several produce requests if they are large). */
  private async inTransaction(topic: string, messages: readonly Message[], position: bigint, confirm: boolean): Promise<void> {
    const { producer, admin, partitions } = this.connected();
    const transaction = await producer.transaction();
    /** An offset this transaction wrote in each partition: once the last stable offset is past it, the whole transaction is readable. */
    const written = new Map<number, bigint>();
    try {
      for (const chunk of chunksByBytes(messages, this.options.maxBatchBytes ?? MAX_RECORD_BATCH_VALUE_BYTES)) {
        // Every partition acknowledged before the commit: a record kafkajs left out (a leader that
        // moved during the send) would otherwise be missing from a committed transaction.
        const metadata = await sendAcknowledged((pending) => transaction.sendBatch({ topicMessages: pending, acks: -1 }), partitions, [{ topic, messages: [...chunk] }]);
        for (const { partition, baseOffset } of metadata) {
          if (baseOffset !== undefined) written.set(partition, BigInt(baseOffset));
        }
      }
      await transaction.sendOffsets({
        consumerGroupId: this.options.positionGroupId,
        topics: [{ topic: this.topicName, partitions: [{ partition: 0, offset: position.toString() }] }],
      });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw error;
    }
    if (confirm) await this.confirmReadable(admin, written);
  }

  /** Waits (bounded) until the last stable offset of every partition written is past this transaction's records. */
  private async confirmReadable(admin: Admin, written: ReadonlyMap<number, bigint>): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      // kafkajs's admin lists offsets read_committed: `high` is the last stable offset.
      const offsets = await fetchTopicOffsets(admin, this.topicName);
      const stable = new Map(offsets.map((offset) => [offset.partition, BigInt(offset.high)]));
      if ([...written].every(([partition, offset]) => (stable.get(partition) ?? 0n) > offset)) return;
      await delay(5);
    }
  }

  private connected(): Session {
    if (!this.session) throw new Error(`The transactional producer of ${this.topicName} is not connected`);
    return this.session;
  }
}
