import { heartbeatStatus } from '@alert-ingestion/alerts-domain';
import { Integration, IntegrationListItem, integrationUrl, PayloadFieldMappingEntry } from '@alert-ingestion/contracts';
import { AuthorizationKeyCipher, EXTERNAL_LINK_DEPRECATION, IntegrationType } from '@alert-ingestion/integrations-domain';

/** An integration row as the presenter needs it. */
export interface IntegrationRow {
  id: bigint;
  type: IntegrationType;
  name: string;
  active: boolean;
  url_token: string;
  authorization_key_encrypted: string;
  sample_payload: string | null;
  payload_field_mapping: unknown;
  api_url: string | null;
  rate_limit_per_minute: number | null;
  heartbeat_interval_minutes: number | null;
}

/** The integration's last accepted request (alert-processor's record) and the instant its heartbeat status is told at. */
export interface HeartbeatReading {
  lastRequestAt: Date | null;
  now: Date;
  /** The unit of heartbeat intervals (HEARTBEAT_MINUTE_MS): a minute, shorter only in tests. */
  minuteMs: number;
}

export function presentIntegration(row: IntegrationRow, gatewayPublicUrl: string, cipher: AuthorizationKeyCipher, heartbeat: HeartbeatReading): Integration {
  const receives = row.type === 'http';
  return {
    id: Number(row.id),
    name: row.name,
    type: row.type,
    active: row.active,
    url: receives ? integrationUrl(gatewayPublicUrl, row.url_token) : null,
    authorization_key: receives ? cipher.decrypt(row.authorization_key_encrypted) : null,
    sample_payload: row.sample_payload,
    payload_field_mapping: row.payload_field_mapping as PayloadFieldMappingEntry[],
    api_url: row.api_url,
    rate_limit_per_minute: row.rate_limit_per_minute,
    heartbeat_interval_minutes: row.heartbeat_interval_minutes,
    last_request_at: heartbeat.lastRequestAt ? heartbeat.lastRequestAt.toISOString() : null,
    heartbeat_status: heartbeatStatus(
      { intervalMinutes: receives ? row.heartbeat_interval_minutes : null, active: row.active },
      heartbeat.lastRequestAt,
      heartbeat.now,
      heartbeat.minuteMs,
    ),
    ...(row.type === 'external_link' ? { link_deprecation: EXTERNAL_LINK_DEPRECATION } : {}),
  };
}

export function presentListItem(row: Pick<IntegrationRow, 'id' | 'name' | 'type' | 'active'>): IntegrationListItem {
  return { id: Number(row.id), name: row.name, type: row.type, active: row.active };
}
