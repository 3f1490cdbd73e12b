import { RawAlert } from '@alert-ingestion/contracts';
import { AlertCandidate } from './alert-candidates';
import { BatchState, planAlertBatch, stateKeys, StoredAnswer } from './alert-batch-plan';
import { heartbeatFingerprintSha256 } from './heartbeat';
import { AdmittedRawAlert, ReceivedDelivery, RejectedRawAlert } from './raw-alert-intake';
import { Silence } from './silence-matchers';
import { StoredAlert } from './stored-alert';
import { storedAlertFixture } from './stored-alert.testing';

const now = new Date('2026-11-21T10:00:00.000Z');
const startedAt = new Date('2026-11-21T09:00:00.000Z');
const endedAt = new Date('2026-11-21T09:30:00.000Z');
const HOUR = 60 * 60 * 1000;

function candidate(overrides: Partial<AlertCandidate> = {}): AlertCandidate {
  return {
    title: 'Disk full',
    description: null,
    severity: 'critical',
    startedAt,
    endedAt: null,
    service: null,
    monitoringTool: null,
    hosts: [],
    platformEnvironmentName: null,
    fingerprint: 'disk',
    fingerprintSha256: 'f'.repeat(64),
    payload: { title: 'Disk full' },
    ...overrides,
  };
}

const requestId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** An admitted raw alert message `n` (request id n) with one payload per candidate. */
function admitted(
  n: number,
  candidates: Array<Partial<AlertCandidate>> = [{}],
  projectId = '1',
  raw: Partial<RawAlert.RawAlertValue> = {},
  delivery: ReceivedDelivery | null = null,
): AdmittedRawAlert {
  return {
    admitted: true,
    message: { offset: String(n), value: null },
    raw: {
      request_id: requestId(n),
      integration_id: '9',
      project_id: projectId,
      received_at: now.toISOString(),
      reply_to: 'gateway-1',
      payload: {},
      ...raw,
    },
    candidates: candidates.map(candidate),
    delivery,
  };
}

function openAlert(overrides: Partial<StoredAlert> = {}): StoredAlert {
  const { fingerprintSha256: _sha, startedAt: _started, endedAt: _ended, monitoringTool: _tool, platformEnvironmentName: _env, ...fields } = candidate();
  return storedAlertFixture({
    ...fields,
    status: 'acknowledged',
    events: 3,
    started_at: startedAt,
    fingerprint_sha256: 'f'.repeat(64),
    created_at: new Date('2026-11-20T00:00:00.000Z'),
    updated_at: new Date('2026-11-20T00:00:00.000Z'),
    ...overrides,
  });
}

function state(overrides: Partial<BatchState> = {}): BatchState {
  return { lastIids: new Map(), answers: new Map(), openAlerts: [], silences: [], ...overrides };
}

const delivery = (n: number): ReceivedDelivery => ({
  delivery_id: requestId(n),
  request_id: `x-${n}`,
  project_id: '1',
  integration_id: '9',
  received_at: now.toISOString(),
  body: '{}',
  body_size: 2,
  body_truncated: false,
});

describe('planAlertBatch', () => {
  describe('alerts (spec 1.5, 2.2, 3)', () => {
    it('creates a triggered alert from a new payload, with its event, its answer and its idempotency record', () => {
      const plan = planAlertBatch([admitted(1)], state(), now);
      expect(plan.writes.alertInserts).toEqual([
        expect.objectContaining({ project_id: '1', iid: 1, integration_id: '9', status: 'triggered', events: 1, started_at: startedAt, ended_at: null }),
      ]);
      expect(plan.writes.events.map((event) => [event.projectId, event.iid, event.value.type, event.value.occurred_at])).toEqual([
        ['1', 1, 'alert.created', now.toISOString()],
      ]);
      expect(plan.answers).toEqual([{ requestId: requestId(1), replyTo: 'gateway-1', alerts: [{ iid: 1, title: 'Disk full' }], redelivered: false, actions: ['created'] }]);
      expect(plan.writes.newAnswers).toEqual([{ request_id: requestId(1), project_id: '1', result: { alerts: [{ iid: 1, title: 'Disk full' }] } }]);
      expect(plan.writes.renewedAnswers).toEqual([]);
      expect(plan.rejects).toEqual([]);
    });

    it('numbers new alerts after the project counter, per project, and raises each counter once', () => {
      const plan = planAlertBatch(
        [admitted(0, [{ fingerprintSha256: null }]), admitted(1, [{ fingerprintSha256: null }], '2'), admitted(2, [{ fingerprintSha256: null }])],
        state({
          lastIids: new Map([
            ['1', 4],
            ['2', 0],
          ]),
        }),
        now,
      );
      expect(plan.writes.alertInserts.map((row) => [row.project_id, row.iid])).toEqual([
        ['1', 5],
        ['2', 1],
        ['1', 6],
      ]);
      expect(plan.writes.iidCounters).toEqual([
        { project_id: '1', last_iid: 6 },
        { project_id: '2', last_iid: 1 },
      ]);
      expect(plan.answers.map((answer) => answer.alerts)).toEqual([[{ iid: 5, title: 'Disk full' }], [{ iid: 1, title: 'Disk full' }], [{ iid: 6, title: 'Disk full' }]]);
    });

    it('inserts a new alert in its final state and writes one event per change, each with the alert as it was then', () => {
      const plan = planAlertBatch([admitted(0), admitted(1), admitted(2, [{ endedAt }])], state(), now);
      expect(plan.writes.alertInserts).toHaveLength(1);
      expect(plan.writes.alertInserts[0]).toMatchObject({ iid: 1, status: 'resolved', events: 2, ended_at: endedAt, integration_id: '9' });
      expect(plan.writes.events.map((event) => [event.value.type, event.value.alert.events, event.value.alert.status])).toEqual([
        ['alert.created', 1, 'triggered'],
        ['alert.grouped', 2, 'triggered'],
        ['alert.resolved', 2, 'resolved'],
      ]);
      expect(plan.writes.events[0].value.alert).toMatchObject({ created_at: now.toISOString(), updated_at: now.toISOString(), ended_at: null });
      expect(plan.writes.iidCounters).toEqual([{ project_id: '1', last_iid: 1 }]);
    });

    it('groups into and resolves an existing not-resolved alert with an update, not an insert', () => {
      const plan = planAlertBatch([admitted(0), admitted(1, [{ endedAt }])], state({ openAlerts: [openAlert()], lastIids: new Map([['1', 7]]) }), now);
      expect(plan.writes.alertInserts).toEqual([]);
      expect(plan.writes.iidCounters).toEqual([]);
      expect(plan.writes.alertUpdates).toEqual([{ id: '500', grouped: 1, ended_at: endedAt, silence_id: null }]);
      expect(plan.writes.events.map((event) => [event.value.type, event.iid, event.value.alert.events, event.value.alert.status])).toEqual([
        ['alert.grouped', 7, 4, 'acknowledged'],
        ['alert.resolved', 7, 4, 'resolved'],
      ]);
      expect(plan.writes.events[1].value.alert.created_at).toBe('2026-11-20T00:00:00.000Z');
      expect(plan.writes.events[1].value.alert.updated_at).toBe(now.toISOString());
      expect(plan.answers.map((answer) => answer.alerts)).toEqual([[{ iid: 7, title: 'Disk full' }], [{ iid: 7, title: 'Disk full' }]]);
    });

    it('creates a new alert after a payload of the batch resolved the open one', () => {
      const plan = planAlertBatch([admitted(0, [{ endedAt }]), admitted(1)], state({ openAlerts: [openAlert()], lastIids: new Map([['1', 7]]) }), now);
      expect(plan.writes.alertUpdates).toEqual([{ id: '500', grouped: 0, ended_at: endedAt, silence_id: null }]);
      expect(plan.writes.alertInserts.map((row) => [row.iid, row.status, row.events])).toEqual([[8, 'triggered', 1]]);
      expect(plan.writes.events.map((event) => [event.value.type, event.iid])).toEqual([
        ['alert.resolved', 7],
        ['alert.created', 8],
      ]);
    });

    it('answers nothing for a recovery payload that matches no alert, and gives several answers to a message of several payloads', () => {
      const plan = planAlertBatch([admitted(0, [{ endedAt }]), admitted(1, [{ fingerprintSha256: null }, { fingerprintSha256: null }])], state(), now);
      expect(plan.answers[0]).toMatchObject({ alerts: [], actions: ['unmatched'], redelivered: false });
      expect(plan.answers[1].alerts).toEqual([
        { iid: 1, title: 'Disk full' },
        { iid: 2, title: 'Disk full' },
      ]);
      expect(plan.writes.events.map((event) => event.value.type)).toEqual(['alert.created', 'alert.created']);
      // The recovery payload is still processed: its request id is recorded with its empty answer.
      expect(plan.writes.newAnswers[0]).toEqual({ request_id: requestId(0), project_id: '1', result: { alerts: [] } });
    });

    it('tells per message what each payload did: created, grouped, resolved, or unmatched', () => {
      const plan = planAlertBatch(
        [
          admitted(0, [{}, { endedAt }]),
          admitted(1, [{ fingerprintSha256: 'b'.repeat(64), endedAt }]),
          admitted(2, [{}, { fingerprintSha256: null }]),
          admitted(3, [{ fingerprintSha256: null, endedAt }]),
        ],
        state({ openAlerts: [openAlert()], lastIids: new Map([['1', 7]]) }),
        now,
      );
      expect(plan.answers.map((answer) => answer.actions)).toEqual([['grouped', 'resolved'], ['unmatched'], ['created', 'created'], ['unmatched']]);
    });

    it('keeps events in payload order across alerts', () => {
      const plan = planAlertBatch(
        [admitted(0, [{ fingerprintSha256: 'a'.repeat(64) }]), admitted(1, [{ fingerprintSha256: 'b'.repeat(64) }]), admitted(2, [{ fingerprintSha256: 'a'.repeat(64) }])],
        state(),
        now,
      );
      expect(plan.writes.events.map((event) => [event.iid, event.value.type])).toEqual([
        [1, 'alert.created'],
        [2, 'alert.created'],
        [1, 'alert.grouped'],
      ]);
    });

    it('keeps projects apart: the same fingerprint in two projects is two alerts, each numbered in its project', () => {
      const plan = planAlertBatch([admitted(0), admitted(1, [{}], '2')], state({ lastIids: new Map([['2', 3]]) }), now);
      expect(plan.writes.alertInserts.map((row) => [row.project_id, row.iid, row.events])).toEqual([
        ['1', 1, 1],
        ['2', 4, 1],
      ]);
    });
  });

  describe('grouping and recovery, payloads in batch order (spec 3, CONTRACT.md alert semantics)', () => {
    const fire = (n: number, fingerprint: string | null, projectId = '1') => admitted(n, [{ fingerprintSha256: fingerprint }], projectId);
    const recover = (n: number, fingerprint: string | null, projectId = '1') => admitted(n, [{ fingerprintSha256: fingerprint, endedAt }], projectId);
    const open77 = (fingerprint: string, projectId = '1', id = '77') => state({ openAlerts: [openAlert({ id, project_id: projectId, iid: 7, fingerprint_sha256: fingerprint })] });
    const history = (plan: ReturnType<typeof planAlertBatch>) => plan.writes.events.map((event) => [event.projectId, event.iid, event.value.type]);
    const iids = (plan: ReturnType<typeof planAlertBatch>) => plan.answers.map((answer) => answer.alerts.map((alert) => alert.iid));

    it('creates an alert for a payload with no matching not-resolved alert', () => {
      const plan = planAlertBatch([fire(0, 'f')], state(), now);
      expect(plan.writes.alertInserts.map((row) => [row.iid, row.fingerprint_sha256, row.events])).toEqual([[1, 'f', 1]]);
      expect(plan.writes.alertUpdates).toEqual([]);
      expect(history(plan)).toEqual([['1', 1, 'alert.created']]);
      expect(iids(plan)).toEqual([[1]]);
      expect(plan.writes.events[0].value.cause).toEqual({ type: 'payload', integration_id: 9 });
    });

    it('groups into a not-resolved alert that exists: events increase, nothing is created', () => {
      const plan = planAlertBatch([fire(0, 'f')], open77('f'), now);
      expect(plan.writes.alertUpdates).toEqual([{ id: '77', grouped: 1, ended_at: null, silence_id: null }]);
      expect(plan.writes.alertInserts).toEqual([]);
      expect(plan.writes.events[0].value.alert.events).toBe(4);
      expect(iids(plan)).toEqual([[7]]);
    });

    it('groups identical payloads of one batch into the first one', () => {
      const plan = planAlertBatch(Array.from({ length: 40 }, (_, n) => fire(n, 'f')), state(), now);
      expect(plan.writes.alertInserts.map((row) => [row.iid, row.events])).toEqual([[1, 40]]);
      expect(plan.writes.events.map((event) => event.value.type)).toEqual(['alert.created', ...Array<string>(39).fill('alert.grouped')]);
      expect(iids(plan)).toEqual(Array(40).fill([1]));
    });

    it('never groups payloads without a fingerprint', () => {
      const plan = planAlertBatch([fire(0, null), fire(1, null)], state(), now);
      expect(plan.writes.alertInserts.map((row) => [row.iid, row.events])).toEqual([
        [1, 1],
        [2, 1],
      ]);
      expect(iids(plan)).toEqual([[1], [2]]);
    });

    it('resolves the matching not-resolved alert with a recovery payload, without counting an event', () => {
      const plan = planAlertBatch([recover(0, 'f')], open77('f'), now);
      expect(plan.writes.alertUpdates).toEqual([{ id: '77', grouped: 0, ended_at: endedAt, silence_id: null }]);
      expect(plan.writes.events.map((event) => [event.value.type, event.value.alert.status, event.value.alert.events, event.value.alert.ended_at])).toEqual([
        ['alert.resolved', 'resolved', 3, endedAt.toISOString()],
      ]);
      expect(iids(plan)).toEqual([[7]]);
      // On the alert's timeline, with the integration whose payload resolved it.
      expect(plan.writes.activity).toEqual([
        {
          projectId: '1',
          subject: { alertId: '77' },
          kind: 'status_changed',
          source: 'payload',
          actorUserId: null,
          reason: null,
          details: { from: 'acknowledged', to: 'resolved', integration_id: 9 },
          at: now,
        },
      ]);
    });

    it('records a status change only for resolutions: a created or grouped alert writes no timeline row', () => {
      expect(planAlertBatch([fire(0, 'f'), fire(1, 'f'), fire(2, 'f')], open77('f'), now).writes.activity).toEqual([]);
      expect(planAlertBatch([fire(0, 'g'), fire(1, 'g')], state(), now).writes.activity).toEqual([]);
    });

    it('names an alert the batch creates and resolves by its iid, as it has no id yet', () => {
      const plan = planAlertBatch([fire(0, 'f'), recover(1, 'f')], state(), now);
      expect(plan.writes.activity).toMatchObject([{ subject: { alertIid: 1 }, kind: 'status_changed', details: { from: 'triggered', to: 'resolved' } }]);
    });

    it('gives a recovery payload without a match no effect', () => {
      for (const fingerprint of ['f', null]) {
        const plan = planAlertBatch([recover(0, fingerprint)], state(), now);
        expect([plan.writes.alertInserts, plan.writes.alertUpdates, plan.writes.events, plan.writes.iidCounters]).toEqual([[], [], [], []]);
        expect(plan.answers[0]).toMatchObject({ alerts: [], actions: ['unmatched'] });
      }
    });

    it('creates a new alert for an identical payload after a resolution', () => {
      const plan = planAlertBatch([fire(0, 'f'), recover(1, 'f'), fire(2, 'f'), fire(3, 'f')], state(), now);
      expect(plan.writes.alertInserts.map((row) => [row.iid, row.status, row.events, row.ended_at])).toEqual([
        [1, 'resolved', 1, endedAt],
        [2, 'triggered', 2, null],
      ]);
      expect(iids(plan)).toEqual([[1], [1], [2], [2]]);
    });

    it('creates a new alert after resolving an existing one in the same batch', () => {
      const plan = planAlertBatch([fire(0, 'f'), recover(1, 'f'), fire(2, 'f')], open77('f'), now);
      expect(plan.writes.alertUpdates).toEqual([{ id: '77', grouped: 1, ended_at: endedAt, silence_id: null }]);
      expect(history(plan)).toEqual([
        ['1', 7, 'alert.grouped'],
        ['1', 7, 'alert.resolved'],
        ['1', 1, 'alert.created'],
      ]);
    });

    it('gives a second recovery payload no effect once the alert is resolved', () => {
      const plan = planAlertBatch([recover(0, 'f'), recover(1, 'f')], open77('f'), now);
      expect(iids(plan)).toEqual([[7], []]);
      expect(plan.answers.map((answer) => answer.actions)).toEqual([['resolved'], ['unmatched']]);
      expect(plan.writes.alertUpdates).toHaveLength(1);
    });

    it('keeps projects apart: the same fingerprint in two projects is two alerts', () => {
      const plan = planAlertBatch([fire(0, 'f', '1'), fire(1, 'f', '2'), fire(2, 'f', '1')], open77('f', '2', '9'), now);
      expect(plan.writes.alertInserts.map((row) => [row.project_id, row.iid, row.events])).toEqual([['1', 1, 2]]);
      expect(plan.writes.alertUpdates).toEqual([{ id: '9', grouped: 1, ended_at: null, silence_id: null }]);
      expect(history(plan)).toEqual([
        ['1', 1, 'alert.created'],
        ['2', 7, 'alert.grouped'],
        ['1', 1, 'alert.grouped'],
      ]);
    });

    it('keeps fingerprints apart and interleaves them in order', () => {
      const plan = planAlertBatch([fire(0, 'a'), fire(1, 'b'), recover(2, 'a'), fire(3, 'b'), fire(4, 'a')], state(), now);
      expect(plan.writes.alertInserts.map((row) => [row.fingerprint_sha256, row.iid, row.status, row.events])).toEqual([
        ['a', 1, 'resolved', 1],
        ['b', 2, 'triggered', 2],
        ['a', 3, 'triggered', 1],
      ]);
      expect(history(plan).map(([, iid, type]) => [iid, type])).toEqual([
        [1, 'alert.created'],
        [2, 'alert.created'],
        [1, 'alert.resolved'],
        [2, 'alert.grouped'],
        [3, 'alert.created'],
      ]);
    });

    it('does not touch an existing alert whose fingerprint is not in the batch', () => {
      const plan = planAlertBatch([fire(0, 'a')], open77('b'), now);
      expect(plan.writes.alertUpdates).toEqual([]);
      expect(plan.writes.alertInserts.map((row) => row.fingerprint_sha256)).toEqual(['a']);
    });
  });

  describe('exactly once per request id (CONTRACT.md "Idempotency-Key")', () => {
    const stored = (processedAt: Date): Map<string, StoredAnswer> => new Map([[requestId(1), { alerts: [{ iid: 3, title: 'First' }], processedAt }]]);

    it('answers a redelivered message with its stored answer and changes nothing, writing its delivery again', () => {
      const plan = planAlertBatch([admitted(1, [{}], '1', {}, delivery(1))], state({ answers: stored(new Date(now.getTime() - HOUR)) }), now);
      expect(plan.answers).toEqual([{ requestId: requestId(1), replyTo: 'gateway-1', alerts: [{ iid: 3, title: 'First' }], redelivered: true, actions: [] }]);
      expect(plan.writes).toEqual({
        iidCounters: [],
        alertUpdates: [],
        alertInserts: [],
        events: [],
        activity: [],
        newAnswers: [],
        renewedAnswers: [],
        deliveries: [{ ...delivery(1), status: 200, error: null, alerts: [{ iid: 3, title: 'First' }] }],
        lastRequests: [],
        expiredHeartbeats: [],
      });
    });

    it('repeats an Idempotency-Key answer stored within 24 hours', () => {
      const plan = planAlertBatch([admitted(1, [{}], '1', { idempotency_key: 'k' })], state({ answers: stored(new Date(now.getTime() - 23 * HOUR)) }), now);
      expect(plan.answers[0]).toMatchObject({ alerts: [{ iid: 3, title: 'First' }], redelivered: true });
      expect(plan.writes.alertInserts).toEqual([]);
    });

    it('processes a repeat of an Idempotency-Key after 24 hours as new, and renews its stored answer', () => {
      const plan = planAlertBatch([admitted(1, [{}], '1', { idempotency_key: 'k' })], state({ answers: stored(new Date(now.getTime() - 25 * HOUR)) }), now);
      expect(plan.answers[0]).toMatchObject({ alerts: [{ iid: 1, title: 'Disk full' }], redelivered: false, actions: ['created'] });
      expect(plan.writes.alertInserts).toHaveLength(1);
      expect(plan.writes.newAnswers).toEqual([]);
      expect(plan.writes.renewedAnswers).toEqual([{ request_id: requestId(1), project_id: '1', result: { alerts: [{ iid: 1, title: 'Disk full' }] } }]);
    });

    it('keeps a redelivered message without an Idempotency-Key a redelivery however old its answer is', () => {
      const plan = planAlertBatch([admitted(1)], state({ answers: stored(new Date(now.getTime() - 100 * HOUR)) }), now);
      expect(plan.answers[0]).toMatchObject({ alerts: [{ iid: 3, title: 'First' }], redelivered: true });
      expect(plan.writes.alertInserts).toEqual([]);
    });

    it('counts a message repeated within one batch once; the repeat gets the first answer', () => {
      const plan = planAlertBatch([admitted(1), admitted(1)], state(), now);
      expect(plan.writes.alertInserts).toHaveLength(1);
      expect(plan.writes.alertInserts[0].events).toBe(1);
      expect(plan.writes.newAnswers).toHaveLength(1);
      expect(plan.answers.map((answer) => [answer.alerts, answer.redelivered, answer.actions])).toEqual([
        [[{ iid: 1, title: 'Disk full' }], false, ['created']],
        [[{ iid: 1, title: 'Disk full' }], true, []],
      ]);
    });
  });

  describe('deliveries and rejects', () => {
    it('records each delivery with its answer, and passes rejects on with their delivery recorded as an error', () => {
      const rejected: RejectedRawAlert = {
        admitted: false,
        message: { offset: '7', value: null },
        reason: 'the payload is not a JSON object or array',
        address: { request_id: requestId(2), reply_to: 'gateway-1' },
        delivery: { ...delivery(2), status: 422, error: 'invalid_payload', alerts: [] },
      };
      const plan = planAlertBatch([rejected, admitted(1, [{}], '1', {}, delivery(1))], state(), now);
      expect(plan.rejects).toEqual([rejected]);
      expect(plan.answers.map((answer) => answer.requestId)).toEqual([requestId(1)]);
      expect(plan.writes.deliveries.map((row) => [row.delivery_id, row.status, row.error, row.alerts])).toEqual([
        [requestId(1), 200, null, [{ iid: 1, title: 'Disk full' }]],
        [requestId(2), 422, 'invalid_payload', []],
      ]);
    });
  });

  describe('silences (Alertmanager: evaluated at every change)', () => {
    const silence = (overrides: Partial<Silence> = {}): Silence => ({
      id: '31',
      project_id: '1',
      matchers: [{ field: 'title', operator: '=~', value: 'Disk.*' }],
      starts_at: new Date(now.getTime() - HOUR),
      ends_at: new Date(now.getTime() + HOUR),
      comment: 'disk replacement',
      ...overrides,
    });
    const silencedBy = { id: 31, comment: 'disk replacement', ends_at: new Date(now.getTime() + HOUR).toISOString() };

    it('marks a new alert that an active silence matches, in its row and its event', () => {
      const plan = planAlertBatch([admitted(1), admitted(2, [{ title: 'CPU high', fingerprintSha256: 'c'.repeat(64) }])], state({ silences: [silence()] }), now);
      expect(plan.writes.alertInserts.map((row) => [row.title, row.silenced_by?.id ?? null])).toEqual([
        ['Disk full', '31'],
        ['CPU high', null],
      ]);
      expect(plan.writes.events.map((event) => event.value.alert.silenced_by)).toEqual([silencedBy, null]);
      // Stored and answered as usual: nothing is lost.
      expect(plan.answers.map((answer) => answer.actions)).toEqual([['created'], ['created']]);
    });

    it("only applies the silences of the alert's own project", () => {
      const plan = planAlertBatch([admitted(1, [{}], '2')], state({ silences: [silence()] }), now);
      expect(plan.writes.events[0].value.alert.silenced_by).toBeNull();
    });

    it('evaluates a grouped and a resolving payload again, and stores the current value', () => {
      const grouped = planAlertBatch([admitted(1)], state({ openAlerts: [openAlert()], silences: [silence()] }), now);
      expect(grouped.writes.alertUpdates).toEqual([{ id: '500', grouped: 1, ended_at: null, silence_id: '31' }]);
      expect(grouped.writes.events.map((event) => [event.value.type, event.value.alert.silenced_by])).toEqual([['alert.grouped', silencedBy]]);

      const wasSilenced = openAlert({ silenced_by: { id: '30', comment: 'old', ends_at: now } });
      const resolved = planAlertBatch([admitted(1, [{ endedAt }])], state({ openAlerts: [wasSilenced] }), now);
      expect(resolved.writes.alertUpdates).toEqual([{ id: '500', grouped: 0, ended_at: endedAt, silence_id: null }]);
      expect(resolved.writes.events[0].value.alert.silenced_by).toBeNull();
    });

    it('matches each arriving payload, not the fields the alert kept from its first payload', () => {
      // The stored alert is "CPU high" (no silence); the payload grouped into it is "Disk full".
      const cpu = openAlert({ title: 'CPU high', payload: { title: 'CPU high' } });
      const matching = planAlertBatch([admitted(1)], state({ openAlerts: [cpu], silences: [silence()] }), now);
      expect(matching.writes.alertUpdates).toEqual([{ id: '500', grouped: 1, ended_at: null, silence_id: '31' }]);
      expect(matching.writes.events.map((event) => [event.value.type, event.value.alert.title, event.value.alert.silenced_by])).toEqual([['alert.grouped', 'CPU high', silencedBy]]);

      // The reverse: the stored alert matched (and was silenced); a payload that does not match clears it.
      const disk = openAlert({ silenced_by: { id: '31', comment: 'disk replacement', ends_at: new Date(now.getTime() + HOUR) } });
      const clearing = planAlertBatch([admitted(1, [{ title: 'CPU high' }])], state({ openAlerts: [disk], silences: [silence()] }), now);
      expect(clearing.writes.alertUpdates).toEqual([{ id: '500', grouped: 1, ended_at: null, silence_id: null }]);
      expect(clearing.writes.events.map((event) => [event.value.type, event.value.alert.title, event.value.alert.silenced_by])).toEqual([['alert.grouped', 'Disk full', null]]);
    });

    it('gives each change of one batch the value of its own payload, and keeps the last one', () => {
      const plan = planAlertBatch(
        [admitted(1, [{ title: 'CPU high' }]), admitted(2), admitted(3, [{ title: 'CPU high' }]), admitted(4)],
        state({ silences: [silence()] }),
        now,
      );
      expect(plan.writes.events.map((event) => [event.value.type, event.value.alert.silenced_by])).toEqual([
        ['alert.created', null],
        ['alert.grouped', silencedBy],
        ['alert.grouped', null],
        ['alert.grouped', silencedBy],
      ]);
      expect(plan.writes.alertInserts.map((row) => [row.title, row.events, row.silenced_by?.id ?? null])).toEqual([['CPU high', 4, '31']]);
    });

    it('matches a recovery payload by its own fields, and the integration it came through', () => {
      const resolved = planAlertBatch([admitted(1, [{ endedAt, title: 'CPU high' }])], state({ openAlerts: [openAlert()], silences: [silence()] }), now);
      expect(resolved.writes.alertUpdates).toEqual([{ id: '500', grouped: 0, ended_at: endedAt, silence_id: null }]);
      expect(resolved.writes.events.map((event) => [event.value.type, event.value.alert.silenced_by])).toEqual([['alert.resolved', null]]);

      const byIntegration = silence({ matchers: [{ field: 'integration_id', operator: '=', value: '10' }] });
      // Both payloads reach the alert created through integration 9; only the second came through 10.
      const plan = planAlertBatch([admitted(1), admitted(2, [{}], '1', { integration_id: '10' })], state({ silences: [byIntegration] }), now);
      expect(plan.writes.events.map((event) => [event.value.type, event.value.alert.integration_id, event.value.alert.silenced_by?.id ?? null])).toEqual([
        ['alert.created', 9, null],
        ['alert.grouped', 9, 31],
      ]);
    });

    it('no longer applies an expired silence, and not yet a pending one', () => {
      const expired = silence({ starts_at: new Date(now.getTime() - 2 * HOUR), ends_at: now });
      const pending = silence({ id: '32', starts_at: new Date(now.getTime() + 1), ends_at: new Date(now.getTime() + HOUR) });
      const plan = planAlertBatch([admitted(1), admitted(2)], state({ silences: [expired, pending] }), now);
      expect(plan.writes.alertInserts[0].silenced_by).toBeNull();
      expect(plan.writes.events.map((event) => [event.value.type, event.value.alert.silenced_by])).toEqual([
        ['alert.created', null],
        ['alert.grouped', null],
      ]);
    });

    it('silences an alert whose payload fields match by path, and needs every matcher to hold', () => {
      const byPath = silence({
        matchers: [
          { path: ['labels', 'team'], operator: '=', value: 'storage' },
          { field: 'severity', operator: '!=', value: 'info' },
        ],
      });
      const plan = planAlertBatch(
        [
          admitted(1, [{ payload: { labels: { team: 'storage' } }, fingerprintSha256: 'a'.repeat(64) }]),
          admitted(2, [{ payload: { labels: { team: 'storage' } }, severity: 'info', fingerprintSha256: 'b'.repeat(64) }]),
        ],
        state({ silences: [byPath] }),
        now,
      );
      expect(plan.writes.alertInserts.map((row) => row.silenced_by?.id ?? null)).toEqual(['31', null]);
    });
  });
});

describe('stateKeys', () => {
  it("names each project, request id and fingerprint of the admitted messages once, and nothing of rejected ones", () => {
    const rejected: RejectedRawAlert = { admitted: false, message: { offset: '9', value: null }, reason: 'unknown', address: undefined, delivery: null };
    const keys = stateKeys([
      admitted(1, [{}, { fingerprintSha256: null }]),
      admitted(1),
      admitted(2, [{ fingerprintSha256: 'b'.repeat(64) }], '2'),
      rejected,
    ]);
    expect(keys).toEqual({
      projectIds: ['1', '2'],
      requestIds: [requestId(1), requestId(2)],
      fingerprints: [
        { projectId: '1', fingerprintSha256: 'f'.repeat(64) },
        { projectId: '2', fingerprintSha256: 'b'.repeat(64) },
      ],
      heartbeatFingerprints: [{ projectId: '1', fingerprintSha256: heartbeatFingerprintSha256('9') }],
    });
  });
});

describe('heartbeats in the batch plan', () => {
  const at = (iso: string) => ({ received_at: iso });
  const heartbeatAlert = (overrides: Partial<StoredAlert> = {}) =>
    openAlert({
      id: '600',
      iid: 12,
      title: 'No alerts received from Prometheus for 5 minutes',
      status: 'triggered',
      events: 1,
      fingerprint: 'heartbeat:9',
      fingerprint_sha256: heartbeatFingerprintSha256('9'),
      started_at: new Date('2026-11-21T09:40:00.000Z'),
      ...overrides,
    });

  it('writes, per integration, the latest received time of its new requests', () => {
    const plan = planAlertBatch(
      [
        admitted(1, [{}], '1', at('2026-11-21T09:59:00.000Z')),
        admitted(2, [{}], '1', at('2026-11-21T09:59:30.000Z')),
        admitted(3, [{}], '1', at('2026-11-21T09:59:10.000Z')),
        admitted(4, [{}], '2', { integration_id: '10', received_at: '2026-11-21T09:58:00.000Z' }),
      ],
      state(),
      now,
    );
    expect(plan.writes.lastRequests).toEqual([
      { integration_id: '9', project_id: '1', last_request_at: '2026-11-21T09:59:30.000Z' },
      { integration_id: '10', project_id: '2', last_request_at: '2026-11-21T09:58:00.000Z' },
    ]);
    expect(plan.writes.expiredHeartbeats).toEqual([]);
  });

  it('writes no last request for a redelivery, which changes nothing', () => {
    const plan = planAlertBatch([admitted(1)], state({ answers: new Map([[requestId(1), { alerts: [], processedAt: now }]]) }), now);
    expect(plan.writes.lastRequests).toEqual([]);
  });

  it('counts a request whose payloads are all recovery alerts without a match (it was still accepted)', () => {
    const plan = planAlertBatch([admitted(1, [{ endedAt }])], state(), now);
    expect(plan.answers[0].actions).toEqual(['unmatched']);
    expect(plan.writes.lastRequests).toHaveLength(1);
  });

  it("resolves the integration's open heartbeat alert as of the new request, outside the request's answer", () => {
    const plan = planAlertBatch([admitted(1, [{}], '1', at('2026-11-21T09:50:00.000Z'))], state({ openAlerts: [heartbeatAlert()] }), now);
    expect(plan.writes.alertUpdates).toEqual([{ id: '600', grouped: 0, ended_at: new Date('2026-11-21T09:50:00.000Z'), silence_id: null }]);
    expect(plan.writes.events.map((event) => [event.iid, event.value.type, event.value.alert.status, event.value.alert.ended_at])).toEqual([
      [12, 'alert.resolved', 'resolved', '2026-11-21T09:50:00.000Z'],
      [1, 'alert.created', 'triggered', null],
    ]);
    expect(plan.answers[0]).toMatchObject({ alerts: [{ iid: 1, title: 'Disk full' }], actions: ['created'] });
    expect(plan.writes.events.map((event) => event.value.cause)).toEqual([{ type: 'heartbeat' }, { type: 'payload', integration_id: 9 }]);
    expect(plan.writes.activity).toMatchObject([{ subject: { alertId: '600' }, kind: 'status_changed', source: 'heartbeat', details: { to: 'resolved' } }]);
  });

  it('never ends a heartbeat alert before it started (a request received before the expiry but stored after the alert)', () => {
    const plan = planAlertBatch([admitted(1, [{}], '1', at('2026-11-21T09:39:00.000Z'))], state({ openAlerts: [heartbeatAlert()] }), now);
    expect(plan.writes.alertUpdates).toEqual([{ id: '600', grouped: 0, ended_at: new Date('2026-11-21T09:40:00.000Z'), silence_id: null }]);
  });

  it("leaves another integration's heartbeat alert open", () => {
    const plan = planAlertBatch([admitted(1, [{}], '1', { integration_id: '10' })], state({ openAlerts: [heartbeatAlert()] }), now);
    expect(plan.writes.alertUpdates).toEqual([]);
  });
});
