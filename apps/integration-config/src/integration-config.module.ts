import { ConfigModule } from '@alert-ingestion/config';
import { DatabaseHealthProbe, DatabaseModule } from '@alert-ingestion/database';
import { HealthModule } from '@alert-ingestion/http';
import { IntegrationsFeatureModule, IntegrationsFeatureOptions } from '@alert-ingestion/integrations-feature';
import { KafkaHealthProbe, KafkaModule } from '@alert-ingestion/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { AlertIntegrationsController } from './alert-integrations.controller';
import { DeprecationsHttpModule } from './deprecations';
import { IntegrationConfigEnv } from './integration-config.env';
import { ProjectsController } from './projects.controller';
import { UsersController } from './users.controller';

export interface IntegrationConfigModuleOptions {
  env: IntegrationConfigEnv;
  feature: IntegrationsFeatureOptions;
  /** Apply prisma/migrations at start-up (the service does; tests use an already migrated database). */
  applyMigrations: boolean;
}

@Module({})
export class IntegrationConfigModule {
  static forRoot(options: IntegrationConfigModuleOptions): DynamicModule {
    const { env } = options;
    return {
      module: IntegrationConfigModule,
      imports: [
        ConfigModule.forRoot(env),
        DatabaseModule.forRoot({ databaseUrl: env.DATABASE_URL, applyMigrations: options.applyMigrations }),
        KafkaModule.forRoot(env),
        IntegrationsFeatureModule.forRoot(options.feature),
        DeprecationsHttpModule,
        HealthModule.forRoot({ probes: [DatabaseHealthProbe, KafkaHealthProbe] }),
      ],
      controllers: [UsersController, ProjectsController, AlertIntegrationsController],
    };
  }
}
