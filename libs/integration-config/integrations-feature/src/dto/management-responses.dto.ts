import {
  ACCESS_LEVELS,
  AccessLevel,
  CreatedAlert,
  CreatedUser,
  CurrentUser,
  User,
  HEARTBEAT_STATUSES,
  HeartbeatStatus,
  Integration,
  IntegrationListItem,
  INTEGRATION_TYPES,
  IntegrationType,
  LinkDeprecation,
  Member,
  PAYLOAD_FIELD_TYPES,
  PreviousAuthorizationKey,
  PayloadAlertField,
  PayloadFieldMappingEntry,
  PayloadFieldType,
  PayloadPath,
  PLATFORM_ALERT_FIELDS,
  PlatformAlertField,
  PreviewAlert,
  TestAlertSample,
  Project,
  PROJECT_TIERS,
  ProjectTier,
  ProjectWithAccess,
  TestAlertResult,
} from '@alert-ingestion/contracts';
import { AlertDto, CreatedAlertDto } from '@alert-ingestion/alerts-api';
import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';

// The management API's answers as the OpenAPI document describes them (CONTRACT.md "Management API").
// Each class implements the contract's type (libs/shared/contracts), which the services return and the
// console reads, so the three cannot drift apart.

export class UserDto implements User {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  username!: string;

  @ApiProperty({ type: 'string', nullable: true, format: 'email', description: 'Where alert emails go; null: none.' })
  email!: string | null;
}

export class CreatedUserDto extends UserDto implements CreatedUser {
  @ApiProperty({ description: 'The personal access token, shown only in this answer.' })
  token!: string;

  @ApiProperty({ format: 'date-time' })
  token_expires_at!: string;
}

export class CurrentUserDto implements CurrentUser {
  @ApiProperty({ type: 'integer', nullable: true, description: 'null for the administrator token, which belongs to no user.' })
  id!: number | null;

  @ApiProperty()
  username!: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    format: 'email',
    description: "The user's email address; null for none and for the administrator token. Always sent (optional in the contract type only for clients that keep an older answer).",
  })
  email?: string | null;

  @ApiProperty()
  is_admin!: boolean;
}

export class ProjectDto implements Project {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ example: 'acme/web' })
  path!: string;

  @ApiProperty({ enum: PROJECT_TIERS })
  tier!: ProjectTier;
}

export class ProjectWithAccessDto extends ProjectDto implements ProjectWithAccess {
  @ApiProperty({ enum: ACCESS_LEVELS, nullable: true, description: "The caller's role; null for the administrator." })
  access_level!: AccessLevel | null;
}

export class MemberDto implements Member {
  @ApiProperty({ type: 'integer' })
  user_id!: number;

  @ApiProperty()
  username!: string;

  @ApiProperty({ enum: ACCESS_LEVELS })
  access_level!: AccessLevel;
}

/** A user who can be added to a project. */
export class MemberCandidateDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  username!: string;
}

export class PayloadFieldMappingEntryDto implements PayloadFieldMappingEntry {
  @ApiProperty({ enum: PLATFORM_ALERT_FIELDS })
  field_name!: PlatformAlertField;

  /** A path into a JSON payload: object keys and array indices. */
  @ApiProperty({ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] }, example: ['labels', 'hosts', 0] })
  path!: PayloadPath;

  @ApiProperty({ enum: PAYLOAD_FIELD_TYPES })
  type!: PayloadFieldType;
}

export class LinkDeprecationDto implements LinkDeprecation {
  @ApiProperty({ example: '13.8' })
  deprecated_in!: string;

  @ApiProperty()
  message!: string;
}

/** An integration as the list shows it to developers and up: no URL, key, sample payload or mapping. */
export class IntegrationListItemDto implements IntegrationListItem {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: INTEGRATION_TYPES })
  type!: IntegrationType;

  @ApiProperty()
  active!: boolean;
}

export class PreviousAuthorizationKeyDto implements PreviousAuthorizationKey {
  @ApiProperty({ description: 'The replaced key, still accepted until expires_at.' })
  authorization_key!: string;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;
}

export class IntegrationDto extends IntegrationListItemDto implements Integration {
  @ApiProperty({ type: 'string', nullable: true, description: 'The receiving URL; null for the external link, which receives nothing.' })
  url!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The authorization key (Bearer, or Basic password); null for the external link.' })
  authorization_key!: string | null;

  @ApiProperty({
    type: PreviousAuthorizationKeyDto,
    nullable: true,
    description: 'During a key rotation with a grace period: the latest previous key and when it stops working (the first of previous_authorization_keys); null otherwise.',
  })
  previous_authorization_key!: PreviousAuthorizationKey | null;

  @ApiProperty({
    type: [PreviousAuthorizationKeyDto],
    description: 'Every previous key that still works, newest first, each until its own expires_at (at most two).',
  })
  previous_authorization_keys!: PreviousAuthorizationKey[];

  @ApiProperty({ type: 'string', nullable: true, description: 'The webhook signing secret (HMAC-SHA256 of request bodies); null: requests are not signed.' })
  signing_secret!: string | null;

  @ApiProperty({
    type: 'boolean',
    description: 'true: X-Grafana-Alerting-Signature is accepted without a timestamp header (replayable once the replay cache forgets it); false: refused as missing_signature_timestamp.',
  })
  allow_signature_without_timestamp!: boolean;

  @ApiProperty({ type: 'string', nullable: true, description: 'JSON text (Premium).' })
  sample_payload!: string | null;

  @ApiProperty({ type: [PayloadFieldMappingEntryDto] })
  payload_field_mapping!: PayloadFieldMappingEntry[];

  @ApiProperty({ type: 'string', nullable: true, description: 'external_link only.' })
  api_url!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "Requests per minute the gateway takes; null: the gateway's default." })
  rate_limit_per_minute!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, maximum: 1440, description: 'A request is expected at least every this many minutes; null: no heartbeat.' })
  heartbeat_interval_minutes!: number | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'The last request to the URL the gateway accepted (answered 200 or 202); null before the first.' })
  last_request_at!: string | null;

  @ApiProperty({ enum: HEARTBEAT_STATUSES, description: 'off: no interval, or inactive; waiting: no request yet; expired: none within the interval; else ok.' })
  heartbeat_status!: HeartbeatStatus;

  @ApiPropertyOptional({ type: LinkDeprecationDto, description: 'external_link only (spec 2.3 rule 3).' })
  link_deprecation?: LinkDeprecation;
}

/** A field of a sample payload: its path documented once (PayloadFieldMappingEntryDto). */
export class PayloadAlertFieldDto extends PickType(PayloadFieldMappingEntryDto, ['path'] as const) implements PayloadAlertField {
  @ApiProperty({ example: 'labels.hosts[0]' })
  label!: string;

  @ApiProperty({ enum: PAYLOAD_FIELD_TYPES })
  type!: PayloadFieldType;
}

export class PayloadAlertFieldsDto {
  @ApiProperty({ type: [PayloadAlertFieldDto] })
  payload_alert_fields!: PayloadAlertField[];
}

export class TestAlertResultDto implements TestAlertResult {
  @ApiProperty({ example: 'The test alert was processed.' })
  message!: string;

  @ApiProperty({ type: [CreatedAlertDto], description: 'The alerts created or grouped into (empty while processing is under way).' })
  alerts!: CreatedAlert[];

  @ApiPropertyOptional({ description: "202 only: the gateway's request id, to find the alert later." })
  request_id?: string;
}

/** The alert fields a preview shares with a stored alert, documented once (AlertDto). */
const PREVIEWED_ALERT_FIELDS = [
  'title',
  'description',
  'severity',
  'started_at',
  'ended_at',
  'service',
  'monitoring_tool',
  'hosts',
  'fingerprint',
  'platform_environment_name',
] as const;

export class PreviewAlertDto extends PickType(AlertDto, PREVIEWED_ALERT_FIELDS) implements PreviewAlert {
  @ApiProperty({ type: 'string', nullable: true, description: "The payload's own fingerprint as the alert would store it." })
  override fingerprint!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'What grouping compares (SHA-256 hex); null when the alert is never grouped.' })
  grouping_key!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The payload of this alert, as it would be kept.' })
  payload!: PreviewAlert['payload'];
}

export class PreviewResultDto {
  @ApiProperty({ type: [PreviewAlertDto], description: 'One per alert the payload would create or group into; nothing is stored.' })
  alerts!: PreviewAlert[];
}

export class TestAlertSampleDto implements TestAlertSample {
  @ApiProperty({ type: 'string', nullable: true, description: "The integration's sample payload (JSON text) to start a test payload from; null when it has none." })
  sample_payload!: string | null;

  @ApiProperty({ description: "Whether the integration's custom mapping applies to what it receives (Premium, with a mapping); the mapping itself is maintainer+." })
  custom_mapping!: boolean;
}
