import { AccessModule } from '@alert-ingestion/access';
import { SqlQuery } from '@alert-ingestion/sql';
import { ConfigModule } from '@alert-ingestion/config';
import { DatabaseHealthProbe, DatabaseModule, PrismaService, prismaSqlQuery } from '@alert-ingestion/database';
import { HealthModule } from '@alert-ingestion/http';
import { IntegrationSnapshotRelayHealthProbe, IntegrationsFeatureModule, IntegrationsFeatureOptions } from '@alert-ingestion/integrations-feature';
import { KafkaHealthProbe, KafkaModule } from '@alert-ingestion/kafka';
import { MetricsModule } from '@alert-ingestion/metrics';
import { DynamicModule, Module } from '@nestjs/common';
import { AlertIntegrationsController } from './alert-integrations.controller';
import { ConsoleStaticModule } from './console-static.module';
import { DeprecationsHttpModule } from './deprecations/deprecations-http.module';
import { IntegrationConfigEnv } from './integration-config.env';
import { ProjectsController } from './projects.controller';
import { UsersController } from './users.controller';

export interface IntegrationConfigModuleOptions {
  env: IntegrationConfigEnv;
  feature: IntegrationsFeatureOptions;
  /** Apply prisma/migrations at start-up (the service does; tests use an already migrated database). */
  applyMigrations: boolean;
  /** The built web console to serve at `/`; by default dist/apps/console, found from the code. */
  consoleDir?: string | null;
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
        MetricsModule.forRoot(),
        AccessModule.forRoot({
          adminToken: env.ADMIN_TOKEN,
          sqlQuery: {
            inject: [PrismaService],
            useFactory: (prisma: PrismaService): SqlQuery => prismaSqlQuery(prisma),
          },
        }),
        IntegrationsFeatureModule.forRoot(options.feature),
        DeprecationsHttpModule,
        HealthModule.forRoot({ probes: [DatabaseHealthProbe, KafkaHealthProbe, IntegrationSnapshotRelayHealthProbe] }),
        ConsoleStaticModule.forRoot(options.consoleDir),
      ],
      controllers: [UsersController, ProjectsController, AlertIntegrationsController],
    };
  }
}
