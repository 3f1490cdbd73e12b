import { DynamicModule, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { AlertBatchRepository, AlertsDatabase, AlertsQueryRepository, ProcessedRawAlertsRetention, SqlProjectAccessReader } from '@alert-ingestion/alerts-data';
import { AlertEventRelayService } from './alert-event-relay.service';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { AlertsQueryService } from './alerts-query.service';
import { INTEGRATION_LOOKUP } from './integration-lookup';
import { IntegrationRegistryService } from './integration-registry.service';
import { ProcessedRetentionService } from './processed-retention.service';
import { PROJECT_ACCESS_READER, ProjectAccessGuard } from './project-access.guard';
import { RawAlertConsumer } from './raw-alert.consumer';

/** Closes the pool last, after consumers and the relay have finished their work (onModuleDestroy). */
@Injectable()
class AlertsDatabaseShutdown implements OnApplicationShutdown {
  constructor(private readonly database: AlertsDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/**
 * The alert processor's providers: raw alert consumer, event relay, query service and its guard.
 * Needs the global KafkaModule (KAFKA_CLIENT). Global itself so that HealthModule's probes resolve (AlertsDatabase).
 */
@Module({})
export class AlertsFeatureModule {
  static forRoot(options: AlertsFeatureOptions): DynamicModule {
    return {
      module: AlertsFeatureModule,
      global: true,
      providers: [
        { provide: ALERTS_FEATURE_OPTIONS, useValue: options },
        { provide: AlertsDatabase, useFactory: () => new AlertsDatabase(options.databaseUrl, { maxConnections: options.databasePoolSize }) },
        AlertsDatabaseShutdown,
        { provide: AlertBatchRepository, useFactory: (database: AlertsDatabase) => new AlertBatchRepository(database), inject: [AlertsDatabase] },
        { provide: AlertsQueryRepository, useFactory: (database: AlertsDatabase) => new AlertsQueryRepository(database), inject: [AlertsDatabase] },
        { provide: PROJECT_ACCESS_READER, useFactory: (database: AlertsDatabase) => new SqlProjectAccessReader(database), inject: [AlertsDatabase] },
        IntegrationRegistryService,
        { provide: INTEGRATION_LOOKUP, useExisting: IntegrationRegistryService },
        RawAlertConsumer,
        AlertEventRelayService,
        {
          provide: ProcessedRawAlertsRetention,
          useFactory: (database: AlertsDatabase) => new ProcessedRawAlertsRetention(database),
          inject: [AlertsDatabase],
        },
        ProcessedRetentionService,
        AlertsQueryService,
        ProjectAccessGuard,
      ],
      exports: [
        ALERTS_FEATURE_OPTIONS,
        AlertsDatabase,
        AlertsQueryService,
        ProjectAccessGuard,
        PROJECT_ACCESS_READER,
      ],
    };
  }
}
