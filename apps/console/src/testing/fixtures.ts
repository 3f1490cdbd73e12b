import { Alert } from '../api/types';

/** An alert of the alerts API as a test starts from: triggered, just created, nothing optional set. */
export function alertFixture(iid: number, changes: Partial<Alert> = {}): Alert {
  const now = new Date().toISOString();
  return {
    iid,
    title: `Alert ${iid}`,
    description: null,
    severity: 'high',
    status: 'triggered',
    events: 1,
    started_at: now,
    ended_at: null,
    service: null,
    monitoring_tool: null,
    hosts: [],
    platform_environment_name: null,
    fingerprint: null,
    integration_id: 1,
    payload: {},
    silenced_by: null,
    assignees: [],
    incident_iid: null,
    created_at: now,
    updated_at: now,
    ...changes,
  };
}
