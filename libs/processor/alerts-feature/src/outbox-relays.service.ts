import { ALERT_EVENT_OUTBOX, INCIDENT_EVENT_OUTBOX } from '@alert-ingestion/alerts-data';
import { Topic } from '@alert-ingestion/contracts';
import { HealthDetails, HealthProbe } from '@alert-ingestion/http';
import { ConsumerGroup, KAFKA_CLIENT, KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { OutboxRelay, registerOutboxMetrics, registerOutboxShardMetrics, relayHealth, shardName, ShardedOutboxRelay } from '@alert-ingestion/outbox';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Registry } from 'prom-client';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { runsRole } from './processor-roles';

/** The processor's relays, by outbox; the keys label their metrics. */
export interface ProcessorRelays {
  /** alerts.events.v1, sharded: this processor leads its fair share of the shards. */
  alert_events: ShardedOutboxRelay;
  /** incidents.events.v1: few events, so one relay, led by one processor at a time. */
  incident_events: OutboxRelay;
}

export type ProcessorOutboxName = keyof ProcessorRelays;

/**
 * Publishes the processor's outboxes for the lifetime of the app, one provider for both so their
 * metrics are registered once:
 * - the alert event outbox to alerts.events.v1, sharded (ShardedOutboxRelay): this processor leads
 *   its fair share of the shards, each with a transactional id and a position of the shard's own. A
 *   processor of an earlier version (one relay for the whole outbox, under the unsuffixed id) is
 *   kept out, and the shards start where it stopped;
 * - the incident event outbox to incidents.events.v1 by one OutboxRelay (one leader among the
 *   processors), since incidents change at a human pace.
 */
@Injectable()
export class OutboxRelaysService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relays: Readonly<ProcessorRelays>;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
    names: KafkaNames,
    registry: Registry,
  ) {
    const producerOf = (topic: Topic, id: string) => new TransactionalTopicProducer(kafka, names, { topic, transactionalId: id, positionGroupId: id });

    const alertLogger = new Logger('AlertEventRelay');
    const single = names.group(ConsumerGroup.AlertEventRelay);
    const alertEvents = new ShardedOutboxRelay(
      (shard) =>
        new OutboxRelay(producerOf(Topic.AlertEvents, `${single}.${shardName(shard)}`), {
          ...options.relay,
          name: `alert events (shard ${shard.index} of ${shard.count})`,
          shard,
          // Where the single relay of earlier versions stopped, for a shard that has not published yet.
          predecessor: producerOf(Topic.AlertEvents, single),
          databaseUrl: options.databaseUrl,
          table: ALERT_EVENT_OUTBOX,
          deadLetterTopic: Topic.AlertEventsDeadLetter,
          logger: alertLogger,
        }),
      {
        databaseUrl: options.databaseUrl,
        table: ALERT_EVENT_OUTBOX,
        shardCount: options.relayShards.count,
        rebalanceIntervalMs: options.relayShards.rebalanceIntervalMs,
        name: 'alert events',
        logger: alertLogger,
      },
    );

    const incidentGroup = names.group(ConsumerGroup.IncidentEventRelay);
    const incidentEvents = new OutboxRelay(producerOf(Topic.IncidentEvents, incidentGroup), {
      ...options.relay,
      name: 'incident events',
      databaseUrl: options.databaseUrl,
      table: INCIDENT_EVENT_OUTBOX,
      deadLetterTopic: Topic.IncidentEventsDeadLetter,
      logger: new Logger('IncidentEventRelay'),
    });

    this.relays = { alert_events: alertEvents, incident_events: incidentEvents };
    registerOutboxMetrics(registry, this.relays);
    registerOutboxShardMetrics(registry, 'alert_events', alertEvents);
  }

  /** Whether this instance relays (the intake role: it publishes what intake commits). */
  get relaying(): boolean {
    return runsRole(this.options.roles, 'intake');
  }

  onApplicationBootstrap(): void {
    if (!this.relaying) return;
    for (const relay of Object.values(this.relays)) relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(Object.values(this.relays).map((relay) => relay.stop()));
  }
}

/** `/healthz`: one of the processor's relays keeps up (see relayHealth), over what this processor leads. */
@Injectable()
abstract class OutboxRelayHealthProbe implements HealthProbe {
  abstract readonly name: string;
  protected abstract readonly outbox: ProcessorOutboxName;

  constructor(private readonly outboxes: OutboxRelaysService) {}

  async ping(): Promise<HealthDetails> {
    return relayHealth(this.outboxes.relays[this.outbox].status());
  }
}

/** `/healthz`: the alert event relay, over the shards this processor leads. */
@Injectable()
export class AlertEventRelayHealthProbe extends OutboxRelayHealthProbe {
  readonly name = 'alert_event_relay';
  protected readonly outbox = 'alert_events';
}

/** `/healthz`: the incident event relay. */
@Injectable()
export class IncidentEventRelayHealthProbe extends OutboxRelayHealthProbe {
  readonly name = 'incident_event_relay';
  protected readonly outbox = 'incident_events';
}
