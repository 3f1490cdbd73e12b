import { ALERT_EVENT_OUTBOX } from '@alert-ingestion/alerts-data';
import { Topic } from '@alert-ingestion/contracts';
import { HealthDetails, HealthProbe } from '@alert-ingestion/http';
import { ConsumerGroup, KAFKA_CLIENT, KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { OutboxRelay, registerOutboxMetrics, registerOutboxShardMetrics, relayHealth, shardName, ShardedOutboxRelay } from '@alert-ingestion/outbox';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

/**
 * Publishes the alert event outbox to alerts.events.v1 for the lifetime of the app, sharded
 * (ShardedOutboxRelay): this processor leads its fair share of the shards, each with a
 * transactional id and a position of the shard's own. A processor of an earlier version (one relay
 * for the whole outbox, under the unsuffixed id) is kept out, and the shards start where it stopped.
 */
@Injectable()
export class AlertEventRelayService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relay: ShardedOutboxRelay;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions, names: KafkaNames, registry: Registry) {
    const logger = new Logger('AlertEventRelay');
    this.relay = new ShardedOutboxRelay(
      (shard) => {
        const producerOf = (id: string) => new TransactionalTopicProducer(kafka, names, { topic: Topic.AlertEvents, transactionalId: id, positionGroupId: id });
        const single = names.group(ConsumerGroup.AlertEventRelay);
        return new OutboxRelay(producerOf(`${single}.${shardName(shard)}`), {
          ...options.relay,
          name: `alert events (shard ${shard.index} of ${shard.count})`,
          shard,
          // Where the single relay of earlier versions stopped, for a shard that has not published yet.
          predecessor: producerOf(single),
          databaseUrl: options.databaseUrl,
          table: ALERT_EVENT_OUTBOX,
          deadLetterTopic: Topic.AlertEventsDeadLetter,
          logger,
        });
      },
      {
        databaseUrl: options.databaseUrl,
        table: ALERT_EVENT_OUTBOX,
        shardCount: options.relayShards.count,
        rebalanceIntervalMs: options.relayShards.rebalanceIntervalMs,
        name: 'alert events',
        logger,
      },
    );
    registerOutboxMetrics(registry, { alert_events: this.relay });
    registerOutboxShardMetrics(registry, 'alert_events', this.relay);
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}

/** `/healthz`: the alert event relay keeps up (see relayHealth), over the shards this processor leads. */
@Injectable()
export class AlertEventRelayHealthProbe implements HealthProbe {
  readonly name = 'alert_event_relay';

  constructor(private readonly events: AlertEventRelayService) {}

  async ping(): Promise<HealthDetails> {
    return relayHealth(this.events.relay.status());
  }
}
