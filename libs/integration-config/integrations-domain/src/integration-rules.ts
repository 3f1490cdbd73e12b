import { HEARTBEAT_INTERVAL_MINUTES, Integration, IntegrationChanges, IntegrationSnapshot, PayloadFieldMappingEntry, ProjectTier } from '@alert-ingestion/contracts';
import { IntegrationRuleViolation } from './integration-rule-violation';
import { JsonObject } from '@alert-ingestion/json';
import { validatePayloadFieldMapping } from './payload-field-mapping';
import { parseSamplePayload } from './sample-payload';

/** Integration types (spec 1.3): "HTTP Endpoint" (`http`) and the external link integration. */
export type IntegrationType = IntegrationSnapshot.IntegrationType;
export const INTEGRATION_TYPES = IntegrationSnapshot.INTEGRATION_TYPES;

/**
 * Spec 2.1: "Free tier has a single endpoint and no name is asked for", so the Free tier's HTTP
 * Endpoint gets this name (the integration type's own name). The external link integration is not
 * named in the spec either (2.3) and gets the second one.
 */
export const DEFAULT_HTTP_INTEGRATION_NAME = 'HTTP Endpoint';
export const EXTERNAL_LINK_INTEGRATION_NAME = 'External incident management';
export const MAX_INTEGRATION_NAME_LENGTH = 255;

/** Spec 2.3 rule 3, published with the external link integration so clients can show it. */
export const EXTERNAL_LINK_DEPRECATION = {
  deprecated_in: '13.8',
  message: 'The direct link from the alerts list to the external tool is deprecated from release 13.8.',
} as const;

/** An integration of the project, as far as the cross-integration rules need it. */
export interface ProjectIntegration {
  id: string;
  type: IntegrationType;
  name: string;
  active: boolean;
}

/** The configurable part of an integration (credentials are generated apart). */
export type IntegrationSettings = Pick<
  Integration,
  'type' | 'name' | 'active' | 'sample_payload' | 'payload_field_mapping' | 'api_url' | 'rate_limit_per_minute' | 'heartbeat_interval_minutes'
>;

export interface StoredIntegration extends IntegrationSettings {
  id: string;
}

/**
 * The body of a create request (IntegrationChanges) with its type decided; the mapping is anything
 * until validatePayloadFieldMapping has checked it, and signingSecretChange checks the secret.
 */
export type IntegrationCreateRequest = Omit<IntegrationChanges, 'type' | 'payload_field_mapping'> & { type: IntegrationType; payload_field_mapping?: unknown };

export type IntegrationUpdateRequest = Omit<IntegrationCreateRequest, 'type'>;

const invalid = (code: string, message: string) => new IntegrationRuleViolation('invalid', code, message);
const forbidden = (code: string, message: string) => new IntegrationRuleViolation('forbidden', code, message);
const conflict = (code: string, message: string) => new IntegrationRuleViolation('conflict', code, message);

function describe(integration: ProjectIntegration): string {
  const kind = integration.type === 'external_link' ? 'external link integration' : 'HTTP Endpoint';
  return `${kind} "${integration.name}" (id ${integration.id})`;
}

/** CONTRACT.md: `api_url` of the external link integration must be an http(s) URL. */
export function validateApiUrl(apiUrl: unknown): string {
  if (typeof apiUrl !== 'string' || apiUrl.trim() === '') {
    throw invalid('invalid_api_url', 'The external link integration needs api_url, the base URL of the external tool\'s alert list.');
  }
  let url: URL;
  try {
    url = new URL(apiUrl.trim());
  } catch {
    throw invalid('invalid_api_url', 'api_url is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('invalid_api_url', 'api_url must be an http or https URL.');
  }
  return url.toString();
}

/** The highest rate limit an integration may ask for (requests per minute). */
export const MAX_RATE_LIMIT_PER_MINUTE = 10_000_000;

/** An HTTP Endpoint's own rate limit: a whole number of requests per minute, or null for the gateway's default. */
function validateRateLimit(limit: unknown): number | null {
  if (limit === null) return null;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_RATE_LIMIT_PER_MINUTE) {
    throw invalid('invalid_rate_limit', `rate_limit_per_minute must be a whole number from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or null for the gateway's default.`);
  }
  return limit;
}

/** A heartbeat interval: a whole number of minutes from 1 to 1440 (a day), or null for none. */
function validateHeartbeatInterval(minutes: unknown): number | null {
  if (minutes === null) return null;
  const { min, max } = HEARTBEAT_INTERVAL_MINUTES;
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < min || minutes > max) {
    throw invalid('invalid_heartbeat_interval', `heartbeat_interval_minutes must be a whole number of minutes from ${min} to ${max}, or null for no heartbeat.`);
  }
  return minutes;
}

function validateName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw invalid('invalid_name', 'A Premium HTTP Endpoint needs a name (each endpoint is named, spec 2.1).');
  }
  const trimmed = name.trim();
  if (trimmed.length > MAX_INTEGRATION_NAME_LENGTH) {
    throw invalid('invalid_name', `The name may have at most ${MAX_INTEGRATION_NAME_LENGTH} characters.`);
  }
  return trimmed;
}

function requireUniqueName(name: string, others: ProjectIntegration[]): void {
  const taken = others.find((other) => other.type === 'http' && other.name === name);
  if (taken) throw conflict('name_taken', `The project already has an HTTP Endpoint named "${name}" (id ${taken.id}).`);
}

/**
 * Spec 2.3 rule 1: while the external link integration is active no other alert integration may be
 * active, and the other way round. `others` excludes the integration itself.
 */
export function checkActiveConflict(target: { type: IntegrationType; active: boolean }, others: ProjectIntegration[]): void {
  if (!target.active) return;
  if (target.type === 'external_link') {
    const active = others.filter((other) => other.active);
    if (active.length > 0) {
      throw conflict(
        'active_integration_conflict',
        `The external link integration cannot be active while other integrations are active: ${active.map(describe).join(', ')}. Disable them first.`,
      );
    }
  } else {
    const link = others.find((other) => other.type === 'external_link' && other.active);
    if (link) {
      throw conflict('active_integration_conflict', `No integration can be active while the ${describe(link)} is active. Disable it first.`);
    }
  }
}

/** Whether a request sets a non-empty payload field mapping (an empty one only clears it). */
function setsMapping(mapping: unknown): boolean {
  return Array.isArray(mapping) ? mapping.length > 0 : mapping !== undefined && mapping !== null;
}

/** Spec 1.4: custom mapping (a sample payload, its parsing, a payload field mapping) is a Premium feature. */
const customMappingNeedsPremium = () => forbidden('premium_required', 'A sample payload and a payload field mapping (custom mapping) need the Premium tier.');

/** Spec 2.1: "Parse payload for custom mapping" is offered on Premium only. */
export function requirePremiumForCustomMapping(tier: ProjectTier): void {
  if (tier !== 'premium') throw customMappingNeedsPremium();
}

/** Spec 1.4 and 2.1: Free has no sample payload and no payload field mapping. */
function forbidCustomMappingOnFree(sample: string | null | undefined, mapping: unknown): void {
  if (sample != null || setsMapping(mapping)) throw customMappingNeedsPremium();
}

/** Spec 2.3: the external link integration receives no alerts, so nothing is mapped or limited. */
function forbidMappingOnExternalLink(request: IntegrationUpdateRequest): void {
  const receivesNothing = (what: string) => invalid('not_applicable', `The external link integration receives no alerts: it has no ${what}.`);
  if (request.sample_payload != null || setsMapping(request.payload_field_mapping)) throw receivesNothing('sample payload or payload field mapping');
  if (request.rate_limit_per_minute != null) throw receivesNothing('rate limit');
  if (request.heartbeat_interval_minutes != null) throw receivesNothing('heartbeat');
}

/**
 * Applies a sample payload and payload field mapping change. Spec 2.1: "When [the sample payload]
 * is changed, the field mapping must be redone": a changed sample payload clears the mapping unless
 * the same request sets a new one, which is then validated against the new sample.
 */
function applyCustomMapping(
  current: { sample_payload: string | null; payload_field_mapping: PayloadFieldMappingEntry[] },
  request: IntegrationUpdateRequest,
): { sample_payload: string | null; payload_field_mapping: PayloadFieldMappingEntry[] } {
  const samplePayload = request.sample_payload === undefined ? current.sample_payload : request.sample_payload;
  const sampleChanged = samplePayload !== current.sample_payload;
  let sample: JsonObject | null = null;
  if (samplePayload !== null && (sampleChanged || request.payload_field_mapping != null)) {
    sample = parseSamplePayload(samplePayload);
  }
  let mapping: PayloadFieldMappingEntry[];
  if (request.payload_field_mapping != null) {
    mapping = validatePayloadFieldMapping(request.payload_field_mapping, sample);
  } else if (request.payload_field_mapping === null) {
    mapping = [];
  } else {
    mapping = sampleChanged ? [] : current.payload_field_mapping;
  }
  return { sample_payload: samplePayload, payload_field_mapping: mapping };
}

/**
 * Decides the settings of a new integration or throws the rule it breaks. Tier rules (403) come
 * first, then input validity (400), then conflicts with the project's other integrations (409).
 */
export function planIntegrationCreate(tier: ProjectTier, request: IntegrationCreateRequest, existing: ProjectIntegration[]): IntegrationSettings {
  const active = request.active ?? false;
  if (request.type === 'external_link') {
    if (tier !== 'premium') throw forbidden('premium_required', 'The external link integration needs the Premium tier.');
    forbidMappingOnExternalLink(request);
    const apiUrl = validateApiUrl(request.api_url);
    const link = existing.find((other) => other.type === 'external_link');
    if (link) throw conflict('external_link_exists', `The project already has an ${describe(link)}.`);
    checkActiveConflict({ type: 'external_link', active }, existing);
    return {
      type: 'external_link',
      name: EXTERNAL_LINK_INTEGRATION_NAME,
      active,
      sample_payload: null,
      payload_field_mapping: [],
      api_url: apiUrl,
      rate_limit_per_minute: null,
      heartbeat_interval_minutes: null,
    };
  }

  if (tier === 'free') {
    const http = existing.find((other) => other.type === 'http');
    if (http) {
      throw forbidden('free_tier_limit', `The Free tier has a single HTTP Endpoint per project; this project has ${describe(http)}. Premium has several.`);
    }
    forbidCustomMappingOnFree(request.sample_payload, request.payload_field_mapping);
  }
  if (request.api_url != null) throw invalid('not_applicable', 'api_url is only for the external link integration.');
  // Free: no name is asked (spec 2.1), so any given name is ignored in favour of the default.
  const name = tier === 'free' ? DEFAULT_HTTP_INTEGRATION_NAME : validateName(request.name);
  const custom = applyCustomMapping({ sample_payload: null, payload_field_mapping: [] }, request);
  const rateLimit = request.rate_limit_per_minute === undefined ? null : validateRateLimit(request.rate_limit_per_minute);
  const heartbeat = request.heartbeat_interval_minutes === undefined ? null : validateHeartbeatInterval(request.heartbeat_interval_minutes);
  requireUniqueName(name, existing);
  checkActiveConflict({ type: 'http', active }, existing);
  return { type: 'http', name, active, ...custom, api_url: null, rate_limit_per_minute: rateLimit, heartbeat_interval_minutes: heartbeat };
}

/**
 * Decides the new settings of an existing integration (any of name, active, sample_payload,
 * payload_field_mapping, api_url) or throws the rule the change breaks. `others` are the project's
 * other integrations.
 */
export function planIntegrationUpdate(
  tier: ProjectTier,
  current: StoredIntegration,
  request: IntegrationUpdateRequest,
  others: ProjectIntegration[],
): IntegrationSettings {
  const active = request.active ?? current.active;
  if (current.type === 'external_link') {
    // After a downgrade to Free the link may only be switched off or deleted.
    const onlyDisables = active === false && request.api_url == null;
    if (tier !== 'premium' && !onlyDisables) {
      throw forbidden('premium_required', 'The external link integration needs the Premium tier; on Free it can only be disabled or deleted.');
    }
    forbidMappingOnExternalLink(request);
    const apiUrl = request.api_url === undefined ? current.api_url : validateApiUrl(request.api_url);
    checkActiveConflict({ type: 'external_link', active }, others);
    return { ...current, active, api_url: apiUrl };
  }

  if (tier === 'free') forbidCustomMappingOnFree(request.sample_payload, request.payload_field_mapping);
  if (request.api_url != null) throw invalid('not_applicable', 'api_url is only for the external link integration.');
  const name = tier === 'free' || request.name === undefined ? current.name : validateName(request.name);
  const custom = applyCustomMapping(current, request);
  const rateLimit = request.rate_limit_per_minute === undefined ? current.rate_limit_per_minute : validateRateLimit(request.rate_limit_per_minute);
  const heartbeat =
    request.heartbeat_interval_minutes === undefined ? current.heartbeat_interval_minutes : validateHeartbeatInterval(request.heartbeat_interval_minutes);
  if (name !== current.name) requireUniqueName(name, others);
  checkActiveConflict({ type: 'http', active }, others);
  return { type: 'http', name, active, ...custom, api_url: null, rate_limit_per_minute: rateLimit, heartbeat_interval_minutes: heartbeat };
}
