import type { HttpSchemas } from '../http';

// Assigning alerts and changing several at once (docs/api-guide.md "Alert workflow"): the API's
// shapes, shared by the processor, the alerts proxy and the console.

/** The most assignees an alert may have. */
export const MAX_ALERT_ASSIGNEES = 20;

/** The most alerts one bulk update changes. */
export const MAX_BULK_UPDATE_IIDS = 100;

/** A project member an alert may be assigned to (`GET .../alerts/assignee_candidates`): developer+. */
export type AssigneeCandidate = HttpSchemas['AssigneeCandidateDto'];

/** Why a bulk update left an alert as it was: no such alert, resolved (never reopened by it), or already as asked. */
export const ALERT_BULK_SKIP_REASONS = ['not_found', 'resolved', 'unchanged'] as const;
export type AlertBulkSkipReason = (typeof ALERT_BULK_SKIP_REASONS)[number];

/** `POST .../alerts/bulk_update`: the iids it changed, and the others with the reason. */
export type AlertBulkUpdateResult = HttpSchemas['AlertBulkUpdateResultDto'];
