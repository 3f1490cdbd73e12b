import { HealthDetails, HealthProbeDownError } from '@alert-ingestion/http';
import { OutboxRelayStatus } from './outbox-relay';

/**
 * A relay's part of `/healthz`: its state and backlog as details, and "down" while it is behind
 * (its oldest unpublished row is older than the stall threshold), whatever the cause: subscribers
 * are not getting what was committed.
 */
export function relayHealth(status: OutboxRelayStatus): HealthDetails {
  const details: HealthDetails = {
    state: status.state,
    backlog_rows: status.backlogRows,
    oldest_age_seconds: status.oldestAgeSeconds === null ? null : Math.round(status.oldestAgeSeconds),
    published: status.published,
    dead_lettered: status.deadLettered,
    ...(status.failure ? { failure: status.failure } : {}),
  };
  if (status.behind) {
    const cause = status.failure ? `; publishing fails: ${status.failure}` : '';
    throw new HealthProbeDownError(`${status.backlogRows} rows unpublished, the oldest for ${Math.round(status.oldestAgeSeconds ?? 0)} s${cause}`, details);
  }
  return details;
}
