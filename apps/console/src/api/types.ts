/**
 * The public API as the console sees it (CONTRACT.md). The console is a client of the HTTP API
 * only: it imports nothing from the services. Every shape of the API has its one home in
 * libs/shared/contracts (the parts that import nothing: alert, access, management, deprecations), which
 * the services' DTOs implement too; this module only gathers them under the console's names.
 */
import type { AlertView } from '@alert-ingestion/contracts/alert';
import type { TestAlertResult } from '@alert-ingestion/contracts/management';
import type { Schemas } from './client';

/** A timeline entry as the document describes it (its actor's id and username are the user's only). */
export type ActivityEntry = Schemas['ActivityEntryDto'];
/** An incident (`GET /projects/:id/incidents/:iid`), its tabs' counts, and a project's alert settings, as the document describes them. */
export type Incident = Schemas['IncidentDto'];
export type IncidentAlert = Schemas['IncidentAlertDto'];
export type IncidentStatusCounts = Schemas['IncidentStatusCountsDto'];
export type AlertSettings = Schemas['AlertSettingsDto'];

export { ACCESS_LEVELS, type AccessLevel } from '@alert-ingestion/contracts/access';
export {
  ACCEPTED_MAPPING_TYPES,
  ALERT_STATUSES,
  PLATFORM_ALERT_FIELDS,
  PROJECT_TIERS,
  SILENCE_MATCHER_FIELDS,
  SILENCE_MATCHER_OPERATORS,
  SILENCE_STATES,
  type AlertSilence,
  type SilenceMatcher,
  type SilenceMatcherField,
  type SilenceMatcherOperator,
  type SilenceState,
  type SilenceView as Silence,
  type AlertView as Alert,
  type AlertAssignee,
  type AssigneeCandidate,
  type AlertBulkUpdateResult,
  type ActivityKind,
  ACTIVITY_KINDS,
  type IncidentStatus,
  INCIDENT_STATUSES,
  SEVERITIES,
  type AlertStatus,
  type AlertStatusCounts,
  type CreatedAlert,
  type Delivery,
  type PayloadFieldMappingEntry,
  type PayloadFieldType,
  type PayloadPath,
  type PlatformAlertField,
  type ProjectTier,
  type Severity,
} from '@alert-ingestion/contracts/alert';
export {
  HEARTBEAT_INTERVAL_MINUTES,
  MAX_KEY_GRACE_PERIOD_MINUTES,
  SIGNING_SECRET_MAX_LENGTH,
  SIGNING_SECRET_MIN_LENGTH,
  type CreatedUser,
  type CurrentUser,
  type Integration,
  type IntegrationChanges,
  type IntegrationListItem,
  type IntegrationType,
  type Member,
  type PayloadAlertField,
  type PreviewAlert,
  type ProjectWithAccess as Project,
  type TestAlertResult,
  type TestAlertSample,
} from '@alert-ingestion/contracts/management';
export {
  DEPRECATION_AREA_TITLES,
  DEPRECATION_AREAS,
  type DeprecationArea,
  type DeprecationEntry,
  type LinkedPipelineFinding as PipelineFinding,
  type UpgradeReport,
} from '@alert-ingestion/contracts/deprecations';

/** A test alert's answer (200 processed, 202 still processing) and the alerts it names, as read right after. */
export interface TestAlertAnswer {
  status: number;
  result: TestAlertResult;
  /** The alerts of `result.alerts`, read from the alerts API; one that could not be read is missing. */
  alerts: readonly AlertView[];
}

/** A user who can be added to a project (`GET /projects/:id/members/candidates`, docs/api-guide.md "Members"). */
export type MemberCandidate = Schemas['MemberCandidateDto'];
export { SHIFT_LENGTH_UNITS, type ShiftLengthUnit, type ShiftSource } from '@alert-ingestion/contracts/oncall';
