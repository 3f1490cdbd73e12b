import { UpdateAlertSettingsDto } from '@alert-ingestion/alerts-api';
import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { answered } from '@alert-ingestion/alerts-feature';
import { AlertSettingsView } from '@alert-ingestion/contracts';
import { AlertSettingsRepository } from '@alert-ingestion/workflow-data';
import { DEFAULT_ALERT_SETTINGS, planAlertSettingsUpdate, StoredAlertSettings } from '@alert-ingestion/workflow-domain';
import { Inject, Injectable } from '@nestjs/common';
import { WORKFLOW_OPTIONS, WorkflowOptions } from './workflow.options';

/**
 * A project's alert settings (docs/api-guide.md "Alert settings"): GitLab's three switches, read by
 * developers and set by maintainers, each change a plan (planAlertSettingsUpdate) run by runCommand.
 */
@Injectable()
export class AlertSettingsService {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly repository: AlertSettingsRepository,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
  ) {}

  async find(projectId: string): Promise<AlertSettingsView> {
    return this.view(await this.repository.find(projectId));
  }

  async update(projectId: string, body: UpdateAlertSettingsDto): Promise<AlertSettingsView> {
    const { create_incident, send_email, auto_close_incident } = body;
    const now = new Date();
    const result = await runCommand(this.database, {
      read: (transaction) => this.repository.lockForChange(transaction, projectId),
      plan: (stored) => planAlertSettingsUpdate(stored, { create_incident, send_email, auto_close_incident }, now),
      write: (transaction, settings, stored) => this.repository.write(transaction, projectId, settings, stored),
    });
    return this.view(answered(result));
  }

  private view(settings: StoredAlertSettings = DEFAULT_ALERT_SETTINGS): AlertSettingsView {
    const { create_incident, send_email, auto_close_incident } = settings;
    return { create_incident, send_email, auto_close_incident, email_configured: this.options.email !== undefined };
  }
}
