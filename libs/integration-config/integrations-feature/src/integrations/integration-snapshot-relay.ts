import { Topic } from '@alert-ingestion/contracts';
import { IntegrationSnapshotOutbox } from '@alert-ingestion/integrations-data';
import { ConsumerGroup, ensureTopics, KAFKA_CLIENT, KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { OutboxRelay, OutboxRelayOptions, registerOutboxMetrics } from '@alert-ingestion/outbox';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { INTEGRATIONS_FEATURE_OPTIONS, IntegrationsFeatureOptions } from '../integrations-feature.options';

/**
 * Changes are few and someone waits for each: the relay publishes at once, woken by the change's
 * notification (the poll only covers one missed).
 */
const SNAPSHOT_RELAY_TUNING = {
  batchSize: 500,
  lingerMs: 0,
  pollIntervalMs: 5_000,
  initialRetryMs: 1_000,
  maxRetryMs: 30_000,
  maxAttempts: 3,
  stallAfterMs: 60_000,
} satisfies Partial<OutboxRelayOptions>;

/**
 * Integration changes reach the compacted integrations topic through a transactional outbox: each
 * change writes the integration's snapshot (or a tombstone) in its own transaction
 * (IntegrationSnapshotOutbox), and this relay publishes the rows in commit order. The last record per
 * key is therefore the latest state, by construction, and a crash between commit and publish loses
 * nothing: the row waits in the outbox. A change is answered once its record is on the topic (or
 * after `snapshotPublishTimeoutMs` when Kafka is away), so a URL is accepted by the gateway as soon as
 * its create is answered.
 */
@Injectable()
export class IntegrationSnapshotRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IntegrationSnapshotRelay.name);
  readonly relay: OutboxRelay;

  constructor(
    outbox: IntegrationSnapshotOutbox,
    @Inject(KAFKA_CLIENT) private readonly kafka: Kafka,
    @Inject(INTEGRATIONS_FEATURE_OPTIONS) private readonly options: IntegrationsFeatureOptions,
    private readonly names: KafkaNames,
    registry: Registry,
  ) {
    const producer = new TransactionalTopicProducer(kafka, names, {
      topic: Topic.Integrations,
      transactionalId: names.group(ConsumerGroup.IntegrationSnapshotRelay),
      positionGroupId: names.group(ConsumerGroup.IntegrationSnapshotRelay),
      // Someone waits for each change to be readable (read-your-writes).
      confirmReadable: true,
    });
    this.relay = new OutboxRelay(producer, {
      ...SNAPSHOT_RELAY_TUNING,
      name: 'integration snapshots',
      databaseUrl: options.databaseUrl,
      table: outbox.table,
      deadLetterTopic: Topic.IntegrationsDeadLetter,
      query: outbox.relayQuery(),
      logger: new Logger('IntegrationSnapshotRelay'),
    });
    registerOutboxMetrics(registry, { integration_snapshots: this.relay });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Every service creates the topics it needs up front (idempotent); kafkajs cannot use a missing
    // topic, so the relay starts only once they exist.
    await ensureTopics(this.kafka, this.names.prefix);
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }

  /** After the commit: waits until the change's outbox row is on the topic, bounded. */
  async published(outboxId: bigint | null): Promise<void> {
    if (outboxId === null) return;
    if (!(await this.relay.awaitPublished(outboxId, this.options.snapshotPublishTimeoutMs))) {
      this.logger.warn(
        `An integration change is stored but not yet on the integrations topic after ${this.options.snapshotPublishTimeoutMs} ms; it is published when Kafka takes it`,
      );
    }
  }
}
