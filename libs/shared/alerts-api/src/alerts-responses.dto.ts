import { AlertAssignee, AUTHORIZATION_KEYS_USED, AuthorizationKeyUsed, ALERT_STATUSES, AlertStatus, AlertStatusCounts, AlertView, CreatedAlert, Delivery, SEVERITIES, Severity } from '@alert-ingestion/contracts';
import { ApiProperty } from '@nestjs/swagger';
import { AlertSilenceDto } from './silences.dto';

// The alerts query API's answers as the OpenAPI documents describe them (CONTRACT.md "alert",
// "deliveries"). The classes implement the contract's types where they are shared; the processor's
// controllers return these classes, so what the services answer and what is documented cannot drift.

/** Every JSON type, for a field that may hold any JSON value (with `nullable: true`). */
const ANY_JSON_VALUE = [{ type: 'object' }, { type: 'array', items: {} }, { type: 'string' }, { type: 'number' }, { type: 'boolean' }];

export class AlertAssigneeDto implements AlertAssignee {
  @ApiProperty({ type: 'integer', description: 'The user id.' })
  id!: number;

  @ApiProperty()
  username!: string;
}

export class AlertDto implements AlertView {
  @ApiProperty({ type: 'integer', description: 'Counts from 1 per project.' })
  iid!: number;

  @ApiProperty({ example: 'New: Alert' })
  title!: string;

  @ApiProperty({ type: 'string', nullable: true })
  description!: string | null;

  @ApiProperty({ enum: SEVERITIES })
  severity!: Severity;

  @ApiProperty({ enum: ALERT_STATUSES })
  status!: AlertStatus;

  @ApiProperty({ type: 'integer', description: 'The events counter: payloads grouped into this alert.' })
  events!: number;

  @ApiProperty({ format: 'date-time' })
  started_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  ended_at!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  service!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  monitoring_tool!: string | null;

  @ApiProperty({ type: [String] })
  hosts!: string[];

  @ApiProperty({ type: 'string', nullable: true })
  platform_environment_name!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  fingerprint!: string | null;

  @ApiProperty({ type: 'integer' })
  integration_id!: number;

  // Any JSON value (an alert of a batch is an object, but the contract promises no shape): a schema
  // without a type. Swagger gives a field declared `unknown` the type object unless it has anyOf.
  @ApiProperty({ description: 'The payload as received (any JSON value).', nullable: true, anyOf: ANY_JSON_VALUE })
  payload!: unknown;

  @ApiProperty({
    type: AlertSilenceDto,
    nullable: true,
    description: 'The active silence that matched the alert at its last create, group or resolve; null when none does (or once it has ended).',
  })
  silenced_by!: AlertSilenceDto | null;

  @ApiProperty({ type: [AlertAssigneeDto], description: 'The project members (developer+) the alert is assigned to.' })
  assignees!: AlertAssigneeDto[];

  @ApiProperty({ type: 'integer', nullable: true, description: 'The iid of the incident the alert is linked to, or null.' })
  incident_iid!: number | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class AlertStatusCountsDto implements AlertStatusCounts {
  @ApiProperty({ type: 'integer' })
  triggered!: number;

  @ApiProperty({ type: 'integer' })
  acknowledged!: number;

  @ApiProperty({ type: 'integer' })
  resolved!: number;

  @ApiProperty({ type: 'integer' })
  ignored!: number;

  @ApiProperty({ type: 'integer', description: 'triggered + acknowledged' })
  open!: number;

  @ApiProperty({ type: 'integer' })
  all!: number;
}

export class CreatedAlertDto implements CreatedAlert {
  @ApiProperty({ type: 'integer' })
  iid!: number;

  @ApiProperty()
  title!: string;
}

export class DeliveryDto implements Delivery {
  @ApiProperty({
    enum: AUTHORIZATION_KEYS_USED,
    nullable: true,
    description: "Which authorization key the request used: the integration's current one, or a previous one during a rotation's grace period; null when none matched.",
  })
  authorization_key!: AuthorizationKeyUsed | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: "With a previous key: that key's expiry, which names it among the integration's previous_authorization_keys; null otherwise.",
  })
  authorization_key_expires_at!: string | null;

  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ format: 'date-time' })
  received_at!: string;

  @ApiProperty({ description: "The request's X-Request-Id." })
  request_id!: string;

  @ApiProperty({ type: 'integer', description: 'The status the gateway answered (a 202 becomes its 200 once processed).', example: 200 })
  status!: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'The error code of a refusal.' })
  error!: string | null;

  @ApiProperty({ type: [CreatedAlertDto] })
  alerts!: CreatedAlert[];

  @ApiProperty({ description: 'The body as received (its first 64 KiB); never a header, so never a credential.' })
  body!: string;

  @ApiProperty({ type: 'integer' })
  body_size!: number;

  @ApiProperty()
  body_truncated!: boolean;
}
