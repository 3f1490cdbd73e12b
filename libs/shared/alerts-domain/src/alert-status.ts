import { AlertEvent, AlertStatus } from '@alert-ingestion/contracts';

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
