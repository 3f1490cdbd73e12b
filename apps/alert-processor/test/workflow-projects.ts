import { ActivityEntryView, AlertNotificationView } from '@alert-ingestion/contracts';
import { AlertSettingsSwitches, ServiceStack, setAlertSettings, StackProject } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';

export interface StackUser {
  id: number;
  email: string | null;
}

/**
 * Projects with members and alert settings on a ServiceStack, for the alert workflow's specs: made
 * through the management API as a team would, and read back through the alerts API.
 */
export class WorkflowProjects {
  constructor(private readonly stack: () => ServiceStack) {}

  /** A user through the management API, with an email address unless `email` is null. */
  async user(name: string, email: string | null = `${name}-${randomBytes(4).toString('hex')}@example.com`): Promise<StackUser> {
    const created = await this.stack().management<{ id: number; email: string | null }>('POST', '/users', { username: `${name}-${randomBytes(4).toString('hex')}`, ...(email ? { email } : {}) });
    return { id: created.id, email: created.email };
  }

  /** A Premium project with members of the given roles (each a new user) and these alert settings. */
  async project(members: Array<{ role: string; email?: null }>, settings: AlertSettingsSwitches): Promise<{ project: StackProject; users: StackUser[] }> {
    const stack = this.stack();
    const created = await stack.createProject('premium', { pathPrefix: 'workflow' });
    const users = [];
    for (const member of members) {
      const made = await this.user(member.role, member.email === null ? null : undefined);
      await stack.management('POST', `/projects/${created.id}/members`, { user_id: made.id, access_level: member.role });
      users.push(made);
    }
    await setAlertSettings(stack, created.id, settings);
    return { project: created, users };
  }

  /** POSTs a payload to the project's integration URL, as a monitoring tool does. */
  async send(target: StackProject, body: unknown): Promise<{ status: number; body: Array<{ iid: number; title: string }> }> {
    const response = await fetch(target.integration.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.integration.authorization_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Array<{ iid: number; title: string }> };
  }

  notifications(projectId: number, query = ''): Promise<AlertNotificationView[]> {
    return this.stack().processorApi<AlertNotificationView[]>('GET', `/projects/${projectId}/alert_notifications?per_page=100${query}`);
  }

  /** The timeline entries of an alert (`alerts`) or an incident (`incidents`) whose kind starts with `kindPrefix`, oldest first. */
  async timeline(projectId: number, of: 'alerts' | 'incidents', iid: number, kindPrefix = ''): Promise<ActivityEntryView[]> {
    const entries = await this.stack().processorApi<ActivityEntryView[]>('GET', `/projects/${projectId}/${of}/${iid}/activity?per_page=100`);
    return entries.filter((entry) => entry.kind.startsWith(kindPrefix));
  }
}
