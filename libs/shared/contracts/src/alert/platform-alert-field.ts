import type { HttpSchemas } from '../http';

/**
 * The platform alert keys of spec section 2.2: the names a payload uses without a custom mapping,
 * and the targets a payload field mapping may point at (spec section 2.1, CONTRACT.md "Integrations").
 */
export const PLATFORM_ALERT_FIELDS = [
  'title',
  'description',
  'start_time',
  'end_time',
  'service',
  'monitoring_tool',
  'hosts',
  'severity',
  'fingerprint',
  'platform_environment_name',
] as const;

export type PlatformAlertField = (typeof PLATFORM_ALERT_FIELDS)[number];

/** Types a mapped payload value may have. */
export const PAYLOAD_FIELD_TYPES = ['string', 'datetime', 'number', 'boolean', 'array'] as const;
export type PayloadFieldType = (typeof PAYLOAD_FIELD_TYPES)[number];

/** A path into a JSON payload: object keys and array indices, e.g. `["labels", "hosts", 0]`. */
export type PayloadPath = Array<string | number>;

/**
 * The mapping types each platform alert key accepts (spec 2.2): text keys take strings, start and
 * end time take datetimes, and hosts and fingerprint take a string or an array.
 */
export const ACCEPTED_MAPPING_TYPES: Readonly<Record<PlatformAlertField, readonly PayloadFieldType[]>> = {
  title: ['string'],
  description: ['string'],
  start_time: ['datetime'],
  end_time: ['datetime'],
  service: ['string'],
  monitoring_tool: ['string'],
  hosts: ['string', 'array'],
  severity: ['string'],
  fingerprint: ['string', 'array'],
  platform_environment_name: ['string'],
};

/** One entry of a payload field mapping: a payload value (by path, of a type) for a platform alert key. */
export type PayloadFieldMappingEntry = HttpSchemas['PayloadFieldMappingEntryDto'];

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const PROJECT_TIERS = ['free', 'premium'] as const;
export type ProjectTier = (typeof PROJECT_TIERS)[number];
