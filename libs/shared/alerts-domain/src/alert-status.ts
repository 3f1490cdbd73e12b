import { AlertEvent, AlertStatus } from '@alert-ingestion/contracts';
import { CommandRefusal, refusal } from './command-plan';
import { StoredAlert, StoredAssignee } from './stored-alert';

type AlertEventType = AlertEvent.AlertEventType;

export type StatusChange =
  | { changed: false }
  | { changed: true; status: AlertStatus; endedAt: Date | null; eventType: AlertEventType };

/**
 * A status change requested through the alerts API (CONTRACT.md "Alerts query API").
 * - Asking for the status the alert already has changes nothing and publishes nothing.
 * - Setting `resolved` publishes `alert.resolved`, the same event a recovery alert causes, so a
 *   subscriber learns of every resolution from one event type; `ended_at` becomes the time of the change.
 * - Any other change publishes `alert.status_changed`; leaving `resolved` clears `ended_at`.
 */
export function statusChange(current: AlertStatus, currentEndedAt: Date | null, requested: AlertStatus, now: Date): StatusChange {
  if (current === requested) return { changed: false };
  if (requested === 'resolved') return { changed: true, status: requested, endedAt: now, eventType: 'alert.resolved' };
  return {
    changed: true,
    status: requested,
    endedAt: current === 'resolved' ? null : currentEndedAt,
    eventType: 'alert.status_changed',
  };
}

/** What a status change is decided on, read and locked by the data layer. */
export interface StatusChangeState {
  /** The alert, locked; undefined when the project has no alert of that iid. */
  alert: StoredAlert | undefined;
  /** Another not-resolved alert of the alert's project and fingerprint (its iid), locked; null when there is none. */
  openDuplicateIid: number | null;
}

/** The columns a change of status (and of assignees) writes to the alert. */
export interface AlertStatusUpdate {
  id: string;
  status: AlertStatus;
  ended_at: Date | null;
  updated_at: Date;
  /** The new assignees; absent: as they are. */
  assignees?: StoredAssignee[];
}

/** The alert as an update leaves it. */
export function withStatusUpdate(alert: StoredAlert, { status, ended_at, updated_at, assignees }: AlertStatusUpdate): StoredAlert {
  return { ...alert, status, ended_at, updated_at, ...(assignees && { assignees }) };
}

/** The refusal of an iid the project has no alert of (or text that is no iid). */
export function alertNotFound(iid: string): CommandRefusal {
  return refusal('not_found', 'alert_not_found', `Alert ${iid} not found.`);
}
