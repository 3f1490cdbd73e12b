import {
  Kafka,
  KafkaJSProtocolError,
  Producer,
  ProducerBatch,
  ProducerRecord,
  RecordMetadata,
  RetryOptions,
} from 'kafkajs';
import { DEFAULT_KAFKA_RETRY, KafkaLogSink } from './kafka-config';
import { PartitionRecorder, sendAcknowledged } from './producer/acknowledged-send';

export interface DurableProducerOptions {
  /**
   * Idempotent writes (no duplicates from the producer's own retries). Default true; falls back to
   * a plain producer when the cluster denies IdempotentWrite (CLUSTER_AUTHORIZATION_FAILED).
   */
  idempotent?: boolean;
  /** Bounded so that a send to an unreachable cluster fails instead of retrying forever. */
  retry?: RetryOptions;
  logSink?: Pick<KafkaLogSink, 'warn'>;
}

export type DurableRecord = Omit<ProducerRecord, 'acks'>;
export type DurableBatch = Omit<ProducerBatch, 'acks'>;

/**
 * A kafkajs producer that only ever sends with acks=-1 (every in-sync replica), and resolves only
 * once every message's partition was acknowledged (sendAcknowledged: kafkajs alone may leave out a
 * partition whose leader moved during the send), so a resolved send means the message is durably
 * stored. The partitioner is chosen explicitly: kafkajs's DefaultPartitioner is Java-compatible
 * murmur2, so a key maps to the same partition as with any Java client.
 */
export class DurableProducer {
  private current: Producer;
  private idempotent: boolean;
  private connecting: Promise<void> | undefined;
  private readonly partitions = new PartitionRecorder();

  constructor(
    private readonly kafka: Kafka,
    private readonly options: DurableProducerOptions = {},
  ) {
    this.idempotent = options.idempotent ?? true;
    this.current = this.build();
  }

  get isIdempotent(): boolean {
    return this.idempotent;
  }

  /** Connects once; every caller (say each user of a shared producer) awaits the same connection. */
  connect(): Promise<void> {
    this.connecting ??= this.connectOnce().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async connectOnce(): Promise<void> {
    try {
      await this.current.connect();
    } catch (error) {
      if (this.idempotent && error instanceof KafkaJSProtocolError && error.type === 'CLUSTER_AUTHORIZATION_FAILED') {
        this.options.logSink?.warn('Idempotent writes are not allowed on this cluster; producing without idempotence');
        await this.current.disconnect();
        this.idempotent = false;
        this.current = this.build();
        await this.current.connect();
        return;
      }
      throw error;
    }
  }

  send({ topic, messages, ...options }: DurableRecord): Promise<RecordMetadata[]> {
    return this.sendBatch({ ...options, topicMessages: [{ topic, messages }] });
  }

  sendBatch({ topicMessages, ...options }: DurableBatch): Promise<RecordMetadata[]> {
    const producer = this.current;
    return sendAcknowledged((pending) => producer.sendBatch({ ...options, topicMessages: pending, acks: -1 }), this.partitions, topicMessages ?? []);
  }

  disconnect(): Promise<void> {
    this.connecting = undefined;
    return this.current.disconnect();
  }

  private build(): Producer {
    return this.kafka.producer({
      createPartitioner: this.partitions.createPartitioner,
      allowAutoTopicCreation: false,
      idempotent: this.idempotent,
      retry: { ...DEFAULT_KAFKA_RETRY, ...this.options.retry },
    });
  }
}
