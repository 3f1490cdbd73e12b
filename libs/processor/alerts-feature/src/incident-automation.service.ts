import { planIncidentAutomation } from '@alert-ingestion/alerts-domain';
import { IncidentsRepository } from '@alert-ingestion/alerts-data';
import { AlertEvent, Topic } from '@alert-ingestion/contracts';
import { ConsumerGroup, KAFKA_CLIENT, KafkaNames, OnDemandConsumer } from '@alert-ingestion/kafka';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { alertWorkflowConsumer, AlertWorkflowConsumerService } from './alert-workflow-consumer';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { ProcessorMetrics } from './processor-metrics';
import { runsRole } from './processor-roles';

/**
 * The alert settings' incident automation (docs/api-guide.md "Alert settings"): reads
 * alerts.events.v1 in a group of its own and, per chunk of events, does what the pure
 * planIncidentAutomation decides: open an incident for each new triggered alert (create_incident),
 * all of the chunk's in one transaction, then close the incident of each alert a recovery payload
 * resolved (auto_close_incident). Both are idempotent, so a redelivered event (or one raw alert
 * delivered twice, which makes one alert.created) opens one incident: an alert that has an incident
 * gets no other, and a closed incident stays closed. Off the receive path: intake never waits for
 * it, and while no project has create_incident or auto_close_incident on it reads nothing
 * (alertWorkflowConsumer). A failure restarts the consumer from its committed offset. Runs in
 * instances of the workflow role (PROCESSOR_ROLES).
 */
@Injectable()
export class IncidentAutomationService extends AlertWorkflowConsumerService {
  private readonly logger = new Logger('IncidentAutomation');
  /** Only instances of the workflow role run it (PROCESSOR_ROLES); the others have none. */
  readonly consumerName = 'incident_automation';
  protected readonly consumer?: OnDemandConsumer<Topic.AlertEvents>;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    names: KafkaNames,
    private readonly incidents: IncidentsRepository,
    metrics: ProcessorMetrics,
    @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions,
  ) {
    super();
    if (!runsRole(options.roles, 'workflow')) return;
    this.consumer = alertWorkflowConsumer(kafka, names, {
      consumer: this.consumerName,
      metrics,
      // A setting applies only to events after it was changed (planIncidentAutomation), so reading
      // from the beginning replays nothing, and skipping events while no project automates skips
      // nothing that would have opened or closed an incident.
      groupId: names.group(ConsumerGroup.IncidentAutomation),
      logger: this.logger,
      wanted: () => this.incidents.anyProjectAutomates(),
      handle: (events) => this.handle(events),
    });
  }

  private async handle(events: AlertEvent.AlertEventValue[]): Promise<void> {
    const settings = await this.incidents.automationSettingsOf(events.map((event) => String(event.project_id)));
    const plan = planIncidentAutomation(events, settings);
    const now = new Date();
    await this.incidents.openIncidentsFromAlerts(plan.create, now);
    for (const { projectId, alertIid } of plan.close) {
      await this.incidents.closeIncidentOf(projectId, alertIid, { actor: { type: 'service', source: 'payload' }, now });
    }
  }
}
