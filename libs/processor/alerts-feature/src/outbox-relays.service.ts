import { ALERT_EVENT_OUTBOX, INCIDENT_EVENT_OUTBOX } from '@alert-ingestion/alerts-data';
import { Topic } from '@alert-ingestion/contracts';
import { HealthDetails, HealthProbe } from '@alert-ingestion/http';
import { ConsumerGroup, KAFKA_CLIENT, KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { OutboxRelay, OutboxRelayOptions, OutboxTable, registerOutboxMetrics, relayHealth } from '@alert-ingestion/outbox';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

interface ProcessorOutbox {
  /** Prefix of the relay's log lines. */
  name: string;
  table: OutboxTable;
  topic: Topic;
  deadLetterTopic: OutboxRelayOptions['deadLetterTopic'];
  /** Its transactional id and position group. */
  group: ConsumerGroup;
  logger: string;
}

/** The processor's transactional outboxes, each relayed to its topic; the keys label their metrics. */
const PROCESSOR_OUTBOXES = {
  alert_events: {
    name: 'alert events',
    table: ALERT_EVENT_OUTBOX,
    topic: Topic.AlertEvents,
    deadLetterTopic: Topic.AlertEventsDeadLetter,
    group: ConsumerGroup.AlertEventRelay,
    logger: 'AlertEventRelay',
  },
  incident_events: {
    name: 'incident events',
    table: INCIDENT_EVENT_OUTBOX,
    topic: Topic.IncidentEvents,
    deadLetterTopic: Topic.IncidentEventsDeadLetter,
    group: ConsumerGroup.IncidentEventRelay,
    logger: 'IncidentEventRelay',
  },
} as const satisfies Record<string, ProcessorOutbox>;

export type ProcessorOutboxName = keyof typeof PROCESSOR_OUTBOXES;

/**
 * Publishes each of the processor's outboxes to its topic (see OutboxRelay) for the lifetime of the
 * app: alert events to alerts.events.v1, incident events to incidents.events.v1. One provider for
 * all of them, so their metrics are registered once and every relay is built the same way.
 */
@Injectable()
export class OutboxRelaysService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relays: Readonly<Record<ProcessorOutboxName, OutboxRelay>>;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions, names: KafkaNames, registry: Registry) {
    const relay = (outbox: ProcessorOutbox): OutboxRelay =>
      new OutboxRelay(
        new TransactionalTopicProducer(kafka, names, { topic: outbox.topic, transactionalId: names.group(outbox.group), positionGroupId: names.group(outbox.group) }),
        {
          ...options.relay,
          name: outbox.name,
          databaseUrl: options.databaseUrl,
          table: outbox.table,
          deadLetterTopic: outbox.deadLetterTopic,
          logger: new Logger(outbox.logger),
        },
      );
    this.relays = { alert_events: relay(PROCESSOR_OUTBOXES.alert_events), incident_events: relay(PROCESSOR_OUTBOXES.incident_events) };
    registerOutboxMetrics(registry, this.relays);
  }

  onApplicationBootstrap(): void {
    for (const relay of Object.values(this.relays)) relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(Object.values(this.relays).map((relay) => relay.stop()));
  }
}

/** `/healthz`: the alert event relay keeps up (see relayHealth). */
@Injectable()
export class AlertEventRelayHealthProbe implements HealthProbe {
  readonly name = 'alert_event_relay';

  constructor(private readonly outboxes: OutboxRelaysService) {}

  async ping(): Promise<HealthDetails> {
    return relayHealth(this.outboxes.relays.alert_events.status());
  }
}

/** `/healthz`: the incident event relay keeps up (see relayHealth). */
@Injectable()
export class IncidentEventRelayHealthProbe implements HealthProbe {
  readonly name = 'incident_event_relay';

  constructor(private readonly outboxes: OutboxRelaysService) {}

  async ping(): Promise<HealthDetails> {
    return relayHealth(this.outboxes.relays.incident_events.status());
  }
}
