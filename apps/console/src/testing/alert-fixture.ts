import { Alert } from '@console/api/types';

/** An alert as the API answers it, for component tests; `fields` change what the test is about. */
export function alertFixture(fields: Partial<Alert> = {}): Alert {
  return {
    iid: 2,
    title: 'Disk full',
    description: null,
    severity: 'high',
    status: 'triggered',
    events: 1,
    started_at: '2024-05-01T10:00:00.000Z',
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
    created_at: '2024-05-01T10:00:00.000Z',
    updated_at: '2024-05-01T10:00:00.000Z',
    ...fields,
  };
}
