import type { HttpSchemas } from '../http';
import { Integer, Timestamp } from '../json-types';
import { Severity } from './platform-alert-field';

// Incidents of a project (docs/api-guide.md "Incidents"): the API's shapes, shared by the
// processor, the alerts proxy, incident events and the console.

export const INCIDENT_STATUSES = ['open', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Who opened an incident: a user (null id: the administrator token), or an alert (by hand or by the create_incident setting). */
export type IncidentCreator = { type: 'user'; id: Integer | null; username: string | null } | { type: 'alert'; alert_iid: Integer | null };

// Written out, as AlertView is (alert-view.ts): incident events carry it.
/** An incident as the API returns it and incident events carry it. */
export interface IncidentView {
  iid: Integer;
  title: string;
  description: string | null;
  severity: Severity;
  status: IncidentStatus;
  created_by: IncidentCreator;
  /** The member who owns the incident (`PUT .../incidents/:iid {owner_id}`), or null. */
  owner: { id: Integer; username: string } | null;
  /** The iids of the alerts linked to it, lowest first. */
  alert_iids: Integer[];
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
}

/**
 * One of an incident's alerts as `GET /projects/:id/incidents/:iid/alerts` lists them: enough to
 * follow the incident without reading each alert. `last_event_at` is the alert's latest payload:
 * the first, the latest grouped into it or its recovery, whichever is last.
 */
export type IncidentAlertView = HttpSchemas['IncidentAlertDto'];

/** `GET /projects/:id/incidents/status_counts`. */
export type IncidentStatusCounts = HttpSchemas['IncidentStatusCountsDto'];
