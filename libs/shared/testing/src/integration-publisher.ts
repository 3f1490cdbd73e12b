import { encodeMessage, IntegrationSnapshot, Topic, validateMessage } from '@alert-ingestion/contracts';
import { DurableProducer, KafkaNames } from '@alert-ingestion/kafka';
import { Kafka } from 'kafkajs';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

export interface IntegrationPublisherOptions {
  /** KAFKA_TOPIC_PREFIX. */
  topicPrefix?: string;
}

/**
 * Writes integration snapshots straight to the compacted integrations topic, keyed by integration
 * id, with acks=-1, for specs of the topic's readers (gateway, processor) that run without
 * integration-config. Services publish only through integration-config's snapshot outbox. A
 * deletion is a tombstone (null value).
 */
export class IntegrationPublisher {
  private readonly producer: DurableProducer;
  private readonly topic: string;
  private connected: Promise<void> | undefined;

  constructor(kafka: Kafka, options: IntegrationPublisherOptions = {}) {
    this.producer = new DurableProducer(kafka);
    this.topic = new KafkaNames(options.topicPrefix ?? '').topic(Topic.Integrations);
  }

  async connect(): Promise<void> {
    this.connected ??= this.producer.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    await this.connected;
  }

  /** Publishes the current state of an integration; the snapshot is validated against its contract first. */
  async publish(snapshot: Snapshot): Promise<void> {
    const value = validateMessage(IntegrationSnapshot.IntegrationSnapshotValue, { ...snapshot });
    await this.connect();
    await this.producer.send({ topic: this.topic, messages: [{ key: value.id, value: encodeMessage(value) }] });
  }

  /** Publishes the tombstone of a deleted integration. */
  async publishDeletion(id: string): Promise<void> {
    await this.connect();
    await this.producer.send({ topic: this.topic, messages: [{ key: id, value: null }] });
  }

  async disconnect(): Promise<void> {
    if (!this.connected) return;
    this.connected = undefined;
    await this.producer.disconnect();
  }
}
