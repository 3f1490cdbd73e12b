/**
 * The alert workflow a benchmark's project can run with every alert setting on (BENCH_ALERT_SETTINGS=on
 * in bench:compare): an incident for each new alert, emails to the project's owner about new and
 * resolved alerts (through a real SMTP server in the bench's process, TestSmtpServer), and incidents
 * closed by recovery payloads. What the workflow did is read from the database at the end.
 */
import { withClient } from '@alert-ingestion/database';
import { waitForCount } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { Stack } from './pipeline-stack';

/**
 * Gives the project an owner with an email address (a new user) and turns on its three alert
 * settings, as a maintainer does (PUT /projects/:id/alert_settings). The settings act on the alert
 * events that follow them: the round's warm-up comes after.
 */
export async function enableAlertWorkflow(stack: Stack, projectId: number): Promise<void> {
  const name = `bench-owner-${randomBytes(4).toString('hex')}`;
  const owner = await stack.client.management<{ id: number }>('POST', '/users', { username: name, email: `${name}@example.com` });
  await stack.client.management('POST', `/projects/${projectId}/members`, { user_id: owner.id, access_level: 'owner' });
  const settings = await stack.client.management<{ create_incident: boolean; send_email: boolean; auto_close_incident: boolean; email_configured: boolean }>(
    'PUT',
    `/projects/${projectId}/alert_settings`,
    { create_incident: true, send_email: true, auto_close_incident: true },
  );
  if (!settings.create_incident || !settings.send_email || !settings.auto_close_incident || !settings.email_configured) {
    throw new Error(`project ${projectId}: alert settings not all on: ${JSON.stringify(settings)}`);
  }
}

export interface AlertWorkflowCounts {
  alerts: number;
  incidents: number;
  /** Alert email rows by status (pending, sent, failed, suppressed). */
  notifications: Map<string, number>;
}

/** The projects' alerts, incidents and alert emails by status, from the database. */
export async function alertWorkflowCounts(stack: Stack, projectIds: number[]): Promise<AlertWorkflowCounts> {
  if (!stack.databaseUrl) throw new Error('counting the alert workflow needs the database (DATABASE_URL)');
  return withClient(stack.databaseUrl, async (client) => {
    const alerts = await client.query<{ count: string }>('SELECT count(*) AS count FROM alerts WHERE project_id = ANY($1)', [projectIds]);
    const incidents = await client.query<{ count: string }>('SELECT count(*) AS count FROM incidents WHERE project_id = ANY($1)', [projectIds]);
    const notifications = await client.query<{ status: string; count: string }>(
      'SELECT status, count(*) AS count FROM alert_notifications WHERE project_id = ANY($1) GROUP BY status ORDER BY status',
      [projectIds],
    );
    return {
      alerts: Number(alerts.rows[0].count),
      incidents: Number(incidents.rows[0].count),
      notifications: new Map(notifications.rows.map((row) => [row.status, Number(row.count)])),
    };
  });
}

/**
 * Waits (up to `timeoutMs` each) until every stored alert of the projects has its incident (each
 * benchmark alert is new and triggered) and its email row to the owner is settled (not pending),
 * then returns the counts.
 */
export async function settledAlertWorkflow(stack: Stack, projectIds: number[], timeoutMs: number): Promise<AlertWorkflowCounts> {
  const { alerts } = await alertWorkflowCounts(stack, projectIds);
  await waitForCount(async () => (await alertWorkflowCounts(stack, projectIds)).incidents, alerts, timeoutMs, 1_000);
  // One email row per new alert for the one owner, each ends sent, failed or suppressed (the hourly cap).
  await waitForCount(
    async () => [...(await alertWorkflowCounts(stack, projectIds)).notifications].filter(([status]) => status !== 'pending').reduce((sum, [, count]) => sum + count, 0),
    alerts,
    timeoutMs,
    1_000,
  );
  return alertWorkflowCounts(stack, projectIds);
}
