import { IncidentView } from '../alert';
import { TopicExample } from '../topics/topic-example';
import { IncidentEventValue } from './value';

const opened: IncidentView = {
  iid: 4,
  title: 'Disk full',
  description: null,
  severity: 'high',
  status: 'open',
  created_by: { type: 'alert', alert_iid: 12 },
  owner: null,
  alert_iids: [12],
  created_at: '2026-11-22T09:30:01.020Z',
  updated_at: '2026-11-22T09:30:01.020Z',
  closed_at: null,
};

const event = (value: IncidentEventValue, summary: string): TopicExample<IncidentEventValue> => ({ name: value.type, summary, key: `${value.project_id}:${value.incident.iid}`, value });

/** One incident event of each type, as incidents.events.v1 carries them. */
export const INCIDENT_EVENT_EXAMPLES: ReadonlyArray<TopicExample<IncidentEventValue>> = [
  event({ type: 'incident.created', occurred_at: opened.created_at, project_id: 2, incident: opened }, 'The create_incident setting opened an incident for a new alert.'),
  event(
    {
      type: 'incident.closed',
      occurred_at: '2026-11-22T10:15:00.000Z',
      project_id: 2,
      incident: { ...opened, status: 'closed', owner: { id: 7, username: 'maria' }, updated_at: '2026-11-22T10:15:00.000Z', closed_at: '2026-11-22T10:15:00.000Z' },
    },
    'Its owner closed it (which resolved its alerts).',
  ),
  event(
    {
      type: 'incident.reopened',
      occurred_at: '2026-11-22T11:00:00.000Z',
      project_id: 2,
      incident: { ...opened, created_by: { type: 'user', id: 7, username: 'maria' }, owner: { id: 7, username: 'maria' }, updated_at: '2026-11-22T11:00:00.000Z' },
    },
    'It was opened again.',
  ),
];
