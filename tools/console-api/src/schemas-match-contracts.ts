/**
 * The OpenAPI document's schemas against the contract types the services' DTOs implement: for each
 * schema, the TypeScript openapi-typescript makes of it (what the console is typed with) must be the
 * contract type, property for property, required for required, null for null. The `@ApiProperty`
 * decorators restate each contract type for the document, and nothing else would notice when one
 * says other than its type. Checked by `npm run typecheck` (this file) and by
 * schemas-match-contracts.spec.ts, which compiles it against a freshly built document.
 *
 * Every schema is listed: a new one is paired with its contract type, or said to have none.
 */
import type {
  AlertEscalationView,
  ContactMethodView,
  EscalationPageView,
  EscalationPolicyView,
  EscalationRuleView,
  EscalationStepView,
  EscalationTargetView,
  NotificationRuleView,
  OncallConfigChange,
  OncallConfigResult,
  PagingSettingsView,
  TestPageView,
  WebhookSecretView,
  AlertAssignee,
  AlertBulkUpdateResult,
  AssigneeCandidate,
  AlertNotificationView,
  AlertSettingsView,
  AlertSilence,
  AlertStatusCounts,
  AlertView,
  CreatedAlert,
  CreatedUser,
  CurrentUser,
  Delivery,
  DeprecationEntry,
  DeprecationIdentifier,
  IncidentAlertView,
  IncidentCreator,
  IncidentStatusCounts,
  IncidentView,
  Integration,
  IntegrationChanges,
  IntegrationListItem,
  LinkDeprecation,
  LinkedPipelineFinding,
  Member,
  MilestoneChanges,
  ActivePeriodView,
  OncallCalendarUrlView,
  OncallGapView,
  OncallOverrideView,
  OncallRotationRef,
  OncallRotationView,
  OncallScheduleRef,
  OncallScheduleView,
  OncallShiftView,
  OncallUser,
  OnCallMemberView,
  OnCallReasonView,
  OnCallView,
  RemovedParticipantView,
  RotationPreviewShiftView,
  MilestoneStage,
  PayloadAlertField,
  PayloadFieldMappingEntry,
  PreviewAlert,
  PreviousAuthorizationKey,
  Project,
  ProjectWithAccess,
  ScheduledChange,
  SilenceMatcher,
  SilenceView,
  TestAlertResult,
  TestAlertSample,
  UpgradeReport,
  User,
} from '@alert-ingestion/contracts';
import type { CodeQualityIssue, ReceiverFeature, ReceiverFeatureChange } from '@alert-ingestion/deprecations';
import type { DocumentProblem, ErrorBody } from '@alert-ingestion/http';
import type { components } from '@alert-ingestion/contracts/http';

type Schemas = components['schemas'];

/** A type without `readonly` anywhere: a contract's readonly arrays are the same data as the schema's arrays. */
type Mutable<T> = T extends readonly (infer Item)[] ? Mutable<Item>[] : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;

/** `true` when A and B accept the same values (each assignable to the other). */
type Assignable<A, B> = [Mutable<A>] extends [Mutable<B>] ? ([Mutable<B>] extends [Mutable<A>] ? true : false) : false;

/** The property names of an object type (none for arrays and scalars). */
type Keys<T> = T extends readonly unknown[] ? never : T extends object ? keyof T : never;

/**
 * `true` when A and B name the same properties, at every depth: an optional property one has and
 * the other lacks leaves the two assignable to each other, so it is compared by name.
 */
type SameKeys<A, B> = [A] extends [readonly (infer ItemA)[]]
  ? [B] extends [readonly (infer ItemB)[]]
    ? SameKeys<ItemA, ItemB>
    : false
  : [Keys<A>] extends [Keys<B>]
    ? [Keys<B>] extends [Keys<A>]
      ? [{ [K in Keys<A> & Keys<B>]: SameKeys<NonNullable<A[K & keyof A]>, NonNullable<B[K & keyof B]>> }[Keys<A> & Keys<B>]] extends [true]
        ? true
        : false
      : false
    : false;

/** `true` when A and B are the same shape: the same values, under the same property names. */
export type Same<A, B> = Assignable<A, B> extends true ? SameKeys<A, B> : false;

/** A JSON value: what a `payload` (any JSON the integration was sent) is in the document. */
type JsonValue = Record<string, unknown> | unknown[] | string | number | boolean | null;

/** Each schema's contract type. */
interface ContractOf {
  OncallConfigChangeDto: OncallConfigChange;
  OncallConfigResultDto: OncallConfigResult;
  DocumentProblemDto: DocumentProblem;
  AlertEscalationDto: AlertEscalationView;
  ContactMethodDto: ContactMethodView;
  EscalationPageDto: EscalationPageView;
  EscalationPolicyDto: EscalationPolicyView;
  EscalationRuleDto: EscalationRuleView;
  EscalationStepDto: EscalationStepView;
  EscalationTargetDto: EscalationTargetView;
  NotificationRuleDto: NotificationRuleView;
  PagingSettingsDto: PagingSettingsView;
  UpdatePagingSettingsDto: PagingSettingsView;
  TestPageDto: TestPageView;
  WebhookSecretDto: WebhookSecretView;
  AlertAssigneeDto: AlertAssignee;
  AlertBulkSkippedDto: AlertBulkUpdateResult['skipped'][number];
  AlertBulkUpdateResultDto: AlertBulkUpdateResult;
  AssigneeCandidateDto: AssigneeCandidate;
  AlertNotificationDto: AlertNotificationView;
  AlertDto: Omit<AlertView, 'payload'> & { payload: JsonValue };
  AlertIncidentCreatorDto: Extract<IncidentCreator, { type: 'alert' }>;
  AlertSettingsDto: AlertSettingsView;
  AlertSilenceDto: AlertSilence;
  AlertStatusCountsDto: AlertStatusCounts;
  CodeQualityIssueDto: CodeQualityIssue;
  CreatedAlertDto: CreatedAlert;
  CreatedUserDto: CreatedUser;
  CreateIntegrationDto: Omit<IntegrationChanges, 'payload_field_mapping'> & { payload_field_mapping?: PayloadFieldMappingEntry[] | null };
  CurrentUserDto: CurrentUser;
  DeliveryDto: Delivery;
  DeprecationEntryDto: DeprecationEntry;
  DeprecationIdentifierDto: DeprecationIdentifier;
  ErrorBodyDto: ErrorBody;
  FieldSilenceMatcherDto: Extract<SilenceMatcher, { field: unknown }>;
  IncidentDto: IncidentView;
  IncidentAlertDto: IncidentAlertView;
  IncidentStatusCountsDto: IncidentStatusCounts;
  IntegrationDto: Integration;
  IntegrationListItemDto: IntegrationListItem;
  LinkDeprecationDto: LinkDeprecation;
  MemberDto: Member;
  MilestoneChangesDto: MilestoneChanges;
  ActivePeriodDto: ActivePeriodView;
  OncallCalendarUrlDto: OncallCalendarUrlView;
  OncallGapDto: OncallGapView;
  OncallOverrideDto: OncallOverrideView;
  OncallRotationRefDto: OncallRotationRef;
  OncallRotationDto: OncallRotationView;
  OncallScheduleRefDto: OncallScheduleRef;
  OncallScheduleDto: OncallScheduleView;
  OncallShiftDto: OncallShiftView;
  OncallUserDto: OncallUser;
  OnCallMemberDto: OnCallMemberView;
  OnCallReasonDto: OnCallReasonView;
  OnCallDto: OnCallView;
  RemovedParticipantDto: RemovedParticipantView;
  RotationPreviewShiftDto: RotationPreviewShiftView;
  MilestoneStageDto: MilestoneStage;
  PathSilenceMatcherDto: Extract<SilenceMatcher, { path: unknown }>;
  PayloadAlertFieldDto: PayloadAlertField;
  PayloadFieldMappingEntryDto: PayloadFieldMappingEntry;
  PipelineFindingDto: LinkedPipelineFinding;
  PreviewAlertDto: PreviewAlert;
  PreviousAuthorizationKeyDto: PreviousAuthorizationKey;
  ProjectDto: Project;
  ProjectWithAccessDto: ProjectWithAccess;
  ReceiverFeatureChangeDto: ReceiverFeatureChange;
  ReceiverFeatureDto: ReceiverFeature;
  ScheduledChangeDto: Omit<ScheduledChange, 'milestone'>;
  SilenceDto: SilenceView;
  TestAlertResultDto: TestAlertResult;
  TestAlertSampleDto: TestAlertSample;
  UpdateIntegrationDto: Omit<IntegrationChanges, 'type' | 'payload_field_mapping'> & { payload_field_mapping?: PayloadFieldMappingEntry[] | null };
  UpgradeReportDto: UpgradeReport;
  UserDto: User;
  UserIncidentCreatorDto: Extract<IncidentCreator, { type: 'user' }>;
}

/** Schemas with no contract type of their own: request bodies the DTO class itself defines (and validates), and wrappers. */
export const WITHOUT_CONTRACT_TYPE = [
  // Escalation policies' and paging's request bodies (libs/shared/alerts-api/src/escalation.dto.ts).
  'EscalationTargetRequestDto',
  'EscalationRuleRequestDto',
  'UpdateEscalationPolicyDto',
  'ResetWebhookSecretDto',
  'CreateContactMethodDto',
  'CreateNotificationRuleDto',
  // The on-call setup document: its JSON Schema describes it (libs/processor/escalation-domain/src/oncall-config.ts); the OpenAPI one only sketches it.
  'OncallConfigDocumentDto',
  // The timeline's entries and notes (libs/shared/alerts-api/src/activity.dto.ts).
  'ActivityActorDto',
  'ActivityEntryDto',
  // The alert workflow's request bodies (libs/shared/alerts-api/src/alert-workflow.dto.ts).
  'AlertBulkUpdateDto',
  'UpdateAlertAssigneesDto',
  // On-call schedules' request bodies and queries (libs/shared/alerts-api/src/oncall.dto.ts).
  'CreateOncallScheduleDto',
  'UpdateOncallScheduleDto',
  'CreateRotationDto',
  'UpdateRotationDto',
  'PreviewRotationDto',
  'CreateOverrideDto',
  // The incidents API's and the alert settings' request bodies (libs/shared/alerts-api/src/incidents.dto.ts).
  'CreateIncidentDto',
  'LinkIncidentAlertDto',
  'UpdateAlertSettingsDto',
  'UpdateIncidentDto',
  'AddMemberDto',
  'CreateNoteDto',
  'CodeQualityLinesDto',
  'CodeQualityLocationDto',
  'CreateProjectDto',
  'CreateSilenceDto',
  'CreateUserDto',
  'MemberCandidateDto',
  'ParseSamplePayloadDto',
  'PayloadAlertFieldsDto',
  'PipelineFindingsDto',
  'PreviewDto',
  'PreviewResultDto',
  'ResetAuthorizationKeyDto',
  'SilenceCreatorDto',
  'TestAlertDto',
  'UpdateAlertStatusDto',
  'UpdateMemberDto',
  'UpdateProjectDto',
  'UpdateSilenceDto',
  'UpdateUserDto',
] as const satisfies ReadonlyArray<keyof Schemas>;

/** Every schema is either paired or listed above, and not both. */
type Unlisted = Exclude<keyof Schemas, keyof ContractOf | (typeof WITHOUT_CONTRACT_TYPE)[number]>;
type Gone = Exclude<keyof ContractOf, keyof Schemas>;
export const EVERY_SCHEMA_LISTED: [Unlisted, Gone] extends [never, never] ? true : { unlisted: Unlisted; gone: Gone } = true;

/** Per schema, `true`: a schema that says other than its contract type fails to compile here, named. */
export const SCHEMAS_MATCH_CONTRACTS: { [Name in keyof ContractOf & keyof Schemas]: Same<Schemas[Name], ContractOf[Name]> } = {
  OncallConfigChangeDto: true,
  OncallConfigResultDto: true,
  DocumentProblemDto: true,
  AlertEscalationDto: true,
  ContactMethodDto: true,
  EscalationPageDto: true,
  EscalationPolicyDto: true,
  EscalationRuleDto: true,
  EscalationStepDto: true,
  EscalationTargetDto: true,
  NotificationRuleDto: true,
  PagingSettingsDto: true,
  UpdatePagingSettingsDto: true,
  TestPageDto: true,
  WebhookSecretDto: true,
  AlertAssigneeDto: true,
  AlertBulkSkippedDto: true,
  AlertBulkUpdateResultDto: true,
  AssigneeCandidateDto: true,
  AlertNotificationDto: true,
  AlertDto: true,
  AlertIncidentCreatorDto: true,
  AlertSettingsDto: true,
  AlertSilenceDto: true,
  AlertStatusCountsDto: true,
  CodeQualityIssueDto: true,
  CreatedAlertDto: true,
  CreatedUserDto: true,
  CreateIntegrationDto: true,
  CurrentUserDto: true,
  DeliveryDto: true,
  DeprecationEntryDto: true,
  DeprecationIdentifierDto: true,
  ErrorBodyDto: true,
  FieldSilenceMatcherDto: true,
  IncidentDto: true,
  IncidentAlertDto: true,
  IncidentStatusCountsDto: true,
  IntegrationDto: true,
  IntegrationListItemDto: true,
  LinkDeprecationDto: true,
  MemberDto: true,
  MilestoneChangesDto: true,
  ActivePeriodDto: true,
  OncallCalendarUrlDto: true,
  OncallGapDto: true,
  OncallOverrideDto: true,
  OncallRotationRefDto: true,
  OncallRotationDto: true,
  OncallScheduleRefDto: true,
  OncallScheduleDto: true,
  OncallShiftDto: true,
  OncallUserDto: true,
  OnCallMemberDto: true,
  OnCallReasonDto: true,
  OnCallDto: true,
  RemovedParticipantDto: true,
  RotationPreviewShiftDto: true,
  MilestoneStageDto: true,
  PathSilenceMatcherDto: true,
  PayloadAlertFieldDto: true,
  PayloadFieldMappingEntryDto: true,
  PipelineFindingDto: true,
  PreviewAlertDto: true,
  PreviousAuthorizationKeyDto: true,
  ProjectDto: true,
  ProjectWithAccessDto: true,
  ReceiverFeatureChangeDto: true,
  ReceiverFeatureDto: true,
  ScheduledChangeDto: true,
  SilenceDto: true,
  TestAlertResultDto: true,
  TestAlertSampleDto: true,
  UpdateIntegrationDto: true,
  UpgradeReportDto: true,
  UserDto: true,
  UserIncidentCreatorDto: true,
};
