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
}

export function presentIntegration(row: IntegrationRow, gatewayPublicUrl: string, cipher: AuthorizationKeyCipher): Integration {
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
    ...(row.type === 'external_link' ? { link_deprecation: EXTERNAL_LINK_DEPRECATION } : {}),
  };
}

export function presentListItem(row: Pick<IntegrationRow, 'id' | 'name' | 'type' | 'active'>): IntegrationListItem {
  return { id: Number(row.id), name: row.name, type: row.type, active: row.active };
}
