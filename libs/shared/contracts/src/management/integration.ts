import type { CreatedAlert, PayloadFieldMappingEntry, PayloadFieldType, PayloadPath, Severity } from '../alert';

/** Integration types (spec 1.3): "HTTP Endpoint" (`http`) and the external link integration. */
export const INTEGRATION_TYPES = ['http', 'external_link'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/**
 * An integration's heartbeat (a dead man's switch): `off` without an interval or while inactive,
 * `waiting` before the first request, `expired` once no request came within the interval, else `ok`.
 */
export const HEARTBEAT_STATUSES = ['ok', 'expired', 'off', 'waiting'] as const;
export type HeartbeatStatus = (typeof HEARTBEAT_STATUSES)[number];

/** The bounds of `heartbeat_interval_minutes`: a minute to a day. */
export const HEARTBEAT_INTERVAL_MINUTES = { min: 1, max: 1440 } as const;

/**
 * One line of the integration list (spec 1.2: name, type, status). Developers read it too (to send
 * a test alert), so it holds nothing that configures or reaches the integration: no URL, key,
 * sample payload or mapping.
 */
export interface IntegrationListItem {
  id: number;
  name: string;
  type: IntegrationType;
  active: boolean;
}

/** Spec 2.3 rule 3, published with the external link integration so clients can show it. */
export interface LinkDeprecation {
  deprecated_in: string;
  message: string;
}

/** An integration in the management API (CONTRACT.md "Integrations"). */
export interface Integration extends IntegrationListItem {
  /** The receiving URL (spec 2.1, "View credentials"); null for the external link, which receives nothing. */
  url: string | null;
  authorization_key: string | null;
  /**
   * The key the latest rotation with a grace period replaced, while it still works (until
   * `expires_at`); null otherwise, and for the external link. The first of previous_authorization_keys.
   */
  previous_authorization_key: PreviousAuthorizationKey | null;
  /**
   * Every previous key that still works, newest (last replaced) first, each until its own
   * `expires_at`: at most two (a reset that would need a third is refused unless it revokes them).
   */
  previous_authorization_keys: PreviousAuthorizationKey[];
  /**
   * The secret webhook requests must be signed with (HMAC-SHA256 of the body); null: requests are
   * not signed. Viewable again by maintainers, like the key.
   */
  signing_secret: string | null;
  /**
   * True: a Grafana-form signature (X-Grafana-Alerting-Signature) is accepted without its
   * timestamp header (which lets a captured request be replayed once the replay cache has forgotten
   * it). False, the default: the gateway refuses it as missing_signature_timestamp.
   */
  allow_signature_without_timestamp: boolean;
  sample_payload: string | null;
  payload_field_mapping: PayloadFieldMappingEntry[];
  api_url: string | null;
  /** Requests per minute the gateway takes (HTTP Endpoint); null: the gateway's default. */
  rate_limit_per_minute: number | null;
  /** A request is expected at least this often (minutes), else a heartbeat alert is raised; null: off. */
  heartbeat_interval_minutes: number | null;
  /** The last request to the URL the gateway accepted (answered 200 or 202); null before the first. */
  last_request_at: string | null;
  heartbeat_status: HeartbeatStatus;
  /** External link only: spec 2.3 rule 3, for clients to show beside the "View alerts" link. */
  link_deprecation?: LinkDeprecation;
}

/**
 * The body of `POST .../alert_integrations` (CONTRACT.md "Integrations"): any of these, the type only
 * at creation (default: the HTTP Endpoint); `PUT .../alert_integrations/:iid` takes the rest.
 */
export interface IntegrationChanges {
  type?: IntegrationType;
  name?: string;
  active?: boolean;
  /** A JSON text (spec 2.1); null means none. */
  sample_payload?: string | null;
  payload_field_mapping?: PayloadFieldMappingEntry[] | null;
  api_url?: string | null;
  rate_limit_per_minute?: number | null;
  /** A webhook signing secret to set, or null to remove it. */
  signing_secret?: string | null;
  /** HTTP Endpoint: accept Grafana-form signatures without a timestamp header (default false). */
  allow_signature_without_timestamp?: boolean;
  heartbeat_interval_minutes?: number | null;
}

/** A rotated-out authorization key during its grace period. */
export interface PreviousAuthorizationKey {
  authorization_key: string;
  expires_at: string;
}

/** `POST .../reset_authorization_key`: the longest grace period of the previous key, in minutes (7 days). */
export const MAX_KEY_GRACE_PERIOD_MINUTES = 7 * 24 * 60;

/** A signing secret's length in characters (`PUT .../alert_integrations/:iid` `signing_secret`). */
export const SIGNING_SECRET_MIN_LENGTH = 16;
export const SIGNING_SECRET_MAX_LENGTH = 256;

/** One entry of "Parse payload for custom mapping" (spec 2.1): a value the mapping can point at. */
export interface PayloadAlertField {
  path: PayloadPath;
  label: string;
  type: PayloadFieldType;
}

/**
 * `GET .../:iid/test_alert` (developer+): what a developer needs to write a test alert for the
 * integration (spec 1.7, 4.2) and nothing that reaches or configures it (no URL, key or mapping).
 */
export interface TestAlertSample {
  /** The integration's sample payload (JSON text), to start the test payload from; null when it has none. */
  sample_payload: string | null;
  /** Whether the integration's own custom mapping applies to its payloads (Premium, with a mapping). */
  custom_mapping: boolean;
}

/** `POST .../test_alert` (spec 4.2): 200 when processed, 202 (with `request_id`) while still processing. */
export interface TestAlertResult {
  message: string;
  alerts: CreatedAlert[];
  request_id?: string;
}

/** One alert as `POST .../preview` shows it (CONTRACT.md): every normalised field, nothing stored. */
export interface PreviewAlert {
  title: string;
  description: string | null;
  severity: Severity;
  started_at: string;
  ended_at: string | null;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[];
  /** The payload's own fingerprint as the alert would store it, or null. */
  fingerprint: string | null;
  /**
   * What grouping compares (SHA-256 hex): payloads with the same key group into one alert (Premium;
   * on Free only an explicit fingerprint groups); null when the alert is never grouped.
   */
  grouping_key: string | null;
  platform_environment_name: string | null;
  /** The payload of this alert, as it would be kept (a JSON object). */
  payload: { [key: string]: unknown };
}
