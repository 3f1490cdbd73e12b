import type { StackClient } from './service-stack';

/** A service serving the alerts API under `/api/v4` (the processor itself, or integration-config, which forwards it) and its administrator token. */
export interface AlertsApiService {
  baseUrl: string;
  adminToken: string;
}

/** The alert settings' switches a spec may set. */
export interface AlertSettingsSwitches {
  create_incident?: boolean;
  send_email?: boolean;
  auto_close_incident?: boolean;
}

/**
 * Sets a project's alert settings for a spec, as a maintainer does: PUT /projects/:id/alert_settings
 * with the administrator token, through a stack's integration-config or straight to a processor.
 * The one place specs do it.
 */
export async function setAlertSettings(service: StackClient | AlertsApiService, projectId: number | string, switches: AlertSettingsSwitches): Promise<void> {
  const { baseUrl, adminToken } = 'urls' in service ? { baseUrl: service.urls.integrationConfig, adminToken: service.adminToken } : service;
  const response = await fetch(`${baseUrl}/api/v4/projects/${projectId}/alert_settings`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(switches),
  });
  if (!response.ok) throw new Error(`PUT alert_settings of project ${projectId} -> ${response.status} ${await response.text()}`);
}

/** Turns on a project's "send email" alert setting (setAlertSettings). */
export function enableAlertEmails(service: StackClient | AlertsApiService, projectId: number | string): Promise<void> {
  return setAlertSettings(service, projectId, { send_email: true });
}
