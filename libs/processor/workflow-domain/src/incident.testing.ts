import { StoredAlert } from '@alert-ingestion/alerts-domain';
import { storedAlertFixture } from '@alert-ingestion/alerts-domain/testing';
import { StoredIncident } from './incident';

/** The times the incident specs are set at: `earlier` for what is stored, `now` for the change. */
export const now = new Date('2026-11-27T10:00:00Z');
export const earlier = new Date('2026-11-27T09:00:00Z');

/** A stored alert of project 1 for the incident specs; `overrides` say what the spec is about. */
export function incidentAlert(overrides: Partial<StoredAlert> = {}): StoredAlert {
  return storedAlertFixture({
    description: 'db-1 has no space left',
    severity: 'high',
    service: 'db',
    monitoring_tool: 'Prometheus',
    hosts: ['db-1', 'db-2'],
    payload: { title: 'Disk full', labels: { team: 'storage' } },
    started_at: earlier,
    created_at: earlier,
    updated_at: earlier,
    ...overrides,
  });
}

/** A stored open incident (id 30, iid 3) of project 1 opened by user 12, linked to alert #7. */
export function storedIncidentFixture(overrides: Partial<StoredIncident> = {}): StoredIncident {
  return {
    id: '30',
    project_id: '1',
    iid: 3,
    title: 'Storage outage',
    description: null,
    severity: 'critical',
    status: 'open',
    created_by_user_id: '12',
    created_by_alert_id: null,
    created_by_alert_iid: null,
    owner: null,
    alert_iids: [7],
    closed_at: null,
    created_at: earlier,
    updated_at: earlier,
    ...overrides,
  };
}
