import { AlertEvent, AlertReply, CreatedAlert, RawAlert } from '@alert-ingestion/contracts';
import { AlertCandidate } from './alert-candidates';
import { heartbeatFingerprintSha256 } from './heartbeat';
import { AdmittedRawAlert, AnsweredDelivery, RawAlertIntake, RejectedRawAlert } from './raw-alert-intake';
import { Silence, silenceablePayload, silencingSilence } from './silence-matchers';
import { ActivityEntryOut, statusChangeEntry } from './activity';
import { AlertEventOut, alertEvent, AlertState, payloadCause, StoredAlert } from './stored-alert';

/**
 * What one alert payload did (spec 3): created an alert, was grouped into one, resolved one, or was
 * a recovery alert that found no open alert to resolve (no effect).
 */
export type AlertAction = 'created' | 'grouped' | 'resolved' | 'unmatched';

export const ALERT_ACTIONS: readonly AlertAction[] = ['created', 'grouped', 'resolved', 'unmatched'];

/** The answer stored for a processed request id (its idempotency record). */
export interface StoredAnswer {
  alerts: CreatedAlert[];
  processedAt: Date;
}

/** What a batch starts from, read for its stateKeys and locked until its writes commit. */
export interface BatchState {
  /** Each project's last iid (absent: 0). */
  lastIids: ReadonlyMap<string, number>;
  /** The stored answers of the batch's request ids. */
  answers: ReadonlyMap<string, StoredAnswer>;
  /** The not-resolved alerts of the batch's fingerprints (at most one per project and fingerprint). */
  openAlerts: readonly StoredAlert[];
  /** The silences of the batch's projects that have not ended (active or pending): usually none. */
  silences: readonly Silence[];
}

export interface StateKeys {
  projectIds: string[];
  requestIds: string[];
  fingerprints: Array<{ projectId: string; fingerprintSha256: string }>;
  /** The heartbeat alert fingerprint of every integration the batch has requests for (a request resolves it). */
  heartbeatFingerprints: Array<{ projectId: string; fingerprintSha256: string }>;
}

/**
 * Payloads grouped into a stored not-resolved alert, the end time when one of them resolves it, and
 * the silence that matched the payload of its last change (silences are evaluated at every change).
 */
export interface AlertUpdate {
  id: string;
  grouped: number;
  ended_at: Date | null;
  silence_id: string | null;
}

/** A new alert as inserted (created and updated at the batch's `now`). */
export type NewAlert = Omit<AlertState, 'created_at' | 'updated_at'>;

/** The idempotency record of a processed request id: its answer, repeated to every redelivery. */
export interface IdempotencyAnswer {
  request_id: string;
  project_id: string;
  result: { alerts: CreatedAlert[] };
}

/** The latest request of an integration in a batch (an ISO time), for its heartbeat. */
export interface LastRequest {
  integration_id: string;
  project_id: string;
  last_request_at: string;
}

/** A heartbeat whose alert is raised for the silence after its last request (ISO time). */
export interface ExpiredHeartbeatMark {
  integration_id: string;
  last_request_at: string;
}

/** Everything one batch writes, in one transaction. */
export interface BatchWrites {
  /** The new last iid of each project that gets new alerts. */
  iidCounters: Array<{ project_id: string; last_iid: number }>;
  alertUpdates: AlertUpdate[];
  alertInserts: NewAlert[];
  /** One event per change, in payload order (so per alert in the order of its changes). */
  events: AlertEventOut[];
  /**
   * The timeline entries of status changes (a recovery payload or a heartbeat resolving an alert);
   * creations and grouped payloads have none (the alert's row holds them: derivedAlertEntries).
   */
  activity: ActivityEntryOut[];
  newAnswers: IdempotencyAnswer[];
  /** Answers replacing a stored one too old for its Idempotency-Key. */
  renewedAnswers: IdempotencyAnswer[];
  /** Every delivery of the batch with its answer (a redelivered message writes the same again). */
  deliveries: AnsweredDelivery[];
  /** Per integration, its latest new request in the batch: kept if later than the stored one. */
  lastRequests: LastRequest[];
  /** Heartbeats whose alert this batch raises (planHeartbeatAlerts): marked so it is raised once. */
  expiredHeartbeats: ExpiredHeartbeatMark[];
}

/** The answer to one admitted raw alert message, for the gateway waiting on it. */
export interface RawAlertAnswer {
  requestId: string;
  replyTo: string | undefined;
  /** Where the gateway instance replyTo takes its replies. */
  replyEndpoint: AlertReply.ReplyEndpointValue | undefined;
  /** One element per payload that created, grouped into or resolved an alert, in payload order. */
  alerts: CreatedAlert[];
  /** Processed before (a redelivery, or a repeat within the batch): nothing changed, the first answer is repeated. */
  redelivered: boolean;
  /** What each of its payloads did, in payload order; empty for a redelivery. */
  actions: AlertAction[];
}

/** The writes, one answer per admitted message and the rejects, each in batch order. */
export interface AlertBatchPlan {
  writes: BatchWrites;
  answers: RawAlertAnswer[];
  rejects: RejectedRawAlert[];
}

/** The state planAlertBatch needs for a batch: its projects, request ids and fingerprints. */
export function stateKeys(intake: readonly RawAlertIntake[]): StateKeys {
  const admitted = intake.filter(isAdmitted);
  const fingerprints = new Map<string, { projectId: string; fingerprintSha256: string }>();
  const heartbeats = new Map<string, { projectId: string; fingerprintSha256: string }>();
  for (const { raw, candidates, origin } of admitted) {
    for (const { fingerprintSha256 } of candidates) {
      if (fingerprintSha256 !== null) fingerprints.set(openAlertKey(raw.project_id, fingerprintSha256), { projectId: raw.project_id, fingerprintSha256 });
    }
    if (origin === undefined && !heartbeats.has(raw.integration_id)) {
      heartbeats.set(raw.integration_id, { projectId: raw.project_id, fingerprintSha256: heartbeatFingerprintSha256(raw.integration_id) });
    }
  }
  return {
    projectIds: [...new Set(admitted.map(({ raw }) => raw.project_id))],
    requestIds: [...new Set(admitted.map(({ raw }) => raw.request_id))],
    fingerprints: [...fingerprints.values()],
    heartbeatFingerprints: [...heartbeats.values()],
  };
}

/**
 * Everything a batch of raw alert messages does, given the state it starts from (read for
 * stateKeys(intake)):
 * - exactly once per request id: a request id with a stored answer, or seen earlier in the batch,
 *   is a redelivery (or a repeat of an Idempotency-Key): it changes nothing and gets the first answer
 *   again. A stored answer older than 24 hours before a repeat of its Idempotency-Key
 *   (CONTRACT.md "Receiving alerts") does not count: the repeat is processed as new, and its answer
 *   replaces the old one;
 * - the payloads of the new messages are grouped, resolve or create alerts (alertChanges); a new
 *   alert takes its project's next iid; each change yields its event carrying the alert as it was
 *   right after that change;
 * - at every change (create, group, resolve) the alert's silences are evaluated again, as
 *   Alertmanager does at every notification, against the payload that makes the change (its
 *   normalised fields, its integration): `silenced_by` names the active silence that matches that
 *   payload, or null, even when an earlier payload of the alert matched one (a silence that ended
 *   no longer applies). The alert stores it, while its fields stay its first payload's;
 * - rejected messages are passed on, their deliveries recorded with the error;
 * - per integration, the latest received time of its new requests is its last request (heartbeats);
 *   a new request resolves the integration's open heartbeat alert (see alertChanges).
 * Pure: the caller reads the state and writes `writes` in one transaction.
 */
export function planAlertBatch(intake: readonly RawAlertIntake[], state: BatchState, now: Date): AlertBatchPlan {
  const admitted = intake.filter(isAdmitted);
  const rejects = intake.filter((entry): entry is RejectedRawAlert => !entry.admitted);

  const stored = new Map(state.answers);
  const renewed = new Set<string>();
  // The first copy of each request id in the batch that has no stored answer still valid: its index in `fresh`.
  const firstCopies = new Map<string, number>();
  const fresh: AdmittedRawAlert[] = [];
  for (const entry of admitted) {
    const requestId = entry.raw.request_id;
    const answer = stored.get(requestId);
    if (firstCopies.has(requestId) || (answer && !expired(answer, entry.raw))) continue;
    if (answer) {
      renewed.add(requestId);
      stored.delete(requestId);
    }
    firstCopies.set(requestId, fresh.length);
    fresh.push(entry);
  }

  const changes = alertChanges(fresh, state, now);
  const byRequest = new Map([...stored].map(([requestId, answer]) => [requestId, answer.alerts]));
  fresh.forEach((entry, index) => byRequest.set(entry.raw.request_id, changes.answers[index]));
  const answers = admitted.map((entry): RawAlertAnswer => {
    const first = firstCopies.get(entry.raw.request_id);
    const index = first !== undefined && fresh[first] === entry ? first : -1;
    return {
      requestId: entry.raw.request_id,
      replyTo: entry.raw.reply_to,
      replyEndpoint: entry.raw.reply_endpoint,
      alerts: byRequest.get(entry.raw.request_id) ?? [],
      redelivered: index < 0,
      actions: index < 0 ? [] : changes.actions[index],
    };
  });

  const idempotency = fresh.map(({ raw }, index) => ({ request_id: raw.request_id, project_id: raw.project_id, result: { alerts: changes.answers[index] } }));
  return {
    writes: {
      ...changes.writes,
      newAnswers: idempotency.filter((answer) => !renewed.has(answer.request_id)),
      renewedAnswers: idempotency.filter((answer) => renewed.has(answer.request_id)),
      deliveries: [
        ...admitted.flatMap(({ delivery }, index) => (delivery ? [{ ...delivery, status: 200 as const, error: null, alerts: answers[index].alerts }] : [])),
        ...rejects.flatMap(({ delivery }) => (delivery ? [delivery] : [])),
      ],
      lastRequests: lastRequests(fresh),
      expiredHeartbeats: [],
    },
    answers,
    rejects,
  };
}

function isAdmitted(entry: RawAlertIntake): entry is AdmittedRawAlert {
  return entry.admitted;
}

/**
 * Per integration, the latest received time of the batch's new requests (a redelivery, or a repeat
 * of an Idempotency-Key, changes nothing; a heartbeat alert is no request).
 */
function lastRequests(fresh: readonly AdmittedRawAlert[]): LastRequest[] {
  const latest = new Map<string, { row: LastRequest; time: number }>();
  for (const { raw, origin } of fresh) {
    const time = new Date(raw.received_at).getTime();
    if (origin !== undefined || Number.isNaN(time)) continue;
    const known = latest.get(raw.integration_id);
    if (!known || time > known.time) {
      latest.set(raw.integration_id, { row: { integration_id: raw.integration_id, project_id: raw.project_id, last_request_at: new Date(time).toISOString() }, time });
    }
  }
  return [...latest.values()].map(({ row }) => row);
}

/** A stored answer a repeat of its Idempotency-Key no longer gets (CONTRACT.md: kept 24 hours). */
function expired(answer: StoredAnswer, raw: RawAlert.RawAlertValue): boolean {
  return raw.idempotency_key !== undefined && answer.processedAt.getTime() < new Date(raw.received_at).getTime() - RawAlert.IDEMPOTENCY_KEY_LIFETIME_MS;
}

type AlertOperation = 'create' | 'group' | 'resolve';

const EVENT_TYPE: Record<AlertOperation, AlertEvent.AlertEventType> = { create: 'alert.created', group: 'alert.grouped', resolve: 'alert.resolved' };
const ACTION: Record<AlertOperation, AlertAction> = { create: 'created', group: 'grouped', resolve: 'resolved' };

/** An alert the batch changes, as it is now: a stored not-resolved one, or a new one (`stored` undefined). */
interface ChangedAlert {
  stored: StoredAlert | undefined;
  alert: AlertState;
  grouped: number;
}

/**
 * Grouping and recovery (spec 3, CONTRACT.md), the new messages' payloads taken in batch order as if
 * they came one by one:
 * - a recovery payload resolves the not-resolved alert with its project and fingerprint; with none
 *   it has no effect (creates nothing, answers nothing);
 * - any other payload whose fingerprint matches a not-resolved alert (triggered, acknowledged or
 *   ignored) is grouped into it: its events counter increases, nothing is created;
 * - otherwise the payload creates a new alert (a payload without a fingerprint always does); in
 *   particular after a resolution an identical payload creates a new alert;
 * - a new request (not a heartbeat alert) first resolves its integration's open heartbeat alert, as
 *   of its received time (not before the alert started); this is no answer of the request.
 * Per new message (index in `fresh`): its answer and what each payload did.
 */
function alertChanges(fresh: readonly AdmittedRawAlert[], state: BatchState, now: Date) {
  // Per project and fingerprint: the not-resolved alert now; null once the batch has resolved it.
  const open = new Map<string, ChangedAlert | null>(
    state.openAlerts.map((stored) => [openAlertKey(stored.project_id, stored.fingerprint_sha256 as string), { stored, alert: stored, grouped: 0 }]),
  );
  const lastIids = new Map(state.lastIids);
  const silences = silencesByProject(state.silences);
  const changed = new Set<ChangedAlert>();
  const events: AlertEventOut[] = [];
  const activity: ActivityEntryOut[] = [];
  const answers = fresh.map((): CreatedAlert[] => []);
  const actions = fresh.map((): AlertAction[] => []);
  const heartbeatKeys = new Map<string, string>();
  fresh.forEach(({ raw, candidates, origin }, work) => {
    if (origin === undefined) {
      let key = heartbeatKeys.get(raw.integration_id);
      if (key === undefined) {
        key = openAlertKey(raw.project_id, heartbeatFingerprintSha256(raw.integration_id));
        heartbeatKeys.set(raw.integration_id, key);
      }
      const heartbeat = open.get(key);
      if (heartbeat) {
        const received = new Date(raw.received_at);
        const endedAt = Number.isNaN(received.getTime()) || received < heartbeat.alert.started_at ? heartbeat.alert.started_at : received;
        activity.push(statusChangeEntry(heartbeat.stored ?? heartbeat.alert, heartbeat.alert.status, 'resolved', { type: 'heartbeat' }, now));
        heartbeat.alert = { ...heartbeat.alert, status: 'resolved', ended_at: endedAt, updated_at: now };
        open.set(key, null);
        changed.add(heartbeat);
        events.push(alertEvent(EVENT_TYPE.resolve, heartbeat.alert, now, { type: 'heartbeat' }));
      }
    }
    for (const candidate of candidates) {
      const key = candidate.fingerprintSha256 === null ? null : openAlertKey(raw.project_id, candidate.fingerprintSha256);
      let target = key === null ? null : (open.get(key) ?? null);
      let operation: AlertOperation;
      if (candidate.endedAt !== null) {
        if (key === null || target === null) {
          actions[work].push('unmatched');
          continue;
        }
        operation = 'resolve';
        activity.push(statusChangeEntry(target.stored ?? target.alert, target.alert.status, 'resolved', cause(raw, origin), now));
        target.alert = { ...target.alert, status: 'resolved', ended_at: candidate.endedAt, updated_at: now };
        open.set(key, null);
      } else if (target) {
        operation = 'group';
        target.alert = { ...target.alert, events: target.alert.events + 1, updated_at: now };
        target.grouped += 1;
      } else {
        operation = 'create';
        const iid = (lastIids.get(raw.project_id) ?? 0) + 1;
        lastIids.set(raw.project_id, iid);
        target = { stored: undefined, alert: newAlert(raw, candidate, iid, now), grouped: 0 };
        if (key !== null) open.set(key, target);
      }
      target.alert = { ...target.alert, silenced_by: silencingSilence(silences.get(raw.project_id) ?? [], silenceablePayload(candidate, raw.integration_id), now) };
      changed.add(target);
      actions[work].push(ACTION[operation]);
      answers[work].push({ iid: target.alert.iid, title: target.alert.title });
      events.push(alertEvent(EVENT_TYPE[operation], target.alert, now, cause(raw, origin)));
    }
  });
  const writes: Pick<BatchWrites, 'iidCounters' | 'alertUpdates' | 'alertInserts' | 'events' | 'activity'> = {
    iidCounters: [...lastIids].filter(([projectId, last]) => last !== (state.lastIids.get(projectId) ?? 0)).map(([project_id, last_iid]) => ({ project_id, last_iid })),
    alertUpdates: [],
    alertInserts: [],
    events,
    activity,
  };
  for (const { stored, alert, grouped } of changed) {
    if (stored) {
      writes.alertUpdates.push({ id: stored.id, grouped, ended_at: alert.status === 'resolved' ? alert.ended_at : null, silence_id: alert.silenced_by?.id ?? null });
    }
    else writes.alertInserts.push((({ created_at: _created, updated_at: _updated, ...row }) => row)(alert));
  }
  return { writes, answers, actions };
}

/** What made a payload's change: its integration's payload, or the missed heartbeat it stands for. */
function cause(raw: RawAlert.RawAlertValue, origin: AdmittedRawAlert['origin']): AlertEvent.AlertEventCause {
  return origin === 'heartbeat' ? { type: 'heartbeat' } : payloadCause(raw.integration_id);
}

/** A new alert (spec 2.2), `triggered`, from the payload that creates it and counts as its first event. */
function newAlert({ project_id, integration_id }: RawAlert.RawAlertValue, candidate: AlertCandidate, iid: number, now: Date): AlertState {
  const { startedAt, endedAt: _ended, monitoringTool, platformEnvironmentName, fingerprintSha256, ...same } = candidate;
  return {
    ...same,
    project_id,
    iid,
    integration_id,
    status: 'triggered',
    events: 1,
    started_at: startedAt,
    ended_at: null,
    monitoring_tool: monitoringTool,
    platform_environment_name: platformEnvironmentName,
    fingerprint_sha256: fingerprintSha256,
    silenced_by: null,
    incident_id: null,
    incident_iid: null,
    assignees: [],
    first_grouped_at: null,
    last_grouped_at: null,
    created_at: now,
    updated_at: now,
  };
}

function silencesByProject(silences: readonly Silence[]): Map<string, Silence[]> {
  const byProject = new Map<string, Silence[]>();
  for (const silence of silences) byProject.set(silence.project_id, [...(byProject.get(silence.project_id) ?? []), silence]);
  return byProject;
}

function openAlertKey(projectId: string, fingerprintSha256: string): string {
  return `${projectId}:${fingerprintSha256}`;
}
