import { ActivityEntryView, AlertAssignee, AlertSettingsView, AlertSilence, AlertStatusCounts, AlertView, CreatedAlert, Delivery, IncidentStatusCounts, IncidentView, SilenceView } from '@alert-ingestion/contracts';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AlertAssigneeDto, AlertDto, AlertStatusCountsDto, CreatedAlertDto, DeliveryDto } from './alerts-responses.dto';
import { forwardedAlertsApiControllers } from './forwarded-alerts-api.controller';
import { AlertSettingsDto, IncidentDto, IncidentStatusCountsDto } from './incidents.dto';
import { AlertSilenceDto, SilenceCreatorDto, SilenceDto } from './silences.dto';
import { ActivityEntryDto } from './activity.dto';

// The answers' DTOs (their @ApiProperty decorators are what the OpenAPI documents say) against the
// contract's types (libs/shared/contracts: what the services build and the console reads). Two
// checks, as neither alone sees everything:
// - at compile time (npm run typecheck), each DTO and its contract type are the same type, and the
//   field list below is derived from the contract type: a field added, removed, retyped or made
//   nullable in the contract does not compile until the list says so;
// - at run time, the schema Swagger builds from each DTO has exactly those fields, each required,
//   of that kind and nullability.

/** A field's kind as a JSON schema says it: its type, `|null` when it may be null, `any` for any JSON value. */
type BaseKind<T> = unknown extends T ? 'any' : [T] extends [string] ? 'string' : [T] extends [number] ? 'number' : [T] extends [boolean] ? 'boolean' : [T] extends [readonly unknown[]] ? 'array' : 'object';
type Kind<T> = unknown extends T ? 'any' : null extends T ? `${BaseKind<NonNullable<T>>}|null` : BaseKind<T>;
type Fields<T> = { readonly [K in keyof T]-?: Kind<T[K]> };

/** True only when A and B are the same type: neither has a field the other lacks or types differently. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(proof: Same<A, B>) => proof;

same<AlertDto, AlertView>(true);
same<AlertSilenceDto, AlertSilence>(true);
same<AlertAssigneeDto, AlertAssignee>(true);
same<AlertStatusCountsDto, AlertStatusCounts>(true);
same<CreatedAlertDto, CreatedAlert>(true);
same<DeliveryDto, Delivery>(true);
same<SilenceDto, SilenceView>(true);
same<SilenceCreatorDto, NonNullable<SilenceView['created_by']>>(true);
same<IncidentDto, IncidentView>(true);
same<IncidentStatusCountsDto, IncidentStatusCounts>(true);
same<AlertSettingsDto, AlertSettingsView>(true);
same<ActivityEntryDto, ActivityEntryView>(true);

const ALERT: Fields<AlertView> = {
  iid: 'number',
  title: 'string',
  description: 'string|null',
  severity: 'string',
  status: 'string',
  events: 'number',
  started_at: 'string',
  ended_at: 'string|null',
  service: 'string|null',
  monitoring_tool: 'string|null',
  hosts: 'array',
  platform_environment_name: 'string|null',
  fingerprint: 'string|null',
  integration_id: 'number',
  payload: 'any',
  silenced_by: 'object|null',
  assignees: 'array',
  incident_iid: 'number|null',
  created_at: 'string',
  updated_at: 'string',
};
const ALERT_SILENCE: Fields<AlertSilence> = { id: 'number', comment: 'string', ends_at: 'string' };
const ALERT_ASSIGNEE: Fields<AlertAssignee> = { id: 'number', username: 'string' };
const STATUS_COUNTS: Fields<AlertStatusCounts> = { triggered: 'number', acknowledged: 'number', resolved: 'number', ignored: 'number', open: 'number', all: 'number' };
const CREATED_ALERT: Fields<CreatedAlert> = { iid: 'number', title: 'string' };
const DELIVERY: Fields<Delivery> = {
  id: 'number',
  received_at: 'string',
  request_id: 'string',
  status: 'number',
  error: 'string|null',
  alerts: 'array',
  body: 'string',
  body_size: 'number',
  body_truncated: 'boolean',
  authorization_key: 'string|null',
  authorization_key_expires_at: 'string|null',
};
const SILENCE: Fields<SilenceView> = {
  id: 'number',
  matchers: 'array',
  starts_at: 'string',
  ends_at: 'string',
  comment: 'string',
  created_by: 'object|null',
  created_at: 'string',
  updated_at: 'string',
  state: 'string',
};
const ACTIVITY_ENTRY: Fields<ActivityEntryView> = {
  id: 'number',
  kind: 'string',
  created_at: 'string',
  actor: 'object',
  source: 'string',
  reason: 'string|null',
  details: 'object',
};
const SILENCE_CREATOR: Fields<NonNullable<SilenceView['created_by']>> = { id: 'number', username: 'string' };

const INCIDENT: Fields<IncidentView> = {
  iid: 'number',
  title: 'string',
  description: 'string|null',
  severity: 'string',
  status: 'string',
  created_by: 'object',
  owner: 'object|null',
  alert_iids: 'array',
  created_at: 'string',
  updated_at: 'string',
  closed_at: 'string|null',
};
const INCIDENT_STATUS_COUNTS: Fields<IncidentStatusCounts> = { open: 'number', closed: 'number', all: 'number' };
const ALERT_SETTINGS: Fields<AlertSettingsView> = { create_incident: 'boolean', send_email: 'boolean', auto_close_incident: 'boolean', email_configured: 'boolean' };

const CONTRACT_SHAPES: Array<[string, Record<string, string>]> = [
  ['IncidentDto', INCIDENT],
  ['IncidentStatusCountsDto', INCIDENT_STATUS_COUNTS],
  ['AlertSettingsDto', ALERT_SETTINGS],
  ['AlertDto', ALERT],
  ['AlertSilenceDto', ALERT_SILENCE],
  ['AlertAssigneeDto', ALERT_ASSIGNEE],
  ['AlertStatusCountsDto', STATUS_COUNTS],
  ['CreatedAlertDto', CREATED_ALERT],
  ['DeliveryDto', DELIVERY],
  ['SilenceDto', SILENCE],
  ['SilenceCreatorDto', SILENCE_CREATOR],
  ['ActivityEntryDto', ACTIVITY_ENTRY],
];

interface PropertySchema {
  type?: string;
  nullable?: boolean;
  $ref?: string;
  allOf?: unknown[];
  anyOf?: Array<{ type?: string }>;
  oneOf?: Array<{ $ref?: string }>;
}

const JSON_TYPES = ['array', 'boolean', 'number', 'object', 'string'].join();

/** The kind a property schema gives its field, as Kind names it. */
function schemaKind(schema: PropertySchema): string {
  if (schema.type === undefined && schema.anyOf !== undefined) {
    const anyJson = schema.anyOf.map((option) => option.type).sort().join() === JSON_TYPES && schema.nullable === true;
    return anyJson ? 'any' : 'anyOf';
  }
  // One of several object schemas (an incident's creator: a user or an alert) is an object too.
  const oneOfObjects = schema.oneOf !== undefined && schema.oneOf.every((option) => option.$ref !== undefined);
  const base = schema.$ref !== undefined || schema.allOf !== undefined || oneOfObjects ? 'object' : schema.type === 'integer' ? 'number' : (schema.type ?? 'any');
  return schema.nullable ? `${base}|null` : base;
}

/** How a schema differs from a contract shape, as readable lines (none: `[]`). */
function mismatches(name: string, schema: { properties?: Record<string, PropertySchema>; required?: string[] } | undefined, fields: Record<string, string>): string[] {
  if (!schema) return [`${name}: not in the document`];
  const properties = schema.properties ?? {};
  const problems: string[] = [];
  for (const [field, kind] of Object.entries(fields)) {
    const property = properties[field];
    if (!property) problems.push(`${name}.${field}: in the contract, not in the schema`);
    else if (schemaKind(property) !== kind) problems.push(`${name}.${field}: the contract says ${kind}, the schema ${schemaKind(property)}`);
    if (!schema.required?.includes(field)) problems.push(`${name}.${field}: always present in the contract, optional in the schema`);
  }
  for (const field of Object.keys(properties)) if (!(field in fields)) problems.push(`${name}.${field}: in the schema, not in the contract`);
  return problems;
}

describe('the alerts API schemas against the contract types', () => {
  let document: OpenAPIObject;

  beforeAll(async () => {
    // The schemas as both services' documents carry them: Swagger reading the routes of ALERTS_API.
    const app = await NestFactory.create({ module: class SchemasModule {}, controllers: forwardedAlertsApiControllers('AlertsApi', 'alerts') }, { logger: false });
    document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    await app.close();
  });

  it.each(CONTRACT_SHAPES)('%s has the fields of the contract type, each of its kind and nullability', (name, fields) => {
    expect(mismatches(name, document.components?.schemas?.[name] as Parameters<typeof mismatches>[1], fields)).toEqual([]);
  });

  it('tells a schema that disagrees with the contract', () => {
    const schema = { properties: { iid: { type: 'integer' }, title: { type: 'string', nullable: true }, extra: { type: 'string' } }, required: ['iid'] };
    expect(mismatches('Thing', schema, { iid: 'number', title: 'string', gone: 'any' })).toEqual([
      'Thing.title: the contract says string, the schema string|null',
      'Thing.title: always present in the contract, optional in the schema',
      'Thing.gone: in the contract, not in the schema',
      'Thing.gone: always present in the contract, optional in the schema',
      'Thing.extra: in the schema, not in the contract',
    ]);
  });
});
