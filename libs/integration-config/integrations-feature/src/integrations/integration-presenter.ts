import { heartbeatStatus } from '@alert-ingestion/alerts-domain';
import { Integration, IntegrationListItem, integrationUrl, PayloadFieldMappingEntry } from '@alert-ingestion/contracts';
import { IntegrationRow, PreviousKeyRow } from '@alert-ingestion/integrations-data';
import { AuthorizationKeyCipher, EXTERNAL_LINK_DEPRECATION, StoredIntegration, validPreviousKeys } from '@alert-ingestion/integrations-domain';

/** The mapping column holds only entries validatePayloadFieldMapping accepted. */
export function storedMapping(row: Pick<IntegrationRow, 'payload_field_mapping'>): PayloadFieldMappingEntry[] {
  return row.payload_field_mapping as unknown as PayloadFieldMappingEntry[];
}

/** A row as the integration rules read it: its id and settings, never its key, secret or URL token. */
export function storedIntegration(row: IntegrationRow): StoredIntegration {
  const { type, name, active, sample_payload, api_url, rate_limit_per_minute, heartbeat_interval_minutes } = row;
  return { id: row.id.toString(), type, name, active, sample_payload, payload_field_mapping: storedMapping(row), api_url, rate_limit_per_minute, heartbeat_interval_minutes };
}

/** How the presenter reads secrets: authorization keys at rest, and signing secrets (signingSecretCipher). */
export interface IntegrationCiphers {
  authorizationKeys: AuthorizationKeyCipher;
  signingSecrets: AuthorizationKeyCipher;
}

/** The integration's last accepted request (alert-processor's record) and the instant its heartbeat status is told at. */
export interface HeartbeatReading {
  lastRequestAt: Date | null;
  now: Date;
  /** The unit of heartbeat intervals (HEARTBEAT_MINUTE_MS): a minute, shorter only in tests. */
  minuteMs: number;
}

/**
 * An integration as maintainers see it, credentials included, at `heartbeat.now`: every previous key
 * that still works, newest first (expired ones are not shown).
 */
export function presentIntegration(
  row: IntegrationRow,
  previousKeys: readonly PreviousKeyRow[],
  gatewayPublicUrl: string,
  ciphers: IntegrationCiphers,
  heartbeat: HeartbeatReading,
): Integration {
  const receives = row.type === 'http';
  const previous = receives
    ? validPreviousKeys(previousKeys, heartbeat.now).map((key) => ({
        authorization_key: ciphers.authorizationKeys.decrypt(key.authorization_key_encrypted),
        expires_at: key.expires_at.toISOString(),
      }))
    : [];
  return {
    id: Number(row.id),
    name: row.name,
    type: row.type,
    active: row.active,
    url: receives ? integrationUrl(gatewayPublicUrl, row.url_token) : null,
    authorization_key: receives ? ciphers.authorizationKeys.decrypt(row.authorization_key_encrypted) : null,
    previous_authorization_key: previous.at(0) ?? null,
    previous_authorization_keys: previous,
    signing_secret: receives && row.signing_secret_encrypted !== null ? ciphers.signingSecrets.decrypt(row.signing_secret_encrypted) : null,
    allow_signature_without_timestamp: receives && row.allow_signature_without_timestamp,
    sample_payload: row.sample_payload,
    payload_field_mapping: storedMapping(row),
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
