import { AlertEvent } from '@alert-ingestion/contracts';
import { ConsumerGroup } from '@alert-ingestion/kafka';
import { AlertSettingsRepository } from '@alert-ingestion/workflow-data';
import { Injectable } from '@nestjs/common';
import { AlertEmailsService } from './alert-emails.service';
import { AlertWorkflowConsumers, AlertWorkflowConsumerService } from './alert-workflow-consumer';

/**
 * alerts.events.v1 in the group `alert-processor-notifications`: new and resolved alerts become
 * pending alert emails (AlertEmailsService.record), apart from intake, so an SMTP outage never
 * holds a payload back. Recording is idempotent per (event, recipient), so a redelivered chunk
 * mails nobody twice. Only in instances of the workflow role with SMTP_URL set, and only while some
 * project sends email: an event skipped while none does would have mailed nobody.
 */
@Injectable()
export class AlertEmailEventsConsumer extends AlertWorkflowConsumerService {
  constructor(
    consumers: AlertWorkflowConsumers,
    private readonly settings: AlertSettingsRepository,
    private readonly emails: AlertEmailsService,
  ) {
    super(consumers, { name: 'alert_email_events', group: ConsumerGroup.AlertProcessorNotifications, needsEmail: true });
  }

  protected wanted(): Promise<boolean> {
    return this.settings.anyProjectSendsEmail();
  }

  protected async handle(events: AlertEvent.AlertEventValue[]): Promise<void> {
    await this.emails.record(events);
  }
}
