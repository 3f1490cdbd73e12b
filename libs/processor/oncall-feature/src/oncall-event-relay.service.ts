import { Topic } from '@alert-ingestion/contracts';
import { HealthDetails, HealthProbe } from '@alert-ingestion/http';
import { ConsumerGroup, KAFKA_CLIENT, KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { ONCALL_EVENT_OUTBOX } from '@alert-ingestion/oncall-data';
import { OutboxRelay, registerOutboxMetrics, relayHealth } from '@alert-ingestion/outbox';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { ONCALL_FEATURE_OPTIONS, OncallFeatureOptions } from './oncall-feature.options';

/**
 * Publishes the on-call event outbox to oncall.events.v1 for the lifetime of the app, on the
 * processors that publish handoffs: one OutboxRelay, led by one processor at a time, as incident
 * events are (changes come at a human pace). Its metrics are labelled `oncall_events`.
 */
@Injectable()
export class OncallEventRelayService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relay: OutboxRelay;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    @Inject(ONCALL_FEATURE_OPTIONS) private readonly options: OncallFeatureOptions,
    names: KafkaNames,
    registry: Registry,
  ) {
    const id = names.group(ConsumerGroup.OncallEventRelay);
    this.relay = new OutboxRelay(new TransactionalTopicProducer(kafka, names, { topic: Topic.OncallEvents, transactionalId: id, positionGroupId: id }), {
      ...options.relay,
      name: 'on-call events',
      databaseUrl: options.databaseUrl,
      table: ONCALL_EVENT_OUTBOX,
      deadLetterTopic: Topic.OncallEventsDeadLetter,
      logger: new Logger('OncallEventRelay'),
    });
    registerOutboxMetrics(registry, { oncall_events: this.relay });
  }

  onApplicationBootstrap(): void {
    if (this.options.publishes) this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}

/** `/healthz`: the on-call event relay keeps up (relayHealth). */
@Injectable()
export class OncallEventRelayHealthProbe implements HealthProbe {
  readonly name = 'oncall_event_relay';

  constructor(private readonly relays: OncallEventRelayService) {}

  async ping(): Promise<HealthDetails> {
    return relayHealth(this.relays.relay.status());
  }
}
