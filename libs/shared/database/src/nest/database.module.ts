import { DynamicModule, Logger, Module } from '@nestjs/common';
import { applyMigrations } from '../migrations/migration-runner';
import { DATABASE_MIGRATED, DATABASE_OPTIONS, DatabaseOptions } from './database.options';
import { PrismaService } from './prisma.service';

/**
 * PrismaService for a service (HealthModule takes DatabaseHealthProbe for `/healthz`). Global, so repositories in
 * feature and data libraries inject the one PrismaService.
 *
 *   DatabaseModule.forRoot(env.DATABASE_URL)                              // tests: template already migrated
 *   DatabaseModule.forRoot({ databaseUrl: env.DATABASE_URL, applyMigrations: true })  // service start-up
 */
@Module({})
export class DatabaseModule {
  static forRoot(databaseUrlOrOptions: string | DatabaseOptions): DynamicModule {
    const options: DatabaseOptions =
      typeof databaseUrlOrOptions === 'string' ? { databaseUrl: databaseUrlOrOptions } : databaseUrlOrOptions;
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        { provide: DATABASE_OPTIONS, useValue: options },
        {
          provide: DATABASE_MIGRATED,
          useFactory: async (): Promise<true> => {
            if (options.applyMigrations) {
              const logger = new Logger('Migrations');
              const result = await applyMigrations({
                databaseUrl: options.databaseUrl,
                migrationsDir: options.migrationsDir,
                log: (message) => logger.log(message),
              });
              logger.log(`${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
            }
            return true;
          },
        },
        PrismaService,
      ],
      exports: [PrismaService],
    };
  }
}
