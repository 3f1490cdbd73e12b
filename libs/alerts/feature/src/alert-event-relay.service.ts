import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Topic, topicName } from '@alert-ingestion/contracts';
import { KAFKA_CLIENT } from '@alert-ingestion/kafka';
import { Kafka } from 'kafkajs';
import { AlertEventRelay } from './alert-event.relay';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

/** Runs the alert event relay (see AlertEventRelay) for the lifetime of the app. */
@Injectable()
export class AlertEventRelayService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: AlertEventRelay;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions) {
    const prefix = options.topicPrefix;
    this.relay = new AlertEventRelay(kafka, {
      databaseUrl: options.databaseUrl,
      eventsTopic: topicName(Topic.AlertEvents, prefix),
      transactionalId: `${prefix}alert-processor-event-relay`,
      positionGroupId: `${prefix}alert-processor-event-relay`,
      batchSize: options.relay.batchSize,
      lingerMs: options.relay.lingerMs,
      pollIntervalMs: options.relay.pollIntervalMs,
      retryIntervalMs: options.relay.retryIntervalMs,
      logger: new Logger(AlertEventRelay.name),
    });
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}
