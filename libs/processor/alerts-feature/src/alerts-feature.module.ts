import { DynamicModule, FactoryProvider, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import {
  AlertBatchRepository,
  AlertsDatabase,
  AlertsQueryRepository,
  DeliveriesRepository,
  HeartbeatsRepository,
  ProcessedRawAlertsRetention,
  SilencesRepository,
} from '@alert-ingestion/alerts-data';
import { HeartbeatCheckerService } from './heartbeat-checker.service';
import { OutboxRelaysService } from './outbox-relays.service';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { AlertsQueryService } from './alerts-query.service';
import { DeliveriesService } from './deliveries.service';
import { INTEGRATION_LOOKUP, IntegrationLookup } from './integration-lookup';
import { IntegrationRegistryService } from './integration-registry.service';
import { RetentionService } from './retention.service';
import { SilencesService } from './silences.service';
import { RawAlertBatchProcessor } from './raw-alert-batch.processor';
import { ProcessorMetrics } from './processor-metrics';
import { Registry } from 'prom-client';
import { KafkaNames } from '@alert-ingestion/kafka';
import { Topic } from '@alert-ingestion/contracts';

/** Closes the pool last, after consumers and the relay have finished their work (onModuleDestroy). */
@Injectable()
class AlertsDatabaseShutdown implements OnApplicationShutdown {
  constructor(private readonly database: AlertsDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/** A repository of the processor's database: built on its AlertsDatabase. */
export function onDatabase<T>(repository: new (database: AlertsDatabase) => T): FactoryProvider<T> {
  return { provide: repository, useFactory: (database: AlertsDatabase) => new repository(database), inject: [AlertsDatabase] };
}

/**
 * The alert processor's providers: the raw alert batch processor, event relay, query service and its
 * guard (the app's Kafka handlers call them). Needs the global KafkaModule (client, names, producer)
 * and MetricsModule (the Registry). Global itself so that HealthModule's probes resolve (AlertsDatabase).
 */
@Module({})
export class AlertsFeatureModule {
  static forRoot(options: AlertsFeatureOptions): DynamicModule {
    return {
      module: AlertsFeatureModule,
      global: true,
      providers: [
        { provide: ALERTS_FEATURE_OPTIONS, useValue: options },
        {
          provide: AlertsDatabase,
          // A processor of one role names it in its sessions (pg_stat_activity), so PostgreSQL's work is told apart by role.
          useFactory: () =>
            new AlertsDatabase(options.databaseUrl, {
              maxConnections: options.databasePoolSize,
              applicationName: options.roles.length === 1 ? `alert-processor-${options.roles[0]}` : 'alert-processor',
            }),
        },
        AlertsDatabaseShutdown,
        onDatabase(AlertBatchRepository),
        onDatabase(AlertsQueryRepository),
        IntegrationRegistryService,
        { provide: INTEGRATION_LOOKUP, useExisting: IntegrationRegistryService },
        { provide: ProcessorMetrics, useFactory: (registry: Registry) => new ProcessorMetrics(registry), inject: [Registry] },
        {
          provide: RawAlertBatchProcessor,
          inject: [AlertBatchRepository, INTEGRATION_LOOKUP, KafkaNames],
          useFactory: (repository: AlertBatchRepository, integrations: IntegrationLookup, names: KafkaNames) =>
            new RawAlertBatchProcessor(repository, integrations, {
              integrationLookupTimeoutMs: options.integrationLookupTimeoutMs,
              sourceTopic: names.topic(Topic.RawAlerts),
              recordDeliveries: options.deliveries.keepPerIntegration > 0,
            }),
        },
        OutboxRelaysService,
        onDatabase(ProcessedRawAlertsRetention),
        RetentionService,
        onDatabase(DeliveriesRepository),
        AlertsQueryService,
        DeliveriesService,
        onDatabase(HeartbeatsRepository),
        HeartbeatCheckerService,
        onDatabase(SilencesRepository),
        SilencesService,
      ],
      exports: [
        ALERTS_FEATURE_OPTIONS,
        RawAlertBatchProcessor,
        ProcessorMetrics,
        DeliveriesRepository,
        DeliveriesService,
        OutboxRelaysService,
        AlertsDatabase,
        AlertsQueryService,
        SilencesService,
        INTEGRATION_LOOKUP,
      ],
    };
  }
}
