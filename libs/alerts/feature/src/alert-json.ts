import { AlertStatus, Severity } from '@alert-ingestion/contracts';
import { AlertRow } from '@alert-ingestion/alerts-data';

/** The contract's `alert` in the HTTP API: exactly these fields, ids as numbers (CONTRACT.md). */
export interface AlertJson {
  iid: number;
  title: string;
  description: string | null;
  severity: Severity;
  status: AlertStatus;
  events: number;
  started_at: string;
  ended_at: string | null;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[];
  platform_environment_name: string | null;
  fingerprint: string | null;
  integration_id: number;
  payload: unknown;
  created_at: string;
  updated_at: string;
}

export function alertJson(row: AlertRow): AlertJson {
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
