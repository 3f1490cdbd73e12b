import { TopicExample } from '../topics/topic-example';
import { IntegrationSnapshotValue } from './value';

/** An integration snapshot, as integration-config publishes it to integrations.v1. */
export const INTEGRATION_SNAPSHOT_EXAMPLES: ReadonlyArray<TopicExample<IntegrationSnapshotValue>> = [
  {
    name: 'http-integration',
    summary: 'An active HTTP integration of a premium project, with a payload field mapping.',
    key: '3',
    value: {
      id: '3',
      project_id: '2',
      project_tier: 'premium',
      type: 'http',
      name: 'Prometheus',
      active: true,
      url_token: 'f3b1c2d4e5a6978812ab34cd56ef7890',
      authorization_key_sha256: '9f2c4a6e8b0d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a',
      payload_field_mapping: [{ field_name: 'title', path: ['labels', 'alertname'], type: 'string' }],
      version: 4,
      updated_at: '2026-11-22T08:00:00.000Z',
    },
  },
];
