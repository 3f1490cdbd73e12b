import { WorkflowConsumerName } from '@alert-ingestion/alerts-feature';
import { HealthProbe } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { AlertEmailEventsConsumer } from './alert-email-events.consumer';
import { AlertWorkflowConsumerService, workflowConsumerTitle } from './alert-workflow-consumer';
import { IncidentAutomationService } from './incident-automation.service';

/** `/healthz` of an instance of the workflow role: one of its consumers of alerts.events.v1 has not stopped for good. */
export abstract class AlertWorkflowHealthProbe implements HealthProbe {
  readonly name: WorkflowConsumerName;

  constructor(private readonly consumer: AlertWorkflowConsumerService) {
    this.name = consumer.consumerName;
  }

  ping(): Promise<void> {
    if (!this.consumer.healthy) return Promise.reject(new Error(`the ${workflowConsumerTitle(this.name)} consumer has stopped`));
    return Promise.resolve();
  }
}

/** `/healthz`: the incident automation still follows alerts.events.v1 (or has nothing to follow). */
@Injectable()
export class IncidentAutomationHealthProbe extends AlertWorkflowHealthProbe {
  constructor(automation: IncidentAutomationService) {
    super(automation);
  }
}

/** `/healthz` with SMTP_URL: the alert emails' consumer still follows alerts.events.v1 (or has nothing to follow). */
@Injectable()
export class AlertEmailEventsHealthProbe extends AlertWorkflowHealthProbe {
  constructor(consumer: AlertEmailEventsConsumer) {
    super(consumer);
  }
}
