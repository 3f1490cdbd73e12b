import { AlertsDatabase, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import { StoredAlertSettings } from '@alert-ingestion/workflow-domain';

const SETTINGS_COLUMNS = 'create_incident, send_email, auto_close_incident, updated_at';

/**
 * A project's alert settings (`project_alert_settings`, the processor owns it; no row: every
 * switch off): read, locked for a change (planAlertSettingsUpdate) and written, and the questions
 * the workflow's consumers ask of them.
 */
export class AlertSettingsRepository {
  constructor(private readonly database: AlertsDatabase) {}

  async find(projectId: string): Promise<StoredAlertSettings | undefined> {
    const result = await this.database.pool.query<StoredAlertSettings>(`SELECT ${SETTINGS_COLUMNS} FROM project_alert_settings WHERE project_id = $1`, [projectId]);
    return result.rows[0];
  }

  /** The project's settings, locked for a change; none stored: undefined. */
  async lockForChange(transaction: ScriptedTransaction, projectId: string): Promise<StoredAlertSettings | undefined> {
    const result = await transaction.query<StoredAlertSettings>(`SELECT ${SETTINGS_COLUMNS} FROM project_alert_settings WHERE project_id = $1 FOR UPDATE`, [projectId]);
    return result.rows[0];
  }

  /** Writes the project's settings (none: nothing changed) and answers them as stored now. */
  async write(transaction: ScriptedTransaction, projectId: string, settings: StoredAlertSettings | null, stored: StoredAlertSettings | undefined): Promise<{ answer: StoredAlertSettings | undefined }> {
    if (!settings) return { answer: stored };
    const written = await transaction.query<StoredAlertSettings>(
      `INSERT INTO project_alert_settings (project_id, create_incident, send_email, auto_close_incident, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_id) DO UPDATE SET create_incident = EXCLUDED.create_incident, send_email = EXCLUDED.send_email,
         auto_close_incident = EXCLUDED.auto_close_incident, updated_at = EXCLUDED.updated_at
       RETURNING ${SETTINGS_COLUMNS}`,
      [projectId, settings.create_incident, settings.send_email, settings.auto_close_incident, settings.updated_at],
    );
    return { answer: written.rows[0] };
  }

  /** Whether any project opens or closes incidents with its alerts (create_incident or auto_close_incident on). */
  async anyProjectAutomates(): Promise<boolean> {
    return this.exists('create_incident OR auto_close_incident');
  }

  /** Whether any project's alert settings send email. */
  async anyProjectSendsEmail(): Promise<boolean> {
    return this.exists('send_email');
  }

  /** The projects among `projectIds` whose alert settings send email. */
  async emailProjects(projectIds: readonly string[]): Promise<Set<string>> {
    if (projectIds.length === 0) return new Set();
    const { rows } = await this.database.pool.query<{ project_id: string }>(
      'SELECT project_id::text AS project_id FROM project_alert_settings WHERE send_email AND project_id = ANY($1::bigint[])',
      [[...new Set(projectIds)]],
    );
    return new Set(rows.map((row) => row.project_id));
  }

  private async exists(condition: string): Promise<boolean> {
    const { rows } = await this.database.pool.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM project_alert_settings WHERE ${condition}) AS any`);
    return rows[0].any;
  }
}
