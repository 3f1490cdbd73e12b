/**
 * The public API as the console sees it (CONTRACT.md), under the console's names. The console is a
 * client of the HTTP API only: every type here is a schema of the OpenAPI document, as
 * tools/console-api generates it (`Schemas`, from @alert-ingestion/contracts/http), or a part of one.
 * The lists of allowed values (SEVERITIES, ALERT_STATUSES, ...) and the bounds the forms check are
 * imported as values from libs/shared/contracts (the parts that import nothing): the services'
 * decorators publish them as the document's enums and limits.
 */
import type { Schemas } from './client';

/** A timeline entry as the document describes it (its actor's id and username are the user's only). */
export type ActivityEntry = Schemas['ActivityEntryDto'];
export type ActivityKind = ActivityEntry['kind'];
/** An incident (`GET /projects/:id/incidents/:iid`), its tabs' counts, and a project's alert settings, as the document describes them. */
export type Incident = Schemas['IncidentDto'];
export type IncidentAlert = Schemas['IncidentAlertDto'];
export type IncidentStatus = Incident['status'];
export type IncidentStatusCounts = Schemas['IncidentStatusCountsDto'];
export type AlertSettings = Schemas['AlertSettingsDto'];

export type Alert = Schemas['AlertDto'];
export type Severity = Alert['severity'];
export type AlertStatus = Alert['status'];
export type AlertAssignee = Schemas['AlertAssigneeDto'];
export type AlertSilence = Schemas['AlertSilenceDto'];
export type AlertStatusCounts = Schemas['AlertStatusCountsDto'];
export type AlertBulkUpdateResult = Schemas['AlertBulkUpdateResultDto'];
export type AssigneeCandidate = Schemas['AssigneeCandidateDto'];
export type CreatedAlert = Schemas['CreatedAlertDto'];
export type Delivery = Schemas['DeliveryDto'];

export type Silence = Schemas['SilenceDto'];
export type SilenceMatcher = Silence['matchers'][number];
export type SilenceMatcherField = Schemas['FieldSilenceMatcherDto']['field'];
export type SilenceMatcherOperator = SilenceMatcher['operator'];
export type SilenceState = Silence['state'];

export type PayloadFieldMappingEntry = Schemas['PayloadFieldMappingEntryDto'];
export type PayloadFieldType = PayloadFieldMappingEntry['type'];
export type PayloadPath = PayloadFieldMappingEntry['path'];
export type PlatformAlertField = PayloadFieldMappingEntry['field_name'];

/** A project as its reader sees it, with the caller's role (null: the administrator). */
export type Project = Schemas['ProjectWithAccessDto'];
export type ProjectTier = Project['tier'];
export type AccessLevel = Schemas['MemberDto']['access_level'];
export type Member = Schemas['MemberDto'];
export type CreatedUser = Schemas['CreatedUserDto'];
export type CurrentUser = Schemas['CurrentUserDto'];

export type Integration = Schemas['IntegrationDto'];
export type IntegrationType = Integration['type'];
export type IntegrationListItem = Schemas['IntegrationListItemDto'];
/** The body of `POST .../alert_integrations`; `PUT .../:iid` takes the same without `type`. */
export type IntegrationChanges = Schemas['CreateIntegrationDto'];
export type PayloadAlertField = Schemas['PayloadAlertFieldDto'];
export type PreviewAlert = Schemas['PreviewAlertDto'];
export type TestAlertResult = Schemas['TestAlertResultDto'];
export type TestAlertSample = Schemas['TestAlertSampleDto'];

export type DeprecationEntry = Schemas['DeprecationEntryDto'];
export type DeprecationArea = DeprecationEntry['area'];
export type PipelineFinding = Schemas['PipelineFindingDto'];
export type UpgradeReport = Schemas['UpgradeReportDto'];

export type ShiftLengthUnit = Schemas['OncallRotationDto']['shift_length_unit'];
export type ShiftSource = Schemas['OncallShiftDto']['source'];

/** A test alert's answer (200 processed, 202 still processing) and the alerts it names, as read right after. */
export interface TestAlertAnswer {
  status: number;
  result: TestAlertResult;
  /** The alerts of `result.alerts`, read from the alerts API; one that could not be read is missing. */
  alerts: readonly Alert[];
}

/** A user who can be added to a project (`GET /projects/:id/members/candidates`, docs/api-guide.md "Members"). */
export type MemberCandidate = Schemas['MemberCandidateDto'];

export { ACCESS_LEVELS } from '@alert-ingestion/contracts/access';
export {
  ACCEPTED_MAPPING_TYPES,
  ALERT_STATUSES,
  PLATFORM_ALERT_FIELDS,
  PROJECT_TIERS,
  SEVERITIES,
  SILENCE_MATCHER_FIELDS,
  SILENCE_MATCHER_OPERATORS,
} from '@alert-ingestion/contracts/alert';
export { HEARTBEAT_INTERVAL_MINUTES, MAX_KEY_GRACE_PERIOD_MINUTES, SIGNING_SECRET_MAX_LENGTH, SIGNING_SECRET_MIN_LENGTH } from '@alert-ingestion/contracts/management';
export { DEPRECATION_AREA_TITLES, DEPRECATION_AREAS } from '@alert-ingestion/contracts/deprecations';
export { SHIFT_LENGTH_UNITS } from '@alert-ingestion/contracts/oncall';
