import { ALERT_STATUSES, AlertAssignee, AlertSettingsView, AlertStatus, IncidentAlertView, INCIDENT_STATUSES, IncidentCreator, IncidentStatus, IncidentStatusCounts, IncidentView, SEVERITIES, Severity } from '@alert-ingestion/contracts';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { AlertAssigneeDto } from './alerts-responses.dto';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';

// The incidents and alert settings API's HTTP shapes (docs/api-guide.md "Incidents", "Alert settings").

const TITLE_MAX = 255;
const DESCRIPTION_MAX = 100_000;

/** Query of `GET /projects/:id/incidents`. */
export class ListIncidentsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: INCIDENT_STATUSES })
  @IsOptional()
  @IsIn(INCIDENT_STATUSES)
  status?: IncidentStatus;

  @ApiPropertyOptional({ description: 'Text searched (case-insensitive) in the title and description.', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;
}

/** Body of `POST /projects/:id/incidents`. */
export class CreateIncidentDto {
  @ApiProperty({ maxLength: TITLE_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(TITLE_MAX)
  title!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: DESCRIPTION_MAX, description: 'Markdown.' })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ enum: SEVERITIES, default: 'critical' })
  @IsOptional()
  @IsIn(SEVERITIES)
  severity?: Severity;
}

/** Body of `PUT /projects/:id/incidents/:iid`: any of these. Closing resolves the linked alerts. */
export class UpdateIncidentDto {
  @ApiPropertyOptional({ enum: INCIDENT_STATUSES, description: '`closed` resolves every linked alert that is not resolved; `open` reopens.' })
  @IsOptional()
  @IsIn(INCIDENT_STATUSES)
  status?: IncidentStatus;

  @ApiPropertyOptional({ maxLength: TITLE_MAX })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(TITLE_MAX)
  title?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ enum: SEVERITIES })
  @IsOptional()
  @IsIn(SEVERITIES)
  severity?: Severity;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, description: 'The member who owns the incident (Developer role or higher); null: nobody.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  owner_id?: number | null;
}

/** Body of `POST /projects/:id/incidents/:iid/alerts`. */
export class LinkIncidentAlertDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The iid of the alert to link.' })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  alert_iid!: number;
}

/** Body of `PUT /projects/:id/alert_settings`: any of the three switches. */
export class UpdateAlertSettingsDto {
  @ApiPropertyOptional({ description: 'Open an incident for each triggered alert (not for grouped events or resolutions).' })
  @IsOptional()
  @IsBoolean()
  create_incident?: boolean;

  @ApiPropertyOptional({ description: 'Email owners and maintainers on new and resolved alerts.' })
  @IsOptional()
  @IsBoolean()
  send_email?: boolean;

  @ApiPropertyOptional({ description: "Close an alert's incident when a recovery payload resolves its last alert that is not resolved (a manual resolve does not)." })
  @IsOptional()
  @IsBoolean()
  auto_close_incident?: boolean;
}

/** An incident opened by a user. */
export class UserIncidentCreatorDto {
  @ApiProperty({ enum: ['user'] })
  type!: 'user';

  @ApiProperty({ type: 'integer', nullable: true, description: 'The user (null: the administrator token).' })
  id!: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  username!: string | null;
}

/** An incident opened from an alert (by hand or by the create_incident setting). */
export class AlertIncidentCreatorDto {
  @ApiProperty({ enum: ['alert'] })
  type!: 'alert';

  @ApiProperty({ type: 'integer', nullable: true, description: 'The alert it was opened from (null: since deleted).' })
  alert_iid!: number | null;
}

@ApiExtraModels(UserIncidentCreatorDto, AlertIncidentCreatorDto)
export class IncidentDto implements IncidentView {
  @ApiProperty({ type: 'integer', description: 'Counts from 1 per project.' })
  iid!: number;

  @ApiProperty()
  title!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Markdown.' })
  description!: string | null;

  @ApiProperty({ enum: SEVERITIES })
  severity!: Severity;

  @ApiProperty({ enum: INCIDENT_STATUSES })
  status!: IncidentStatus;

  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(UserIncidentCreatorDto) }, { $ref: getSchemaPath(AlertIncidentCreatorDto) }], description: 'A user or an alert.' })
  created_by!: IncidentCreator;

  @ApiProperty({ type: AlertAssigneeDto, nullable: true, description: 'The member who owns the incident, or null.' })
  owner!: AlertAssignee | null;

  @ApiProperty({ type: [Number], description: 'The iids of the linked alerts, lowest first.' })
  alert_iids!: number[];

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  closed_at!: string | null;
}

/** One of an incident's alerts (`GET .../incidents/:iid/alerts`). */
export class IncidentAlertDto implements IncidentAlertView {
  @ApiProperty({ type: 'integer' })
  iid!: number;

  @ApiProperty()
  title!: string;

  @ApiProperty({ enum: SEVERITIES })
  severity!: Severity;

  @ApiProperty({ enum: ALERT_STATUSES })
  status!: AlertStatus;

  @ApiProperty({ type: 'integer', description: 'How many payloads were grouped into the alert.' })
  events!: number;

  @ApiProperty({ format: 'date-time' })
  started_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  ended_at!: string | null;

  @ApiProperty({ format: 'date-time', description: 'Its latest payload: the first, the latest grouped into it or its recovery, whichever is last.' })
  last_event_at!: string;
}

export class IncidentStatusCountsDto implements IncidentStatusCounts {
  @ApiProperty({ type: 'integer' })
  open!: number;

  @ApiProperty({ type: 'integer' })
  closed!: number;

  @ApiProperty({ type: 'integer' })
  all!: number;
}

export class AlertSettingsDto implements AlertSettingsView {
  @ApiProperty()
  create_incident!: boolean;

  @ApiProperty()
  send_email!: boolean;

  @ApiProperty()
  auto_close_incident!: boolean;

  @ApiProperty({ description: 'Whether the service has an SMTP server (SMTP_URL): without one, send_email sends nothing.' })
  email_configured!: boolean;
}
