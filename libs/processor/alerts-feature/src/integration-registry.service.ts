import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { IntegrationSnapshot } from '@alert-ingestion/contracts';
import { KAFKA_CLIENT } from '@alert-ingestion/kafka';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { Kafka } from 'kafkajs';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { IntegrationLookup } from './integration-lookup';

/** The processor's view of the integrations topic, read to its end before consuming raw alerts. */
@Injectable()
export class IntegrationRegistryService implements IntegrationLookup, OnModuleInit, OnModuleDestroy {
  private readonly registry: IntegrationRegistry;

  constructor(@Inject(KAFKA_CLIENT) kafka: Kafka, @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions) {
    this.registry = new IntegrationRegistry(kafka, {
      topicPrefix: options.topicPrefix,
      consumerName: 'alert-processor',
      logger: new Logger(IntegrationRegistry.name),
    });
  }

  findById(id: string): IntegrationSnapshot.IntegrationSnapshotValue | undefined {
    return this.registry.findById(id);
  }

  /** Every integration currently known. */
  all(): IntegrationSnapshot.IntegrationSnapshotValue[] {
    return this.registry.all();
  }

  findFresh<T>(find: () => T, isFinal: (found: T) => boolean, timeoutMs: number): Promise<T> {
    return this.registry.findFresh(find, isFinal, timeoutMs);
  }

  async onModuleInit(): Promise<void> {
    await this.registry.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.registry.stop();
  }
}
