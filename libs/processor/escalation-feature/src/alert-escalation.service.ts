import { AlertsQueryService } from '@alert-ingestion/alerts-feature';
import { AlertEscalationView } from '@alert-ingestion/contracts';
import { EscalationPoliciesRepository, EscalationsRepository } from '@alert-ingestion/escalation-data';
import { alertEscalationView } from '@alert-ingestion/escalation-domain';
import { Injectable } from '@nestjs/common';

/** An alert's escalation as its page shows it (docs/api-guide.md "An alert's escalation"). */
@Injectable()
export class AlertEscalationService {
  constructor(
    private readonly alerts: AlertsQueryService,
    private readonly escalations: EscalationsRepository,
    private readonly policies: EscalationPoliciesRepository,
  ) {}

  /** Where the alert's escalation stands (404 for an alert that does not exist). */
  async view(projectId: string, iidText: string): Promise<AlertEscalationView> {
    const alert = await this.alerts.stored(projectId, iidText);
    const [read, schedules] = await Promise.all([this.escalations.alertEscalation(projectId, alert.iid), this.policies.schedules(projectId)]);
    return alertEscalationView(read?.escalation, read?.pages ?? [], (id) => schedules.has(id));
  }
}
