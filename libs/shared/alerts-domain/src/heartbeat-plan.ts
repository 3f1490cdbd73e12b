import { alertCandidates } from './alert-candidates';
import { AlertBatchPlan, BatchState, planAlertBatch } from './alert-batch-plan';
import { ExpiredHeartbeat, heartbeatAlertPayload, heartbeatDeadline, heartbeatRequestId, MINUTE_MS } from './heartbeat';
import { AdmittedRawAlert } from './raw-alert-intake';

/**
 * The alert an expired heartbeat raises, as a raw alert message of the integration that went
 * through the gateway would be admitted: its payload (heartbeatAlertPayload), under a request id
 * fixed for the silence (heartbeatRequestId), received when the heartbeat expired, with no delivery
 * (nothing was sent to the URL) and marked as the checker's.
 */
export function heartbeatIntake(expired: ExpiredHeartbeat, minuteMs = MINUTE_MS): AdmittedRawAlert {
  const payload = heartbeatAlertPayload(expired, minuteMs);
  const receivedAt = heartbeatDeadline(expired.lastRequestAt, expired.intervalMinutes, minuteMs);
  const candidates = alertCandidates(payload, { tier: expired.projectTier, payloadFieldMapping: [] }, receivedAt);
  if (!candidates.ok) throw new Error(`A heartbeat alert payload was refused: ${candidates.reason}`);
  return {
    admitted: true,
    origin: 'heartbeat',
    message: { offset: 'heartbeat', value: null },
    raw: {
      request_id: heartbeatRequestId(expired.integrationId, expired.lastRequestAt),
      integration_id: expired.integrationId,
      project_id: expired.projectId,
      received_at: receivedAt.toISOString(),
      payload,
    },
    candidates: candidates.candidates,
    delivery: null,
  };
}

/** An expired heartbeat with the raw alert it raises (heartbeatIntake). */
export interface RaisedHeartbeat {
  expired: ExpiredHeartbeat;
  intake: AdmittedRawAlert;
}

export function raisedHeartbeat(expired: ExpiredHeartbeat, minuteMs = MINUTE_MS): RaisedHeartbeat {
  return { expired, intake: heartbeatIntake(expired, minuteMs) };
}

/**
 * What raising the alerts of expired heartbeats writes: the same plan as a batch of raw alerts
 * (grouping into an open heartbeat alert of the integration, iids, the `alert.created` event in the
 * outbox, the idempotency record of the silence's request id, so raising it again changes nothing),
 * and each heartbeat marked expired for its last request, so it is raised once per silence.
 */
export function planHeartbeatAlerts(raised: readonly RaisedHeartbeat[], state: BatchState, now: Date): AlertBatchPlan {
  const plan = planAlertBatch(raised.map(({ intake }) => intake), state, now);
  return {
    ...plan,
    writes: {
      ...plan.writes,
      expiredHeartbeats: raised.map(({ expired }) => ({ integration_id: expired.integrationId, last_request_at: expired.lastRequestAt.toISOString() })),
    },
  };
}
