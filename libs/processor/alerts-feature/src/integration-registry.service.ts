import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { KAFKA_CLIENT } from '@alert-ingestion/kafka';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { Kafka } from 'kafkajs';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { IntegrationLookup } from './integration-lookup';

/** The processor's view of the integrations topic, read to its end before consuming raw alerts. */
@Injectable()
export class IntegrationRegistryService extends IntegrationRegistry implements IntegrationLookup, OnModuleInit, OnModuleDestroy {
  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions) {
    super(kafka, {
      topicPrefix: options.topicPrefix,
      consumerName: 'alert-processor',
      logger: new Logger(IntegrationRegistry.name),
    });
  }

  async onModuleInit(): Promise<void> {
    await this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }
}
