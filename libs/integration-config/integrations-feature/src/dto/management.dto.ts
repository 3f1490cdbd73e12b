import {
  ACCESS_LEVELS,
  AccessLevel,
  INTEGRATION_TYPES,
  IntegrationChanges,
  IntegrationType,
  MAX_KEY_GRACE_PERIOD_MINUTES,
  PROJECT_TIERS,
  ProjectTier,
  SIGNING_SECRET_MAX_LENGTH,
  SIGNING_SECRET_MIN_LENGTH,
} from '@alert-ingestion/contracts';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { PayloadFieldMappingEntryDto } from './management-responses.dto';

export class CreateUserDto {
  @ApiProperty({ maxLength: 255, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$', example: 'jane' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { message: 'username may hold letters, digits, "_", "." and "-", and starts with a letter or digit' })
  @MaxLength(255)
  username!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 254, format: 'email', example: 'jane@example.com', description: 'Where alert emails go (stored lower-case, unique).' })
  @EmailAddress()
  email?: string | null;
}

/**
 * An email address field: a real address (name@domain.tld, surrounding spaces ignored), at most 254
 * characters; null or empty for none. `required`: the field must be given (null to clear).
 */
function EmailAddress(required = false): PropertyDecorator {
  return (target, property) => {
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))(target, property);
    if (required) IsDefined({ message: 'email is required (null removes it)' })(target, property);
    ValidateIf((_object: object, value: unknown) => value !== '' && value !== null && (required || value !== undefined))(target, property);
    IsString()(target, property);
    MaxLength(254)(target, property);
    IsEmail({ require_tld: true, allow_display_name: false, allow_ip_domain: false }, { message: 'email must be an email address, such as jane@example.com' })(target, property);
  };
}

/** Body of `PUT /users/:id` (administrator) and `PUT /user` (the user): the email address, null or empty for none. */
export class UpdateUserDto {
  @ApiProperty({ type: 'string', nullable: true, maxLength: 254, format: 'email', example: 'jane@example.com', description: 'Where alert emails go; null or "" removes it.' })
  @EmailAddress(true)
  email!: string | null;
}

export class CreateProjectDto {
  @ApiProperty({ description: 'One or more "/"-separated names.', maxLength: 255, example: 'acme/web' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/, {
    message: 'path is one or more "/"-separated names of letters, digits, "_", "." and "-"',
  })
  @MaxLength(255)
  path!: string;

  @ApiProperty({ enum: PROJECT_TIERS })
  @IsIn(PROJECT_TIERS)
  tier!: ProjectTier;
}

export class UpdateProjectDto {
  @ApiProperty({ enum: PROJECT_TIERS })
  @IsIn(PROJECT_TIERS)
  tier!: ProjectTier;
}

/** Query of `GET /projects`: the path search and the page. */
export class ListProjectsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'Text searched in the project path (case-insensitive).', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;
}

export class UpdateMemberDto {
  @ApiProperty({ enum: ACCESS_LEVELS })
  @IsIn(ACCESS_LEVELS)
  access_level!: AccessLevel;
}

export class AddMemberDto extends UpdateMemberDto {
  @ApiProperty({ type: 'integer', minimum: 1 })
  @IsInt()
  @Min(1)
  user_id!: number;
}

/** Query of `GET /projects/:id/members/candidates`. */
export class MemberCandidatesQueryDto {
  @ApiPropertyOptional({ description: 'Text searched in the username (case-insensitive); usernames that start with it come first.', maxLength: 255, example: 'mar' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;
}

/**
 * Any of name, active, sample_payload, payload_field_mapping, api_url (CONTRACT.md). The mapping is
 * taken as any array here: its entries are the domain's to check.
 */
export class UpdateIntegrationDto implements Omit<IntegrationChanges, 'type' | 'payload_field_mapping'> {
  @ApiPropertyOptional({ description: 'Premium: unique in the project. Free: not asked (a default name is given).', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Premium: a JSON text. Changing it clears the mapping unless the same request sets one.' })
  @IsOptional()
  @IsString({ message: 'sample_payload must be a string holding JSON' })
  sample_payload?: string | null;

  @ApiPropertyOptional({ type: [PayloadFieldMappingEntryDto], nullable: true, description: 'Premium: paths must exist in the sample payload.' })
  @IsOptional()
  @IsArray()
  payload_field_mapping?: unknown[] | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 2048, description: 'external_link only: base URL of the external tool\'s alert list.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  api_url?: string | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: "Requests per minute the gateway takes for this HTTP Endpoint; null: the gateway's default." })
  @IsOptional()
  @IsInt()
  @Min(1)
  rate_limit_per_minute?: number | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: SIGNING_SECRET_MIN_LENGTH,
    maxLength: SIGNING_SECRET_MAX_LENGTH,
    description:
      'HTTP Endpoint: the webhook signing secret. While set, every request must carry X-Grafana-Alerting-Signature or X-Hub-Signature-256 (HMAC-SHA256 of the body); null removes it.',
  })
  @IsOptional()
  @IsString()
  @Length(SIGNING_SECRET_MIN_LENGTH, SIGNING_SECRET_MAX_LENGTH)
  signing_secret?: string | null;

  /** Only the type is checked here: the rest is the domain's rule (signatureTimestampSwitchChange). */
  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description:
      'HTTP Endpoint with a signing secret: true accepts X-Grafana-Alerting-Signature without a timestamp header (such a request can be replayed once the gateway\'s replay cache has forgotten it, after 5 minutes); false (the default) refuses it as missing_signature_timestamp.',
  })
  @IsOptional()
  @IsBoolean()
  allow_signature_without_timestamp?: boolean;

  /** Only the type is checked here: the range is the domain's rule. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1440,
    nullable: true,
    description: 'HTTP Endpoint: a request is expected at least every this many minutes, else a heartbeat alert is raised; null: no heartbeat.',
  })
  @IsOptional()
  @IsInt()
  heartbeat_interval_minutes?: number | null;
}

/** `POST .../reset_authorization_key`: optionally, how long the replaced key keeps working. */
export class ResetAuthorizationKeyDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_KEY_GRACE_PERIOD_MINUTES,
    default: 0,
    description: 'Minutes the previous key keeps working (up to 7 days); 0: it stops at once.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_KEY_GRACE_PERIOD_MINUTES)
  grace_period_minutes?: number;

  @ApiPropertyOptional({
    default: false,
    description:
      'true: every previous key stops working at once (requests still using one are refused). Needed for a reset with a grace period while two previous keys still work.',
  })
  @IsOptional()
  @IsBoolean()
  revoke_previous_keys?: boolean;
}

/**
 * CONTRACT.md "Integrations": what an update may set, plus the type, which only creation chooses
 * (default: the HTTP Endpoint). Rules beyond shape are the domain's.
 */
export class CreateIntegrationDto extends UpdateIntegrationDto implements Omit<IntegrationChanges, 'payload_field_mapping'> {
  @ApiPropertyOptional({ enum: INTEGRATION_TYPES, default: 'http' })
  @IsOptional()
  @IsIn(INTEGRATION_TYPES)
  type?: IntegrationType;
}

export class ParseSamplePayloadDto {
  @ApiProperty({ description: 'The sample payload as JSON text.', example: '{"title": "Disk full", "labels": {"host": "db-1"}}' })
  @IsString({ message: 'sample_payload must be a string holding JSON' })
  sample_payload!: string;
}

export class TestAlertDto {
  @ApiProperty({
    description: 'The test payload as JSON text; a JSON object or array given directly is taken as its text.',
    oneOf: [{ type: 'string' }, { type: 'object' }, { type: 'array', items: {} }],
    example: '{"title": "Test alert"}',
  })
  @IsDefined({ message: 'payload is required: the test payload as JSON text' })
  payload!: unknown;
}

/** `POST .../preview`: a payload, as the test payload is given, and optionally a mapping to try. */
export class PreviewDto extends TestAlertDto {
  @ApiPropertyOptional({ type: [PayloadFieldMappingEntryDto], description: "A proposed payload field mapping; without it the integration's own applies." })
  @IsOptional()
  @IsArray()
  payload_field_mapping?: unknown[];
}

/** A payload given as JSON text, or as a JSON value taken as its text. */
export function payloadText(payload: unknown): string {
  return typeof payload === 'string' ? payload : JSON.stringify(payload);
}
