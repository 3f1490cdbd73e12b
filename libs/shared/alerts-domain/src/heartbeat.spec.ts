import { alertCandidates } from './alert-candidates';
import { BatchState } from './alert-batch-plan';
import {
  ExpiredHeartbeat,
  heartbeatAlertPayload,
  heartbeatDeadline,
  heartbeatFingerprintSha256,
  heartbeatRequestId,
  heartbeatStatus,
  MINUTE_MS,
} from './heartbeat';
import { heartbeatIntake, planHeartbeatAlerts, raisedHeartbeat } from './heartbeat-plan';
import { StoredAlert } from './stored-alert';

const lastRequestAt = new Date('2026-11-21T10:00:00.000Z');
const minutes = (n: number) => new Date(lastRequestAt.getTime() + n * MINUTE_MS);

describe('heartbeatStatus: is a heartbeat expired at an instant', () => {
  const on = { intervalMinutes: 5, active: true };

  it('is off without an interval, and while the integration is inactive', () => {
    expect(heartbeatStatus({ intervalMinutes: null, active: true }, lastRequestAt, minutes(60))).toBe('off');
    expect(heartbeatStatus({ intervalMinutes: 5, active: false }, lastRequestAt, minutes(60))).toBe('off');
  });

  it('is waiting before the first request, however long', () => {
    expect(heartbeatStatus(on, null, minutes(10_000))).toBe('waiting');
  });

  it('is ok up to and including the deadline, expired after it', () => {
    expect(heartbeatStatus(on, lastRequestAt, minutes(0))).toBe('ok');
    expect(heartbeatStatus(on, lastRequestAt, minutes(5))).toBe('ok');
    expect(heartbeatStatus(on, lastRequestAt, new Date(minutes(5).getTime() + 1))).toBe('expired');
  });

  it('counts in the given unit of a minute (tests shorten it)', () => {
    expect(heartbeatDeadline(lastRequestAt, 2, 1000)).toEqual(new Date('2026-11-21T10:00:02.000Z'));
    expect(heartbeatStatus(on, lastRequestAt, new Date('2026-11-21T10:00:05.001Z'), 1000)).toBe('expired');
  });
});

const expired: ExpiredHeartbeat = {
  integrationId: '9',
  projectId: '1',
  projectTier: 'free',
  integrationName: 'Prometheus',
  intervalMinutes: 5,
  lastRequestAt,
};

describe('the alert a heartbeat raises', () => {
  it('is critical, named after the integration and the interval, with the fixed fingerprint, started at the expiry', () => {
    const { candidates } = heartbeatIntake(expired);
    expect(candidates).toHaveLength(1);
    expect(candidates[0]).toMatchObject({
      title: 'No alerts received from Prometheus for 5 minutes',
      severity: 'critical',
      service: 'Prometheus',
      monitoringTool: 'heartbeat',
      fingerprint: 'heartbeat:9',
      fingerprintSha256: heartbeatFingerprintSha256('9'),
      startedAt: minutes(5),
      endedAt: null,
    });
  });

  it('says "minute" for an interval of one', () => {
    expect(heartbeatAlertPayload({ ...expired, intervalMinutes: 1 }).title).toBe('No alerts received from Prometheus for 1 minute');
  });

  it('has the fingerprint a monitoring tool sending the same fingerprint would have (on Free too)', () => {
    const sent = alertCandidates({ fingerprint: 'heartbeat:9' }, { tier: 'free', payloadFieldMapping: [] }, lastRequestAt);
    expect(sent.ok && sent.candidates[0].fingerprintSha256).toBe(heartbeatFingerprintSha256('9'));
    expect(heartbeatFingerprintSha256('10')).not.toBe(heartbeatFingerprintSha256('9'));
  });

  it('is stored under one request id per silence: the same on every instance, another after a new request', () => {
    expect(heartbeatIntake(expired).raw.request_id).toBe(heartbeatRequestId('9', lastRequestAt));
    expect(heartbeatRequestId('9', lastRequestAt)).toBe(heartbeatRequestId('9', new Date(lastRequestAt)));
    expect(heartbeatRequestId('9', minutes(1))).not.toBe(heartbeatRequestId('9', lastRequestAt));
    expect(heartbeatRequestId('10', lastRequestAt)).not.toBe(heartbeatRequestId('9', lastRequestAt));
  });
});

describe('planHeartbeatAlerts', () => {
  const now = minutes(6);
  const empty: BatchState = { lastIids: new Map([['1', 4]]), answers: new Map(), openAlerts: [], silences: [] };

  it('creates the alert with its event and idempotency record, marks the heartbeat expired, and counts no request', () => {
    const plan = planHeartbeatAlerts([raisedHeartbeat(expired)], empty, now);
    expect(plan.writes.alertInserts).toHaveLength(1);
    expect(plan.writes.alertInserts[0]).toMatchObject({ project_id: '1', iid: 5, integration_id: '9', status: 'triggered', monitoring_tool: 'heartbeat' });
    expect(plan.writes.events.map((event) => [event.value.type, event.value.alert.title])).toEqual([['alert.created', 'No alerts received from Prometheus for 5 minutes']]);
    expect(plan.writes.newAnswers.map((answer) => answer.request_id)).toEqual([heartbeatRequestId('9', lastRequestAt)]);
    expect(plan.writes.expiredHeartbeats).toEqual([{ integration_id: '9', last_request_at: '2026-11-21T10:00:00.000Z' }]);
    expect(plan.writes.lastRequests).toEqual([]);
    expect(plan.writes.deliveries).toEqual([]);
  });

  it('raised again for the same silence (another instance got there first) changes nothing but the mark', () => {
    const stored = new Map([[heartbeatRequestId('9', lastRequestAt), { alerts: [{ iid: 5, title: 'x' }], processedAt: now }]]);
    const plan = planHeartbeatAlerts([raisedHeartbeat(expired)], { ...empty, answers: stored }, now);
    expect(plan.writes.alertInserts).toEqual([]);
    expect(plan.writes.events).toEqual([]);
    expect(plan.writes.expiredHeartbeats).toHaveLength(1);
  });

  it('groups into the integration’s heartbeat alert that is still open instead of opening a second one', () => {
    const open = { ...planHeartbeatAlerts([raisedHeartbeat(expired)], empty, now).writes.alertInserts[0], id: '77', created_at: now, updated_at: now } as StoredAlert;
    const later = { ...expired, lastRequestAt: minutes(1) };
    const plan = planHeartbeatAlerts([raisedHeartbeat(later)], { ...empty, openAlerts: [open] }, minutes(7));
    expect(plan.writes.alertInserts).toEqual([]);
    expect(plan.writes.alertUpdates).toEqual([{ id: '77', grouped: 1, ended_at: null, silence_id: null }]);
  });
});
