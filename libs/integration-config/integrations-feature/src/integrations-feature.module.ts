import { DynamicModule, Module } from '@nestjs/common';
import { INTEGRATIONS_DATA_PROVIDERS } from '@alert-ingestion/integrations-data';
import { INTEGRATIONS_FEATURE_OPTIONS, IntegrationsFeatureOptions } from './integrations-feature.options';
import { IntegrationMetrics } from './integrations/integration-metrics';
import { IntegrationSnapshotRelay } from './integrations/integration-snapshot-relay';
import { IntegrationsService } from './integrations/integrations.service';
import { TestAlertService } from './integrations/test-alert.service';
import { ProjectsService } from './projects/projects.service';
import { UsersService } from './users/users.service';

/**
 * Users, projects, members and alert integrations: the services over the repositories of
 * @alert-ingestion/integrations-data. Needs the global DatabaseModule (PrismaService), KafkaModule
 * (KAFKA_CLIENT) and MetricsModule (the Registry) from the app.
 */
@Module({})
export class IntegrationsFeatureModule {
  static forRoot(options: IntegrationsFeatureOptions): DynamicModule {
    const services = [UsersService, ProjectsService, IntegrationsService, IntegrationSnapshotRelay, TestAlertService, IntegrationMetrics];
    return {
      module: IntegrationsFeatureModule,
      // Global so that HealthModule's snapshot relay probe resolves.
      global: true,
      providers: [{ provide: INTEGRATIONS_FEATURE_OPTIONS, useValue: options }, ...INTEGRATIONS_DATA_PROVIDERS, ...services],
      exports: services,
    };
  }
}
