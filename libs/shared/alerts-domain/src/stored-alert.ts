import { AlertEvent, AlertStatus, AlertView, Severity } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';
import { SilenceReference } from './silence-matchers';

/** A stored alert, as the database keeps it (ids of bigint columns as decimal strings). */
export interface StoredAlert {
  id: string;
  project_id: string;
  iid: number;
  integration_id: string;
  title: string;
  description: string | null;
  severity: Severity;
  status: AlertStatus;
  events: number;
  started_at: Date;
  ended_at: Date | null;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[] | null;
  platform_environment_name: string | null;
  fingerprint: string | null;
  fingerprint_sha256: string | null;
  payload: JsonObject;
  /** The silence that matched the payload of the alert's last change (create, group, resolve) while that silence is active, else null. */
  silenced_by: SilenceReference | null;
  /** The incident the alert is linked to (its database id), or null. */
  incident_id: string | null;
  /** That incident's iid, or null. */
  incident_iid: number | null;
  /** Assignees, in the order given (user ids as decimal strings; usernames never change). */
  assignees: StoredAssignee[];
  /** When the first and the latest payload were grouped into the alert (the timeline's `events_grouped`); null: none yet. */
  first_grouped_at: Date | null;
  last_grouped_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An assignee as stored with the alert. */
export interface StoredAssignee {
  id: string;
  username: string;
}

/** An alert's content, which its events carry: the stored alert without its database id. */
export type AlertState = Omit<StoredAlert, 'id'>;

/** An alert event to publish on alerts.events.v1, keyed by the alert's project and iid. */
export interface AlertEventOut {
  projectId: string;
  iid: number;
  value: AlertEvent.AlertEventValue;
}

/** The contract's `alert`, as the query API returns it and alert events carry it. */
export function alertView(alert: AlertState): AlertView {
  return {
    iid: alert.iid,
    title: alert.title,
    description: alert.description,
    severity: alert.severity,
    status: alert.status,
    events: alert.events,
    started_at: alert.started_at.toISOString(),
    ended_at: alert.ended_at ? alert.ended_at.toISOString() : null,
    service: alert.service,
    monitoring_tool: alert.monitoring_tool,
    hosts: alert.hosts ?? [],
    platform_environment_name: alert.platform_environment_name,
    fingerprint: alert.fingerprint,
    integration_id: Number(alert.integration_id),
    payload: alert.payload,
    silenced_by: alert.silenced_by && { id: Number(alert.silenced_by.id), comment: alert.silenced_by.comment, ends_at: alert.silenced_by.ends_at.toISOString() },
    assignees: alert.assignees.map(({ id, username }) => ({ id: Number(id), username })),
    incident_iid: alert.incident_iid ?? null,
    created_at: alert.created_at.toISOString(),
    updated_at: alert.updated_at.toISOString(),
  };
}

/** The event of one change to an alert, carrying the alert as it is right after that change and who or what made it. */
export function alertEvent(type: AlertEvent.AlertEventType, alert: AlertState, now: Date, cause: AlertEvent.AlertEventCause): AlertEventOut {
  return {
    projectId: alert.project_id,
    iid: alert.iid,
    value: { type, occurred_at: now.toISOString(), project_id: Number(alert.project_id), alert: alertView(alert), cause },
  };
}

/** The cause of a change a payload of `integrationId` made (created, grouped into or resolved an alert). */
export function payloadCause(integrationId: string): AlertEvent.AlertEventCause {
  return { type: 'payload', integration_id: Number(integrationId) };
}
