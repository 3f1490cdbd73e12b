import { TopicExample } from '../topics/topic-example';
import { DeliveryRecordValue } from './value';

/** A delivery record, as the gateway publishes it to alerts.deliveries.v1. */
export const DELIVERY_RECORD_EXAMPLES: ReadonlyArray<TopicExample<DeliveryRecordValue>> = [
  {
    name: 'unauthorized',
    summary: 'A request with a wrong authorization key, refused with 401.',
    key: '3',
    value: {
      delivery_id: '5c0e9b7a-2d14-4a8e-b3f1-7e6d5c4b3a29',
      request_id: 'req-91ff',
      integration_id: '3',
      project_id: '2',
      received_at: '2026-11-22T09:31:12.008Z',
      status: 401,
      error: 'unauthorized',
      body: '',
      body_size: 48,
      body_truncated: false,
      authorization_key: null,
      authorization_key_expires_at: null,
    },
  },
];
