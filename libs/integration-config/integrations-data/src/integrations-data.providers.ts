import { PrismaService } from '@alert-ingestion/database';
import { FactoryProvider } from '@nestjs/common';
import { ConfigDatabase } from './config-database';
import { IntegrationSnapshotOutbox } from './integration-snapshot-outbox';
import { IntegrationsRepository } from './integrations.repository';
import { ProjectsRepository } from './projects.repository';
import { UsersRepository } from './users.repository';

/** A repository of integration-config's database: built on its ConfigDatabase. */
function onDatabase<T>(repository: new (database: ConfigDatabase) => T): FactoryProvider<T> {
  return { provide: repository, useFactory: (database: ConfigDatabase) => new repository(database), inject: [ConfigDatabase] };
}

/** The data layer's Nest providers, over the global DatabaseModule's PrismaService. */
export const INTEGRATIONS_DATA_PROVIDERS = [
  { provide: ConfigDatabase, useFactory: (prisma: PrismaService) => new ConfigDatabase(prisma), inject: [PrismaService] },
  onDatabase(UsersRepository),
  onDatabase(ProjectsRepository),
  onDatabase(IntegrationsRepository),
  onDatabase(IntegrationSnapshotOutbox),
] satisfies FactoryProvider[];
