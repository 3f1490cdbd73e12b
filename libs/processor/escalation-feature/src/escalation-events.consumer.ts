import { AccessReader } from '@alert-ingestion/access';
import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { AlertEvent } from '@alert-ingestion/contracts';
import { EscalationPoliciesRepository, EscalationsRepository } from '@alert-ingestion/escalation-data';
import { escalationMayAct, planEscalationEvents } from '@alert-ingestion/escalation-domain';
import { ConsumerGroup } from '@alert-ingestion/kafka';
import { alertEventId } from '@alert-ingestion/workflow-domain';
import { AlertWorkflowConsumers, AlertWorkflowConsumerService, AlertWorkflowHealthProbe } from '@alert-ingestion/workflow-feature';
import { Inject, Injectable } from '@nestjs/common';
import { ESCALATION_OPTIONS, EscalationOptions } from './escalation.options';

/**
 * alerts.events.v1 in the group `alert-processor-escalations`, the alert workflow's third consumer:
 * per chunk, one command (planEscalationEvents) starts the escalation of each new triggered alert
 * of a project with a policy, stops the "not acknowledged" rules of an acknowledged alert, ends the
 * run of a resolved or ignored one (with notices to those paged who asked for them), and starts over
 * when an alert is triggered again. Idempotent: an event starts a run once and a stop changes
 * nothing twice. Reads only while some project has a policy or a run goes on; in instances of the
 * workflow role.
 */
@Injectable()
export class EscalationEventsConsumer extends AlertWorkflowConsumerService {
  constructor(
    consumers: AlertWorkflowConsumers,
    private readonly database: AlertsDatabase,
    private readonly escalations: EscalationsRepository,
    private readonly policies: EscalationPoliciesRepository,
    private readonly access: AccessReader,
    @Inject(ESCALATION_OPTIONS) private readonly options: EscalationOptions,
  ) {
    super(consumers, { name: 'escalation_events', group: ConsumerGroup.AlertProcessorEscalations });
  }

  protected wanted(): Promise<boolean> {
    return this.policies.anyPolicy();
  }

  protected async handle(events: AlertEvent.AlertEventValue[]): Promise<void> {
    const acted = events.filter(escalationMayAct);
    if (acted.length === 0) return;
    const alerts = [...new Map(acted.map((event) => [`${event.project_id}:${event.alert.iid}`, { projectId: String(event.project_id), iid: event.alert.iid }])).values()];
    const actors = acted.flatMap((event) => (event.cause?.type === 'user' && event.cause.user_id != null ? [String(event.cause.user_id)] : []));
    const usernames = await this.access.usernames(actors);
    await runCommand(this.database, {
      read: (transaction) => this.escalations.eventState(transaction, alerts, acted.map(alertEventId), usernames),
      plan: (state) => planEscalationEvents(acted, state, this.options.clock, new Date()),
      write: (_, changes) => ({ answer: undefined, atCommit: this.escalations.eventStatements(changes) }),
    });
  }
}

/** `/healthz` of an instance of the workflow role: the escalation consumer still follows alerts.events.v1 (or has nothing to follow). */
@Injectable()
export class EscalationEventsHealthProbe extends AlertWorkflowHealthProbe {
  constructor(consumer: EscalationEventsConsumer) {
    super(consumer);
  }
}
