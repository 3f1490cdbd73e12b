import { DynamicModule, Module } from '@nestjs/common';
import { AccessTokenService } from './auth/access-token.service';
import { AuthenticationGuard } from './auth/authentication.guard';
import { ProjectAccessGuard } from './auth/project-access.guard';
import { INTEGRATIONS_FEATURE_OPTIONS, IntegrationsFeatureOptions } from './integrations-feature.options';
import { IntegrationSnapshotsService } from './integrations/integration-snapshots.service';
import { IntegrationsService } from './integrations/integrations.service';
import { TestAlertService } from './integrations/test-alert.service';
import { ProjectsService } from './projects/projects.service';
import { UsersService } from './users/users.service';

/**
 * Users, projects, members and alert integrations. Needs the global DatabaseModule (PrismaService)
 * and KafkaModule (KAFKA_CLIENT) from the app.
 */
@Module({})
export class IntegrationsFeatureModule {
  static forRoot(options: IntegrationsFeatureOptions): DynamicModule {
    const services = [AccessTokenService, UsersService, ProjectsService, IntegrationsService, IntegrationSnapshotsService, TestAlertService];
    return {
      module: IntegrationsFeatureModule,
      providers: [{ provide: INTEGRATIONS_FEATURE_OPTIONS, useValue: options }, ...services, AuthenticationGuard, ProjectAccessGuard],
      exports: [...services, AuthenticationGuard, ProjectAccessGuard],
    };
  }
}
