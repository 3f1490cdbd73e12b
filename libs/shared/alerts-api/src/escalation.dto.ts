import {
  AlertEscalationView,
  CONTACT_METHOD_TYPES,
  ContactMethodType,
  ContactMethodView,
  ESCALATION_CONDITIONS,
  ESCALATION_STATES,
  ESCALATION_TARGET_TYPES,
  EscalationCondition,
  EscalationPageView,
  EscalationPolicyView,
  EscalationRuleView,
  EscalationState,
  EscalationStepView,
  EscalationTargetType,
  EscalationTargetView,
  NotificationRuleView,
  ONCALL_CONFIG_ACTIONS,
  ONCALL_CONFIG_KINDS,
  OncallConfigAction,
  OncallConfigChange,
  OncallConfigKind,
  OncallConfigResult,
  PAGE_KINDS,
  PAGE_METHODS,
  PAGE_STATUSES,
  PageKind,
  PageMethod,
  PageStatus,
  PagingSettingsView,
  TestPageView,
  WebhookSecretView,
} from '@alert-ingestion/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OncallUserDto } from './oncall.dto';

// The escalation API's HTTP shapes (docs/api-guide.md "Escalation policies", "Paging"). What a
// policy, a contact method or a notification rule may hold (schedules and members of the project,
// URLs, minutes, order) is checked by the processor's domain (escalation-domain), which names the
// field of a refusal; here only their types.

const MAX_ID = 2 ** 53 - 1;

/** A target of a rule in a request: the field of its type. */
export class EscalationTargetRequestDto {
  @ApiProperty({ enum: ESCALATION_TARGET_TYPES })
  @IsIn(ESCALATION_TARGET_TYPES)
  type!: EscalationTargetType;

  @ApiPropertyOptional({ type: 'integer', description: '`schedule`: whoever is on call in this schedule of the project when the rule pages.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  schedule_id?: number;

  @ApiPropertyOptional({ type: 'integer', description: '`user`: this project member.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  user_id?: number;

  @ApiPropertyOptional({ description: '`webhook`: an http(s) URL without credentials; its pages are signed with a secret shown once.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;
}

export class EscalationRuleRequestDto {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1440, description: 'Minutes after the alert was triggered (in each loop: after it began); at least the rule before\'s.' })
  @IsInt()
  after_minutes!: number;

  @ApiProperty({ enum: ESCALATION_CONDITIONS, description: '`not_acknowledged`: pages while the alert is triggered; `not_resolved`: also while it is acknowledged.' })
  @IsIn(ESCALATION_CONDITIONS)
  condition!: EscalationCondition;

  @ApiProperty({ type: [EscalationTargetRequestDto], minItems: 1, maxItems: 10 })
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => EscalationTargetRequestDto)
  targets!: EscalationTargetRequestDto[];
}

/** Body of `PUT /projects/:id/escalation_policy` and of its preview: the whole policy. */
export class UpdateEscalationPolicyDto {
  @ApiProperty({ type: [EscalationRuleRequestDto], minItems: 1, maxItems: 10, description: 'In the order they page.' })
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => EscalationRuleRequestDto)
  rules!: EscalationRuleRequestDto[];

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 9, default: 0, description: 'How many times the rules run again after the first loop.' })
  @IsOptional()
  @IsInt()
  repeat?: number;
}

/** Body of `POST /projects/:id/escalation_policy/reset_webhook_secret`. */
export class ResetWebhookSecretDto {
  @ApiProperty({ description: 'A webhook URL the policy pages.' })
  @IsString()
  @MaxLength(2048)
  url!: string;
}

export class EscalationTargetDto implements EscalationTargetView {
  @ApiProperty({ enum: ESCALATION_TARGET_TYPES })
  type!: EscalationTargetType;

  @ApiProperty({ type: 'integer', nullable: true })
  schedule_id!: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Null when the schedule has been deleted since (the rule pages nobody through it).' })
  schedule_name!: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  user_id!: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  username!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  url!: string | null;
}

export class EscalationRuleDto implements EscalationRuleView {
  @ApiProperty({ type: 'integer' })
  after_minutes!: number;

  @ApiProperty({ enum: ESCALATION_CONDITIONS })
  condition!: EscalationCondition;

  @ApiProperty({ type: [EscalationTargetDto] })
  targets!: EscalationTargetDto[];

  @ApiProperty({ example: 'after 5 min, if not acknowledged, page whoever is on call in Primary' })
  description!: string;
}

export class WebhookSecretDto implements WebhookSecretView {
  @ApiProperty()
  url!: string;

  @ApiProperty({ description: 'The HMAC-SHA256 key the pages to this URL are signed with; shown once.' })
  secret!: string;
}

export class EscalationPolicyDto implements EscalationPolicyView {
  @ApiProperty({ type: [EscalationRuleDto] })
  rules!: EscalationRuleDto[];

  @ApiProperty({ type: 'integer' })
  repeat!: number;

  @ApiProperty({ type: 'integer', description: "One loop's length: the last rule's minutes plus 5." })
  loop_minutes!: number;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  created_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  updated_at!: string | null;

  @ApiProperty({ type: [OncallUserDto], description: 'Members the policy can page who have no contact method.' })
  unreachable_users!: OncallUserDto[];

  @ApiProperty({ type: [WebhookSecretDto], description: 'Secrets of webhook URLs named for the first time by this change (shown once); empty otherwise.' })
  webhook_secrets!: WebhookSecretDto[];
}

export class EscalationPageDto implements EscalationPageView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ enum: PAGE_KINDS })
  kind!: PageKind;

  @ApiProperty({ type: 'integer' })
  loop!: number;

  @ApiProperty({ type: 'integer', nullable: true })
  rule!: number | null;

  @ApiProperty({ enum: PAGE_METHODS })
  method!: PageMethod;

  @ApiProperty({ type: OncallUserDto, nullable: true })
  user!: OncallUserDto | null;

  @ApiProperty({ description: 'The email address, or the webhook URL (a rule webhook target\'s as its origin only: its path may hold a token).' })
  address!: string;

  @ApiProperty({ enum: PAGE_STATUSES })
  status!: PageStatus;

  @ApiProperty({ type: 'integer' })
  attempts!: number;

  @ApiProperty({ type: 'string', nullable: true })
  error!: string | null;

  @ApiProperty({ format: 'date-time' })
  due_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  sent_at!: string | null;
}

export class EscalationStepDto implements EscalationStepView {
  @ApiProperty({ type: 'integer' })
  loop!: number;

  @ApiProperty({ type: 'integer' })
  rule!: number;

  @ApiProperty({ format: 'date-time' })
  due_at!: string;

  @ApiProperty()
  description!: string;
}

export class AlertEscalationDto implements AlertEscalationView {
  @ApiProperty({ enum: ESCALATION_STATES })
  state!: EscalationState;

  @ApiProperty({ type: 'integer' })
  run!: number;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  started_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  ended_at!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  ended_reason!: string | null;

  @ApiProperty({ type: [EscalationRuleDto], description: 'The policy as the run started with it (webhook URLs as their origin).' })
  rules!: EscalationRuleDto[];

  @ApiProperty({ type: 'integer' })
  repeat!: number;

  @ApiProperty({ type: 'integer' })
  loop_minutes!: number;

  @ApiProperty({ type: EscalationStepDto, nullable: true })
  next_step!: EscalationStepDto | null;

  @ApiProperty({ type: [EscalationPageDto] })
  pages!: EscalationPageDto[];
}

/** Body of `POST /user/contact_methods`. */
export class CreateContactMethodDto {
  @ApiProperty({ enum: CONTACT_METHOD_TYPES })
  @IsIn(CONTACT_METHOD_TYPES)
  type!: ContactMethodType;

  @ApiProperty({ maxLength: 100, example: 'Work email' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiProperty({ description: 'An email address, or an http(s) URL without credentials.', example: 'jane@example.com' })
  @IsString()
  @MaxLength(2048)
  address!: string;
}

export class ContactMethodDto implements ContactMethodView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ enum: CONTACT_METHOD_TYPES })
  type!: ContactMethodType;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  address!: string;

  @ApiProperty({ type: 'string', nullable: true, description: "A webhook's signing secret, in the answer that creates it only." })
  secret!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** Body of `POST /user/notification_rules`. */
export class CreateNotificationRuleDto {
  @ApiProperty({ type: 'integer', description: 'One of your contact methods.' })
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  contact_method_id!: number;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1440, description: 'Minutes after the page (0: at once).' })
  @IsInt()
  after_minutes!: number;
}

export class NotificationRuleDto implements NotificationRuleView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ type: 'integer' })
  contact_method_id!: number;

  @ApiProperty({ type: 'integer' })
  after_minutes!: number;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** Body of `PUT /user/paging_settings`. */
export class UpdatePagingSettingsDto implements PagingSettingsView {
  @ApiProperty({ description: 'A notice when an alert you were paged for is acknowledged or resolved, and by whom.' })
  @IsBoolean()
  status_notices!: boolean;
}

export class PagingSettingsDto implements PagingSettingsView {
  @ApiProperty()
  status_notices!: boolean;
}

export class TestPageDto implements TestPageView {
  @ApiProperty()
  sent!: boolean;

  @ApiProperty({ type: 'string', nullable: true, description: "The SMTP server's or the webhook's refusal, or why nothing was sent." })
  error!: string | null;
}

/** The media types of the on-call setup as YAML (GET with `Accept`, PUT with `Content-Type`); JSON otherwise. */
export const ONCALL_CONFIG_YAML_TYPES = ['text/yaml', 'application/yaml', 'application/x-yaml'] as const;

/** Query of `PUT /projects/:id/oncall_config`. */
export class OncallConfigQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: answer the plan, apply nothing.' })
  @IsOptional()
  @IsIn(['true', 'false'])
  dry_run?: 'true' | 'false';
}

export class OncallConfigChangeDto implements OncallConfigChange {
  @ApiProperty({ enum: ONCALL_CONFIG_ACTIONS })
  action!: OncallConfigAction;

  @ApiProperty({ enum: ONCALL_CONFIG_KINDS })
  kind!: OncallConfigKind;

  @ApiProperty({ example: 'Primary/Days', description: '`<schedule>`, `<schedule>/<rotation>` or `escalation_policy`.' })
  key!: string;
}

export class OncallConfigResultDto implements OncallConfigResult {
  @ApiProperty({ description: 'Whether it was applied (false for a dry run).' })
  applied!: boolean;

  @ApiProperty({ example: '"3f2a…"', description: 'The version of the setup now (the ETag GET gives).' })
  etag!: string;

  @ApiProperty({ type: [OncallConfigChangeDto] })
  changes!: OncallConfigChangeDto[];
}

/** The on-call setup document as the OpenAPI document sketches it; its JSON Schema (`oncall_config/schema`) is its full description. */
export class OncallConfigDocumentDto {
  @ApiProperty({ type: 'integer', example: 1 })
  version!: number;

  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Schedules with their rotations, by name.' })
  schedules!: object[];

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The escalation policy (`repeat`, `rules` with targets by schedule name, username or webhook URL); null: none.' })
  escalation_policy!: object | null;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, readOnly: true, description: 'How the members the policy can page are paged (read-only).' })
  users?: object[];
}
