import type { HttpSchemas } from '../http';

// Alert emails as the API shows them (`GET /projects/:id/alert_notifications`, docs/api-guide.md
// "Email on new alerts"), shared by the processor, the alerts proxy and the console.

/** Why an email is sent: a new alert (`alert.created`) or a resolved one (`alert.resolved`). Never a grouped repeat. */
export const NOTIFICATION_REASONS = ['new', 'resolved'] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/**
 * Where an email stands: `pending` (waiting for its bundle, being sent, or retried after a refusal),
 * `sent`, `failed` (refused at every attempt; `error` says why), `suppressed` (over the recipient's
 * hourly cap) or `cancelled` (before it went, the change was undone or a silence came to cover the
 * alert; `error` says which).
 */
export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed', 'suppressed', 'cancelled'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** One alert email to one recipient. */
export type AlertNotificationView = HttpSchemas['AlertNotificationDto'];
