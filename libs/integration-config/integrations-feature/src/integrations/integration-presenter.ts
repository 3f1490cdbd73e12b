import { integrationUrl, PayloadFieldMappingEntry } from '@alert-ingestion/contracts';
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

/** An integration in the management API (CONTRACT.md "Integrations"). */
export interface IntegrationJson {
  id: number;
  name: string;
  type: IntegrationType;
  active: boolean;
  /** The receiving URL (spec 2.1, "View credentials"); null for the external link, which receives nothing. */
  url: string | null;
  authorization_key: string | null;
  sample_payload: string | null;
  payload_field_mapping: PayloadFieldMappingEntry[];
  api_url: string | null;
  /** Requests per minute the gateway takes (HTTP Endpoint); null: the gateway's default. */
  rate_limit_per_minute: number | null;
  /** External link only: spec 2.3 rule 3, for clients to show beside the "View alerts" link. */
  link_deprecation?: typeof EXTERNAL_LINK_DEPRECATION;
}

/**
 * One line of the integration list (spec 1.2: name, type, status). Developers read it too (to send
 * a test alert: REQUIRED_ACCESS_LEVEL.listIntegrations), so it holds nothing that configures or
 * reaches the integration: no URL, key, sample payload or mapping.
 */
export interface IntegrationListItemJson {
  id: number;
  name: string;
  type: IntegrationType;
  active: boolean;
}

export function presentIntegration(row: IntegrationRow, gatewayPublicUrl: string, cipher: AuthorizationKeyCipher): IntegrationJson {
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

export function presentListItem(row: Pick<IntegrationRow, 'id' | 'name' | 'type' | 'active'>): IntegrationListItemJson {
  return { id: Number(row.id), name: row.name, type: row.type, active: row.active };
}
