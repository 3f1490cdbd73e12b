import { IntegrationSnapshot, Topic } from '@alert-ingestion/contracts';
import { KafkaNames, TopicProducer } from '@alert-ingestion/kafka';
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
  private readonly producer: TopicProducer;
  private connected: Promise<void> | undefined;

  constructor(kafka: Kafka, options: IntegrationPublisherOptions = {}) {
    this.producer = new TopicProducer(kafka, new KafkaNames(options.topicPrefix ?? ''));
  }

  async connect(): Promise<void> {
    this.connected ??= this.producer.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    await this.connected;
  }

  /** Publishes the current state of an integration; the registry validates the snapshot against its contract first. */
  async publish(snapshot: Snapshot): Promise<void> {
    await this.connect();
    await this.producer.send(Topic.Integrations, [{ key: snapshot.id, value: snapshot }]);
  }

  /** Publishes the tombstone of a deleted integration. */
  async publishDeletion(id: string): Promise<void> {
    await this.connect();
    await this.producer.send(Topic.Integrations, [{ key: id, value: null }]);
  }

  async disconnect(): Promise<void> {
    if (!this.connected) return;
    this.connected = undefined;
    await this.producer.disconnect();
  }
}
