/**
 * The public API as the console sees it (CONTRACT.md). The console is a client of the HTTP API
 * only: it imports nothing from the services. The contract's shapes and constants that stand alone
 * (libs/shared/contracts: alert, access) come from there; the rest restate the contract's JSON.
 */
import type { AccessLevel } from '@alert-ingestion/contracts/access';
import type { AlertView, CreatedAlert, PayloadFieldMappingEntry, PayloadFieldType, PayloadPath, ProjectTier, Severity } from '@alert-ingestion/contracts/alert';

export { ACCESS_LEVELS, type AccessLevel } from '@alert-ingestion/contracts/access';
export {
  ALERT_STATUSES,
  PROJECT_TIERS,
  type AlertView as Alert,
  type AlertStatus,
  type CreatedAlert,
  type PayloadFieldMappingEntry,
  type PayloadFieldType,
  type PayloadPath,
  type PlatformAlertField,
  type ProjectTier,
  type Severity,
} from '@alert-ingestion/contracts/alert';

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

export interface TestAlertResult {
  message: string;
  alerts: CreatedAlert[];
  request_id?: string;
}

/** A test alert's answer (200 processed, 202 still processing) and the alerts it names, as read right after. */
export interface TestAlertAnswer {
  status: number;
  result: TestAlertResult;
  /** The alerts of `result.alerts`, read from the alerts API; one that could not be read is missing. */
  alerts: readonly AlertView[];
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
