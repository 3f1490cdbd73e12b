import { onDatabase } from '@alert-ingestion/alerts-feature';
import { AlertNotificationsRepository, AlertSettingsRepository, IncidentsRepository, TimelineRepository } from '@alert-ingestion/workflow-data';
import { DynamicModule, Module } from '@nestjs/common';
import { AlertEmailEventsConsumer } from './alert-email-events.consumer';
import { AlertEmailsService } from './alert-emails.service';
import { AlertWorkflowConsumers } from './alert-workflow-consumer';
import { AlertSettingsService } from './alert-settings.service';
import { IncidentAutomationService } from './incident-automation.service';
import { IncidentsService } from './incidents.service';
import { TimelineService } from './timeline.service';
import { AlertEmailEventsHealthProbe, IncidentAutomationHealthProbe } from './workflow-health.probes';
import { WORKFLOW_OPTIONS, WorkflowOptions } from './workflow.options';

/**
 * The alert workflow (docs/architecture.md "The alert workflow"): what follows an alert once it is
 * stored (incidents, the alert settings, the timelines, alert emails and the incident automation).
 * Builds on AlertsFeatureModule (global: the database, the alerts, the metrics) and never the other
 * way round; its consumers and its mailer run in instances of the workflow role (PROCESSOR_ROLES),
 * its API in every instance.
 */
@Module({})
export class WorkflowModule {
  static forRoot(options: WorkflowOptions): DynamicModule {
    const providers = [
      { provide: WORKFLOW_OPTIONS, useValue: options },
      onDatabase(IncidentsRepository),
      onDatabase(AlertSettingsRepository),
      onDatabase(AlertNotificationsRepository),
      onDatabase(TimelineRepository),
      IncidentsService,
      AlertSettingsService,
      TimelineService,
      AlertEmailsService,
      AlertWorkflowConsumers,
      IncidentAutomationService,
      AlertEmailEventsConsumer,
      IncidentAutomationHealthProbe,
      AlertEmailEventsHealthProbe,
    ];
    return { module: WorkflowModule, providers, exports: providers };
  }
}
