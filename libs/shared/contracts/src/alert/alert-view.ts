import type { HttpSchemas } from '../http';
import { Integer, Timestamp } from '../json-types';
import { AlertStatus, Severity } from './platform-alert-field';
import { AlertSilence } from './silence';

// The alerts API's answers are the schemas of the OpenAPI document (../http) under the names the
// services and the console use, except the shapes alert events carry (AlertView, AlertAssignee,
// AlertSilence): the event schemas are generated from these TypeScript types (tools/asyncapi), which
// ts-json-schema-generator cannot read from the generated file, so they are written out here and
// event-views.check.ts holds each to its schema.

/**
 * An alert as the query API returns it and as alert events carry it (CONTRACT.md "alert"): one shape
 * on both, ids as numbers.
 */
export interface AlertView {
  iid: Integer;
  title: string;
  description: string | null;
  severity: Severity;
  status: AlertStatus;
  events: Integer;
  started_at: Timestamp;
  ended_at: Timestamp | null;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[];
  platform_environment_name: string | null;
  fingerprint: string | null;
  integration_id: Integer;
  payload: unknown;
  /** The active silence that matched the alert at its last change (create, group, resolve), else null. */
  silenced_by: AlertSilence | null;
  /** The project members the alert is assigned to, in the order they were given. */
  assignees: AlertAssignee[];
  /** The incident the alert is linked to (its iid), or null. */
  incident_iid: Integer | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An assignee of an alert: a project member (developer+). */
export interface AlertAssignee {
  id: Integer;
  username: string;
}

/** One element of the receive answer (spec 4.1): an alert created or grouped into. */
export type CreatedAlert = HttpSchemas['CreatedAlertDto'];

/** `GET /projects/:id/alerts/status_counts`: alerts per status, `open` (triggered + acknowledged) and `all`. */
export type AlertStatusCounts = HttpSchemas['AlertStatusCountsDto'];

/**
 * One request to an integration's URL and the gateway's answer (`GET .../deliveries`): refusals
 * (400, 401, 413, 429) included, a 202 updated once processed. Never a credential.
 */
export type Delivery = HttpSchemas['DeliveryDto'];

/** Which of an integration's authorization keys a request used (key rotation with a grace period). */
export const AUTHORIZATION_KEYS_USED = ['current', 'previous'] as const;
export type AuthorizationKeyUsed = (typeof AUTHORIZATION_KEYS_USED)[number];
