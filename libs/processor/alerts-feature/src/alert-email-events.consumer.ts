import { AlertNotificationsRepository } from '@alert-ingestion/alerts-data';
import { AlertEvent, Topic } from '@alert-ingestion/contracts';
import { ConsumedChunk, ConsumerGroup, KAFKA_CLIENT, KafkaNames, OnDemandConsumer } from '@alert-ingestion/kafka';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AlertEmailsService } from './alert-emails.service';
import { alertWorkflowConsumer, AlertWorkflowConsumerService } from './alert-workflow-consumer';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { ProcessorMetrics } from './processor-metrics';
import { runsRole } from './processor-roles';

/**
 * alerts.events.v1 in the group `alert-processor-notifications`: new and resolved alerts become
 * pending alert emails (AlertEmailsService.record), apart from intake, so an SMTP outage never
 * holds a payload back. Recording is idempotent per (event, recipient), so a redelivered chunk
 * mails nobody twice; a database that does not answer is waited for (the partition holds, nothing
 * is lost). Only in instances of the workflow role with SMTP_URL set, and only while some project
 * sends email (alertWorkflowConsumer): an event skipped while none does would have mailed nobody.
 */
@Injectable()
export class AlertEmailEventsConsumer extends AlertWorkflowConsumerService {
  private readonly logger = new Logger('AlertEmailEvents');
  readonly consumerName = 'alert_email_events';
  protected readonly consumer?: OnDemandConsumer<Topic.AlertEvents>;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    names: KafkaNames,
    notifications: AlertNotificationsRepository,
    private readonly emails: AlertEmailsService,
    metrics: ProcessorMetrics,
    @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions,
  ) {
    super();
    if (!options.email || !runsRole(options.roles, 'workflow')) return;
    this.consumer = alertWorkflowConsumer(kafka, names, {
      consumer: this.consumerName,
      metrics,
      groupId: names.group(ConsumerGroup.AlertProcessorNotifications),
      logger: this.logger,
      wanted: () => notifications.anyProjectSendsEmail(),
      handle: (events, chunk) => this.record(events, chunk),
    });
  }

  private async record(events: AlertEvent.AlertEventValue[], chunk: ConsumedChunk<Topic.AlertEvents>): Promise<void> {
    for (let attempt = 1; chunk.isRunning(); attempt++) {
      try {
        await this.emails.record(events);
        return;
      } catch (error) {
        if (attempt === 1) this.logger.warn(`Recording alert emails of ${events.length} events failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(Math.min(5_000, 200 * attempt));
        await chunk.heartbeat();
      }
    }
  }
}
