import { StoredAlert } from './stored-alert';

const EARLIER = new Date('2026-11-27T09:00:00.000Z');

/** A stored, triggered alert with no optional field set, for plan specs; `overrides` say what the spec is about. */
export function storedAlertFixture(overrides: Partial<StoredAlert> = {}): StoredAlert {
  return {
    id: '500',
    project_id: '1',
    iid: 7,
    integration_id: '9',
    title: 'Disk full',
    description: null,
    severity: 'critical',
    status: 'triggered',
    events: 1,
    started_at: EARLIER,
    ended_at: null,
    service: null,
    monitoring_tool: null,
    hosts: null,
    platform_environment_name: null,
    fingerprint: null,
    fingerprint_sha256: null,
    payload: {},
    silenced_by: null,
    incident_id: null,
    incident_iid: null,
    assignees: [],
    first_grouped_at: null,
    last_grouped_at: null,
    created_at: EARLIER,
    updated_at: EARLIER,
    ...overrides,
  };
}
