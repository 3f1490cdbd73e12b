import { Integration } from '@console/api/types';

/** An HTTP integration as the API answers it, for component tests; `fields` change what the test is about. */
export function integrationFixture(fields: Partial<Integration> = {}): Integration {
  return {
    id: 3,
    name: 'Prometheus',
    type: 'http',
    active: true,
    url: 'http://gateway.test/alerts/notify/abc.json',
    authorization_key: 'k'.repeat(64),
    sample_payload: null,
    payload_field_mapping: [],
    api_url: null,
    rate_limit_per_minute: null,
    previous_authorization_key: null,
    previous_authorization_keys: [],
    signing_secret: null,
    allow_signature_without_timestamp: false,
    heartbeat_interval_minutes: null,
    last_request_at: null,
    heartbeat_status: 'off',
    ...fields,
  };
}
