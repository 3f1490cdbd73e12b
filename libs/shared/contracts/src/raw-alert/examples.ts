import { TopicExample } from '../topics/topic-example';
import { RawAlertValue } from './value';

/** A raw alert, as the gateway publishes it to alerts.raw.v1. */
export const RAW_ALERT_EXAMPLES: ReadonlyArray<TopicExample<RawAlertValue>> = [
  {
    name: 'raw-alert',
    summary: 'A request to an integration URL, with a gateway instance waiting for the reply.',
    key: '3',
    value: {
      request_id: '0b6f1f3e-5a43-4f7e-9a55-0f3c2f5d8e11',
      integration_id: '3',
      project_id: '2',
      received_at: '2026-11-22T09:30:00.395Z',
      reply_to: 'gateway-7f9c',
      reply_endpoint: { url: 'http://10.1.2.3:8090/replies', token: 'b2c7f0d1e4a94c55a8e3f6d2c1b0a9f8' },
      x_request_id: 'req-7d1a',
      authorization_key: 'current',
      payload: { title: 'Disk full', severity: 'high', hosts: ['db-1'] },
    },
  },
];
