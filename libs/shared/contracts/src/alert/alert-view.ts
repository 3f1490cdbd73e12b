import { Integer, Timestamp } from '../json-types';
import { AlertStatus, Severity } from './platform-alert-field';
import { AlertSilence } from './silence';

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
export interface CreatedAlert {
  iid: number;
  title: string;
}

/** `GET /projects/:id/alerts/status_counts`: alerts per status, `open` (triggered + acknowledged) and `all`. */
export interface AlertStatusCounts extends Record<AlertStatus, number> {
  open: number;
  all: number;
}

/**
 * One request to an integration's URL and the gateway's answer (`GET .../deliveries`): refusals
 * (400, 401, 413, 429) included, a 202 updated once processed. Never a credential.
 */
export interface Delivery {
  id: number;
  received_at: string;
  /** The request's X-Request-Id. */
  request_id: string;
  /** The status the gateway answered (a 202 becomes its 200 once processed). */
  status: number;
  /** The answer's error code, or null. */
  error: string | null;
  alerts: CreatedAlert[];
  /** The body as received, its first 64 KiB. */
  body: string;
  body_size: number;
  body_truncated: boolean;
  /**
   * Which authorization key the request presented: the integration's current one, or its previous
   * one during a key rotation's grace period; null when none matched (or none was checked).
   */
  authorization_key: AuthorizationKeyUsed | null;
  /**
   * When the request used a previous key: that key's expiry, which tells the previous keys apart
   * (the integration lists each with its `expires_at`); null for the current key or none.
   */
  authorization_key_expires_at: string | null;
}

/** Which of an integration's authorization keys a request used (key rotation with a grace period). */
export const AUTHORIZATION_KEYS_USED = ['current', 'previous'] as const;
export type AuthorizationKeyUsed = (typeof AUTHORIZATION_KEYS_USED)[number];
