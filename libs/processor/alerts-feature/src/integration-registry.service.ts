import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { KAFKA_CLIENT, KafkaNames } from '@alert-ingestion/kafka';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { Kafka } from 'kafkajs';
import { IntegrationLookup } from './integration-lookup';

/** The processor's view of the integrations topic, read to its end before consuming raw alerts. */
@Injectable()
export class IntegrationRegistryService extends IntegrationRegistry implements IntegrationLookup, OnModuleInit, OnModuleDestroy {
  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, names: KafkaNames) {
    super(kafka, {
      topicPrefix: names.prefix,
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
