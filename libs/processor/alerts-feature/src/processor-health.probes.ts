import { Injectable } from '@nestjs/common';
import { HealthProbe } from '@alert-ingestion/http';
import { AlertsDatabase } from '@alert-ingestion/alerts-data';
import { IncidentAutomationService } from './incident-automation.service';

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

/** `/healthz` of an instance of the workflow role: the incident automation still follows alerts.events.v1. */
@Injectable()
export class IncidentAutomationHealthProbe implements HealthProbe {
  readonly name = 'incident_automation';

  constructor(private readonly automation: IncidentAutomationService) {}

  ping(): Promise<void> {
    if (!this.automation.healthy) return Promise.reject(new Error('the incident automation consumer has stopped'));
    return Promise.resolve();
  }
}
