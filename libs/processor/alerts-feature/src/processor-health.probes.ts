import { Injectable } from '@nestjs/common';
import { HealthProbe } from '@alert-ingestion/http';
import { AlertsDatabase } from '@alert-ingestion/alerts-data';

/**
 * `/healthz`: PostgreSQL answers through the processor's own pool (the processor writes with `pg`
 * directly and has no PrismaService, so DatabaseHealthProbe does not apply).
 */
@Injectable()
export class PostgresHealthProbe implements HealthProbe {
  readonly name = 'postgresql';

  constructor(private readonly database: AlertsDatabase) {}

  ping(): Promise<void> {
    return this.database.ping();
  }
}
