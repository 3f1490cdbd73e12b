/**
 * The public API as the console sees it (CONTRACT.md). The console is a client of the HTTP API
 * only: it imports nothing from the services, so these types restate the contract's JSON shapes.
 */

export const ACCESS_LEVELS = ['guest', 'reporter', 'developer', 'maintainer', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const PROJECT_TIERS = ['free', 'premium'] as const;
export type ProjectTier = (typeof PROJECT_TIERS)[number];

export interface CurrentUser {
  /** null for the administrator token. */
  id: number | null;
  username: string;
  is_admin: boolean;
}

export interface Project {
  id: number;
  path: string;
  tier: ProjectTier;
  /** null for the administrator, who may do everything an owner may. */
  access_level: AccessLevel | null;
}

export interface CreatedUser {
  id: number;
  username: string;
  token: string;
}

export interface Member {
  user_id: number;
  username: string;
  access_level: AccessLevel;
}

export type IntegrationType = 'http' | 'external_link';

export interface IntegrationListItem {
  id: number;
  name: string;
  type: IntegrationType;
  active: boolean;
}

/** The platform alert keys of spec 2.2, the targets of a payload field mapping. */
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

export type PayloadFieldType = 'string' | 'datetime' | 'number' | 'boolean' | 'array';
export type PayloadPath = Array<string | number>;

export interface PayloadFieldMappingEntry {
  field_name: PlatformAlertField;
  path: PayloadPath;
  type: PayloadFieldType;
}

/** One value of a parsed sample payload ("Parse payload for custom mapping"). */
export interface PayloadAlertField {
  path: PayloadPath;
  label: string;
  type: PayloadFieldType;
}

export interface Integration extends IntegrationListItem {
  url: string | null;
  authorization_key: string | null;
  sample_payload: string | null;
  payload_field_mapping: PayloadFieldMappingEntry[];
  api_url: string | null;
  /** Requests per minute its URL accepts; null: the gateway's default (HTTP Endpoints only). */
  rate_limit_per_minute: number | null;
  /** External link only (spec 2.3 rule 3). */
  link_deprecation?: { deprecated_in: string; message: string };
}

export interface CreatedAlert {
  iid: number;
  title: string;
}

export interface TestAlertResult {
  message: string;
  alerts: CreatedAlert[];
  request_id?: string;
}

/**
 * One request to an integration's URL and the gateway's answer (`GET .../deliveries`): refusals
 * (400, 401, 413, 429) included, a 202 updated once processed. Never a credential.
 */
export interface Delivery {
  id: number;
  received_at: string;
  request_id: string;
  status: number;
  /** The answer's error code, or null. */
  error: string | null;
  alerts: CreatedAlert[];
  /** The body as received, its first 64 KiB. */
  body: string;
  body_size: number;
  body_truncated: boolean;
}

/** What a payload would become (`POST .../preview`); nothing is stored. */
export interface PreviewAlert {
  title: string;
  description: string | null;
  severity: Severity;
  started_at: string;
  ended_at: string | null;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[];
  fingerprint: string | null;
  /** What grouping compares: payloads with the same key group into one alert; null when never grouped. */
  grouping_key: string | null;
  platform_environment_name: string | null;
  payload: unknown;
}

export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Alert {
  iid: number;
  title: string;
  description: string | null;
  severity: Severity;
  status: AlertStatus;
  events: number;
  started_at: string;
  ended_at: string | null;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[];
  platform_environment_name: string | null;
  fingerprint: string | null;
  integration_id: number;
  payload: unknown;
  created_at: string;
  updated_at: string;
}

export interface AlertStatusCounts {
  triggered: number;
  acknowledged: number;
  resolved: number;
  ignored: number;
  open: number;
  all: number;
}

export const DEPRECATION_AREAS = ['interface_and_api', 'ci_cd_configuration', 'administration_and_deployment'] as const;
export type DeprecationArea = (typeof DEPRECATION_AREAS)[number];

export interface DeprecationIdentifier {
  kind: string;
  name: string;
  replacement: string | null;
  value: string | number | null;
  context: string | null;
  aliases: string[];
}

export interface DeprecationEntry {
  id: string;
  title: string;
  area: DeprecationArea;
  kind: string;
  removal_milestone: string;
  planned_date: string | null;
  breaking: boolean;
  change: string;
  replacement: string | null;
  identifiers: DeprecationIdentifier[];
  other_milestones: Array<{ milestone: string; planned_date: string | null; kind: string; breaking: boolean; change: string }>;
  spec_section: string;
}

export interface ScheduledChange {
  id: string;
  title: string;
  area: DeprecationArea;
  kind: string;
  breaking: boolean;
  planned_date: string | null;
  change: string;
  what_to_do: string;
  spec_section: string;
}

export interface UpgradeReport {
  from: string;
  to: string;
  milestones: Array<{ milestone: string; changes: ScheduledChange[] }>;
}

export interface PipelineFinding {
  rule: string;
  line: number;
  message: string;
  removal_milestone: string;
  replacement: string | null;
  /** The catalogue entry the finding comes from. */
  deprecation_id: string;
}
