import { AlertStatus, Severity } from './platform-alert-field';

/**
 * An alert as the query API returns it and as alert events carry it (CONTRACT.md "alert"): one shape
 * on both, ids as numbers.
 */
export interface AlertView {
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

/** One element of the receive answer (spec 4.1): an alert created or grouped into. */
export interface CreatedAlert {
  iid: number;
  title: string;
}
