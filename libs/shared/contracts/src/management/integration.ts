import type { HttpSchemas } from '../http';

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
export type IntegrationListItem = HttpSchemas['IntegrationListItemDto'];

/** Spec 2.3 rule 3, published with the external link integration so clients can show it. */
export type LinkDeprecation = HttpSchemas['LinkDeprecationDto'];

/** An integration in the management API (CONTRACT.md "Integrations"). */
export type Integration = HttpSchemas['IntegrationDto'];

/**
 * The body of `POST .../alert_integrations` (CONTRACT.md "Integrations"): any of these, the type only
 * at creation (default: the HTTP Endpoint); `PUT .../alert_integrations/:iid` takes the rest.
 */
export type IntegrationChanges = HttpSchemas['CreateIntegrationDto'];

/** A rotated-out authorization key during its grace period. */
export type PreviousAuthorizationKey = HttpSchemas['PreviousAuthorizationKeyDto'];

/** `POST .../reset_authorization_key`: the longest grace period of the previous key, in minutes (7 days). */
export const MAX_KEY_GRACE_PERIOD_MINUTES = 7 * 24 * 60;

/** A signing secret's length in characters (`PUT .../alert_integrations/:iid` `signing_secret`). */
export const SIGNING_SECRET_MIN_LENGTH = 16;
export const SIGNING_SECRET_MAX_LENGTH = 256;

/** One entry of "Parse payload for custom mapping" (spec 2.1): a value the mapping can point at. */
export type PayloadAlertField = HttpSchemas['PayloadAlertFieldDto'];

/**
 * `GET .../:iid/test_alert` (developer+): what a developer needs to write a test alert for the
 * integration (spec 1.7, 4.2) and nothing that reaches or configures it (no URL, key or mapping).
 */
export type TestAlertSample = HttpSchemas['TestAlertSampleDto'];

/** `POST .../test_alert` (spec 4.2): 200 when processed, 202 (with `request_id`) while still processing. */
export type TestAlertResult = HttpSchemas['TestAlertResultDto'];

/** One alert as `POST .../preview` shows it (CONTRACT.md): every normalised field, nothing stored. */
export type PreviewAlert = HttpSchemas['PreviewAlertDto'];
