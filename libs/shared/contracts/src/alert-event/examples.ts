import { AlertView } from '../alert';
import { TopicExample } from '../topics/topic-example';
import { AlertEventValue } from './value';

const firing: AlertView = {
  iid: 12,
  title: 'Disk full',
  description: 'Less than 5% free on /var',
  severity: 'high',
  status: 'triggered',
  events: 1,
  started_at: '2026-11-22T09:30:00.000Z',
  ended_at: null,
  service: 'postgres',
  monitoring_tool: 'Prometheus',
  hosts: ['db-1'],
  platform_environment_name: null,
  fingerprint: '6a1ef0b2c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6',
  integration_id: 3,
  payload: { title: 'Disk full', severity: 'high', hosts: ['db-1'], labels: { team: 'storage' } },
  silenced_by: null,
  assignees: [],
  incident_iid: null,
  created_at: '2026-11-22T09:30:00.412Z',
  updated_at: '2026-11-22T09:30:00.412Z',
};

const event = (name: string, summary: string, value: AlertEventValue): TopicExample<AlertEventValue> => ({ name, summary, key: `${value.project_id}:${value.alert.iid}`, value });

/** One alert event of each type, as alerts.events.v1 carries them. */
export const ALERT_EVENT_EXAMPLES: ReadonlyArray<TopicExample<AlertEventValue>> = [
  event('alert.created', 'A payload created an alert.', {
    type: 'alert.created',
    occurred_at: firing.created_at,
    project_id: 2,
    alert: firing,
    cause: { type: 'payload', integration_id: 3 },
  }),
  event('alert.grouped', 'A payload with the same fingerprint counted as an event of the open alert.', {
    type: 'alert.grouped',
    occurred_at: '2026-11-22T09:35:00.118Z',
    project_id: 2,
    alert: { ...firing, events: 2, updated_at: '2026-11-22T09:35:00.118Z' },
    cause: { type: 'payload', integration_id: 3 },
  }),
  event('alert.status_changed', 'A developer acknowledged the alert (which assigned it to them).', {
    type: 'alert.status_changed',
    occurred_at: '2026-11-22T09:36:10.004Z',
    project_id: 2,
    alert: { ...firing, events: 2, status: 'acknowledged', assignees: [{ id: 7, username: 'maria' }], updated_at: '2026-11-22T09:36:10.004Z' },
    cause: { type: 'user', user_id: 7 },
  }),
  event('alert.assigned', 'The alert was assigned to two members.', {
    type: 'alert.assigned',
    occurred_at: '2026-11-22T09:37:00.250Z',
    project_id: 2,
    alert: {
      ...firing,
      events: 2,
      status: 'acknowledged',
      assignees: [
        { id: 7, username: 'maria' },
        { id: 9, username: 'li' },
      ],
      updated_at: '2026-11-22T09:37:00.250Z',
    },
    cause: { type: 'user', user_id: 7 },
  }),
  event('alert.resolved', 'A recovery payload resolved the alert; its payload was too large for the topic and left out.', {
    type: 'alert.resolved',
    occurred_at: '2026-11-22T10:02:00.730Z',
    project_id: 2,
    alert: (({ payload: _payload, ...alert }) => ({
      ...alert,
      events: 2,
      status: 'resolved' as const,
      ended_at: '2026-11-22T10:01:58.000Z',
      updated_at: '2026-11-22T10:02:00.730Z',
      payload_truncated: true as const,
    }))(firing),
    cause: { type: 'payload', integration_id: 3 },
  }),
];
