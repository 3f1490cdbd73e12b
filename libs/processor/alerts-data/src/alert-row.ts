import { AlertStatus, AlertView, Severity } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';

/** A row of `alerts` as node-postgres returns it (bigint as decimal strings, timestamptz as Date). */
export interface AlertRow {
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
  created_at: Date;
  updated_at: Date;
}

/** An alert's content, which its events carry: the row without its database id. */
export type AlertState = Omit<AlertRow, 'id'>;

export const ALERT_COLUMNS = `id, project_id, iid, integration_id, title, description, severity, status, events, started_at,
  ended_at, service, monitoring_tool, hosts, platform_environment_name, fingerprint, fingerprint_sha256, payload,
  created_at, updated_at`;

/** The contract's `alert`, as the query API returns it and alert events carry it. */
export function alertView(row: AlertState): AlertView {
  return {
    iid: row.iid,
    title: row.title,
    description: row.description,
    severity: row.severity,
    status: row.status,
    events: row.events,
    started_at: row.started_at.toISOString(),
    ended_at: row.ended_at ? row.ended_at.toISOString() : null,
    service: row.service,
    monitoring_tool: row.monitoring_tool,
    hosts: row.hosts ?? [],
    platform_environment_name: row.platform_environment_name,
    fingerprint: row.fingerprint,
    integration_id: Number(row.integration_id),
    payload: row.payload,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
