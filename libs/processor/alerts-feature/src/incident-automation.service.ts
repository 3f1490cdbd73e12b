import { planIncidentAutomation } from '@alert-ingestion/alerts-domain';
import { IncidentsRepository } from '@alert-ingestion/alerts-data';
import { AlertEvent, Topic } from '@alert-ingestion/contracts';
import { BatchConsumer, ConsumedChunk, ConsumerGroup, KAFKA_CLIENT, KafkaNames } from '@alert-ingestion/kafka';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { ALERT_WORKFLOW_FETCH } from './alert-workflow-fetch';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { runsRole } from './processor-roles';

/**
 * The alert settings' incident automation (docs/api-guide.md "Alert settings"): reads
 * alerts.events.v1 in a group of its own and, per chunk of events, does what the pure
 * planIncidentAutomation decides: open an incident for each new triggered alert (create_incident),
 * all of the chunk's in one transaction, then close the incident of each alert a recovery payload
 * resolved (auto_close_incident). Both are idempotent, so a redelivered event (or one raw alert
 * delivered twice, which makes one alert.created) opens one incident: an alert that has an incident
 * gets no other, and a closed incident stays closed. Off the receive path: intake never waits for
 * it. A failure restarts the consumer from its committed offset. Runs in instances of the workflow
 * role (PROCESSOR_ROLES).
 */
@Injectable()
export class IncidentAutomationService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('IncidentAutomation');
  /** Only instances of the workflow role run it (PROCESSOR_ROLES); the others have none. */
  private readonly consumer?: BatchConsumer<Topic.AlertEvents>;

  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    names: KafkaNames,
    private readonly incidents: IncidentsRepository,
    @Inject(ALERTS_FEATURE_OPTIONS) options: AlertsFeatureOptions,
  ) {
    if (!runsRole(options.roles, 'workflow')) return;
    this.consumer = new BatchConsumer<Topic.AlertEvents>(kafka, {
      name: 'incident automation',
      topic: Topic.AlertEvents,
      names,
      groupId: names.group(ConsumerGroup.IncidentAutomation),
      // A setting applies only to events after it was changed (incidentAutomation), so reading from
      // the beginning replays nothing and misses nothing of a new group.
      fromBeginning: true,
      readyWhen: 'run',
      commitIntervalMs: 1_000,
      config: { ...ALERT_WORKFLOW_FETCH.config, sessionTimeout: 10_000, heartbeatInterval: 1_000 },
      maxChunkMessages: ALERT_WORKFLOW_FETCH.maxChunkMessages,
      logger: this.logger,
      handle: (chunk) => this.handle(chunk),
    });
  }

  get healthy(): boolean {
    return this.consumer?.healthy ?? true;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.consumer?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
  }

  private async handle(chunk: ConsumedChunk<Topic.AlertEvents>): Promise<void> {
    const events: AlertEvent.AlertEventValue[] = [];
    for (const message of chunk.messages) {
      try {
        events.push(chunk.decode(message));
      } catch (error) {
        // The relay publishes only what the processor wrote; a record that is no alert event is none of ours.
        this.logger.warn(`Skipped ${chunk.topic}/${chunk.partition}@${message.offset}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (events.length === 0) return;
    const settings = await this.incidents.automationSettingsOf(events.map((event) => String(event.project_id)));
    const plan = planIncidentAutomation(events, settings);
    const now = new Date();
    await this.incidents.openIncidentsFromAlerts(plan.create, now);
    for (const { projectId, alertIid } of plan.close) {
      await this.incidents.closeIncidentOf(projectId, alertIid, { actor: { type: 'service', source: 'payload' }, now });
    }
  }
}
