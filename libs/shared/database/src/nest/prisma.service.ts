import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/client';
import { redactUrl } from '../database-url';
import { DATABASE_MIGRATED, DATABASE_OPTIONS, DatabaseOptions } from './database.options';

/**
 * The service's Prisma client over node-postgres (@prisma/adapter-pg; no native engine).
 * Connects on module init and fails start-up when the database does not answer; disconnects on
 * module destroy (enableShutdownHooks).
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PrismaService.name);
  private readonly databaseUrl: string;

  constructor(
    @Inject(DATABASE_OPTIONS) options: DatabaseOptions,
    // Injected only to order start-up: migrations are applied before this client exists.
    @Inject(DATABASE_MIGRATED) _migrated: true,
  ) {
    super({ adapter: new PrismaPg({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 }) });
    this.databaseUrl = options.databaseUrl;
  }

  async onModuleInit(): Promise<void> {
    // With a driver adapter $connect() opens no connection; a query proves the database answers.
    await this.$connect();
    await this.$queryRaw`SELECT 1`;
    this.logger.log(`Connected to ${redactUrl(this.databaseUrl)}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
