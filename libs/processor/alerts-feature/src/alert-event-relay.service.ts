import { ALERT_EVENT_OUTBOX } from '@alert-ingestion/alerts-data';
import { Topic } from '@alert-ingestion/contracts';
import { HealthDetails, HealthProbe } from '@alert-ingestion/http';
import { ConsumerGroup, KAFKA_CLIENT, KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { OutboxRelay, registerOutboxMetrics, relayHealth } from '@alert-ingestion/outbox';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

/** Publishes the alert event outbox to alerts.events.v1 (see OutboxRelay) for the lifetime of the app. */
@Injectable()
export class AlertEventRelayService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relay: OutboxRelay;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions, names: KafkaNames, registry: Registry) {
    const producer = new TransactionalTopicProducer(kafka, names, {
      topic: Topic.AlertEvents,
      transactionalId: names.group(ConsumerGroup.AlertEventRelay),
      positionGroupId: names.group(ConsumerGroup.AlertEventRelay),
    });
    this.relay = new OutboxRelay(producer, {
      ...options.relay,
      name: 'alert events',
      databaseUrl: options.databaseUrl,
      table: ALERT_EVENT_OUTBOX,
      deadLetterTopic: Topic.AlertEventsDeadLetter,
      logger: new Logger('AlertEventRelay'),
    });
    registerOutboxMetrics(registry, { alert_events: this.relay });
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}

/** `/healthz`: the alert event relay keeps up (see relayHealth). */
@Injectable()
export class AlertEventRelayHealthProbe implements HealthProbe {
  readonly name = 'alert_event_relay';

  constructor(private readonly events: AlertEventRelayService) {}

  async ping(): Promise<HealthDetails> {
    return relayHealth(this.events.relay.status());
  }
}
