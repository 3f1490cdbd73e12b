import { Topic } from '@alert-ingestion/contracts';
import { Kafka, RecordMetadata } from 'kafkajs';
import { BatchingProducer, BatchingProducerOptions } from '../batching-producer';
import { DurableProducer, DurableProducerOptions } from '../durable-producer';
import { KafkaNames } from '../kafka-names';
import { bindingOf, BindingOf, encodeMessages, TopicKey, TopicMessage, TopicOutgoing } from '../topic-message';

/** Messages for one topic, in a send to several topics at once. */
export type TopicBatch = { [T in Topic]: { topic: T; messages: readonly TopicMessage<T>[] } }[Topic];

/** How a `batched` publisher fills its produce requests (see BatchingProducer). */
export type BatchedOptions = Omit<BatchingProducerOptions, 'topic'>;

/**
 * The one way the services produce to Kafka, bound to TOPIC_REGISTRY: the caller names a logical
 * topic and gives typed keys and values; the registry encodes them (the prefix of the run is
 * KafkaNames'). Three modes, one home (this folder):
 * - `durable` (this class): every send acknowledged by all in-sync replicas, idempotent unless the
 *   service opts out (DurableProducer underneath);
 * - `batched` (`batched(topic)`): lingering batches of concurrent callers over the same durable
 *   producer, for the gateway's hot path (BatchingProducer underneath);
 * - `transactional` (TransactionalTopicProducer): an outbox relay's exactly-once publishing.
 */
export class TopicProducer {
  private readonly durable: DurableProducer;

  constructor(
    kafka: Kafka,
    readonly names: KafkaNames,
    options: DurableProducerOptions = {},
  ) {
    this.durable = new DurableProducer(kafka, options);
  }

  get isIdempotent(): boolean {
    return this.durable.isIdempotent;
  }

  /** Connects once; every user of a shared producer awaits the same connection. */
  connect(): Promise<void> {
    return this.durable.connect();
  }

  disconnect(): Promise<void> {
    return this.durable.disconnect();
  }

  /** Sends messages to one topic; resolves once every in-sync replica has them. */
  send<T extends Topic>(topic: T, messages: readonly TopicMessage<T>[]): Promise<RecordMetadata[]> {
    return this.durable.send({ topic: this.names.topic(topic), messages: encodeMessages(topic, messages) });
  }

  /** Sends to several topics in one produce request. */
  sendBatch(batches: readonly TopicBatch[]): Promise<RecordMetadata[]> {
    return this.durable.sendBatch({
      topicMessages: batches.map(({ topic, messages }) => ({ topic: this.names.topic(topic), messages: encodeMessages<Topic>(topic, messages as readonly TopicMessage<Topic>[]) })),
    });
  }

  /** A publisher of one topic that batches concurrent callers' messages over this producer (`batched` mode). */
  batched<T extends Topic>(topic: T, options: BatchedOptions): BatchedTopicProducer<T> {
    return new BatchedTopicProducer(bindingOf(topic), new BatchingProducer(this.durable, { ...options, topic: this.names.topic(topic) }));
  }
}

/** TopicProducer's `batched` mode: one topic, its messages encoded by the registry and batched. */
export class BatchedTopicProducer<T extends Topic> {
  constructor(
    private readonly binding: BindingOf<T>,
    private readonly batches: BatchingProducer,
  ) {}

  /** Resolves once the batch holding the message is acknowledged; rejects when its produce request failed. */
  publish(key: TopicKey<T>, value: TopicOutgoing<T>): Promise<void> {
    return this.batches.publish(this.binding.encodeKey(key), this.binding.encode(value));
  }

  /** Messages accepted by publish() whose produce request has not completed. */
  get outstanding(): number {
    return this.batches.outstanding;
  }

  /** Sends what is pending and resolves when every produce request has completed. */
  drain(): Promise<void> {
    return this.batches.drain();
  }
}
