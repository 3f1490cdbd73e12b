import { Client } from 'pg';

/**
 * Turns on a project's "send email" alert setting for a spec. The one place specs do it: by SQL on
 * project_alert_settings (the processor's table) until the alert settings API (PUT
 * /projects/:id/alert_settings) is there, then through it.
 */
export async function enableAlertEmails(databaseUrl: string, projectId: number | string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO project_alert_settings (project_id, send_email) VALUES ($1, true)
       ON CONFLICT (project_id) DO UPDATE SET send_email = true, updated_at = now()`,
      [String(projectId)],
    );
  } finally {
    await client.end();
  }
}
