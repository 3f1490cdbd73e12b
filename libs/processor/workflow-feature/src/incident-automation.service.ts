import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { AlertEvent } from '@alert-ingestion/contracts';
import { ConsumerGroup } from '@alert-ingestion/kafka';
import { AlertSettingsRepository, incidentChangeStatements, IncidentsRepository } from '@alert-ingestion/workflow-data';
import { automationMayAct, planIncidentAutomation } from '@alert-ingestion/workflow-domain';
import { Injectable } from '@nestjs/common';
import { AlertWorkflowConsumers, AlertWorkflowConsumerService } from './alert-workflow-consumer';

/**
 * The alert settings' incident automation (docs/api-guide.md "Alert settings"): reads
 * alerts.events.v1 in a group of its own and, per chunk of events, runs planIncidentAutomation as
 * one command (one transaction): the incidents of new triggered alerts (create_incident), and the
 * incidents whose last open alert a recovery payload resolved closed (auto_close_incident). It is
 * idempotent, so a redelivered event (or one raw alert delivered twice, which makes one
 * alert.created) opens one incident: an alert that has an incident gets no other, and a closed
 * incident stays closed. Off the receive path: intake never waits for it, and while no project has
 * create_incident or auto_close_incident on it reads nothing. A setting applies only to events after
 * it was changed, so reading from the beginning replays nothing. Runs in instances of the workflow
 * role (PROCESSOR_ROLES).
 */
@Injectable()
export class IncidentAutomationService extends AlertWorkflowConsumerService {
  constructor(
    consumers: AlertWorkflowConsumers,
    private readonly database: AlertsDatabase,
    private readonly incidents: IncidentsRepository,
    private readonly settings: AlertSettingsRepository,
  ) {
    super(consumers, { name: 'incident_automation', group: ConsumerGroup.IncidentAutomation });
  }

  protected wanted(): Promise<boolean> {
    return this.settings.anyProjectAutomates();
  }

  protected async handle(events: AlertEvent.AlertEventValue[]): Promise<void> {
    const acted = events.filter(automationMayAct);
    if (acted.length === 0) return;
    const refs = acted.map((event) => ({ projectId: String(event.project_id), alertIid: event.alert.iid }));
    const now = new Date();
    await runCommand(this.database, {
      read: (transaction) => this.incidents.automationState(transaction, refs),
      plan: (state) => planIncidentAutomation(state, acted, now),
      write: (_, changes) => ({ answer: undefined, atCommit: incidentChangeStatements(changes) }),
    });
  }
}
