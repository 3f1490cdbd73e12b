import { CreatedAlert } from '@alert-ingestion/contracts';
import { AlertCandidate, openAlertKey } from '@alert-ingestion/alerts-domain';
import { AlertAction, alertBatchChanges, AlertBatchChanges, BatchItem } from './alert-batch-changes';
import { alertEventStatements } from './alert-event-outbox';
import { deliveryStatements, DeliveryWork } from './deliveries.repository';
import { ALERT_COLUMNS, AlertRow } from './alert-row';
import { sqlLiteral } from '@alert-ingestion/sql';
import { AlertsDatabase, ScriptedTransaction, sqlState } from './alerts-database';

/** The alert payloads of one raw alert message, ready to store. */
export interface RawAlertWork {
  requestId: string;
  projectId: string;
  integrationId: string;
  candidates: AlertCandidate[];
  /**
   * A stored answer to this request id from before this instant is not repeated: the request is
   * processed as new (an Idempotency-Key is kept 24 hours). Null: a stored answer always counts.
   */
  storedAnswerValidFrom: Date | null;
  /** Recorded with its answer in the same transaction; absent when deliveries are not recorded. */
  delivery?: DeliveryWork;
}

/** The stored answer to one raw alert message: one element per alert created or grouped into. */
export interface RawAlertResult {
  requestId: string;
  alerts: CreatedAlert[];
  /** The message had been processed before (a redelivery): nothing changed, the stored answer is repeated. */
  redelivered: boolean;
  /** What each of its payloads did, in payload order; empty for a redelivery, which changed nothing. */
  actions: AlertAction[];
}

/**
 * Another transaction got there first, and this one waited for it and failed: a concurrent
 * instance stored the same request id (the batch, run again, is then a redelivery), or created a
 * not-resolved alert with a fingerprint of the batch (run again, the batch groups into it).
 */
function lostRace(error: unknown): boolean {
  const constraint = (error as { constraint?: string }).constraint;
  return sqlState(error) === '23505' && (constraint === 'processed_raw_alerts_pkey' || constraint === 'alerts_open_fingerprint_key');
}

/**
 * Stores batches of raw alert messages: one transaction per batch, in two round trips to the
 * server whatever the batch size:
 * 1. BEGIN, then read and lock the state the batch starts from: each project's iid counter, the
 *    request ids already processed, the not-resolved alerts its fingerprints match;
 * 2. write everything alertBatchChanges (pure) derives from that state, then COMMIT.
 * The effect is exactly once per request id: a message whose request id is in
 * processed_raw_alerts changes nothing and gets its stored answer again.
 *
 * Locks are taken in one order by every batch (counters by project, then alerts by project and
 * fingerprint), so instances wait on each other without cycles. The partial unique index
 * alerts_open_fingerprint_key (one not-resolved alert per project and fingerprint) is the final
 * arbiter: a new alert that another instance created meanwhile fails the insert, and the batch runs
 * again and groups into it: the database enforces it, not only memory.
 */
export class AlertBatchRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** A batch that lost a race (see lostRace) runs again, and then sees what the winner committed. */
  store(batch: readonly RawAlertWork[], now: Date): Promise<RawAlertResult[]> {
    return this.database.scriptedTransaction((transaction) => this.storeIn(transaction, batch, now), lostRace);
  }

  private async storeIn(transaction: ScriptedTransaction, batch: readonly RawAlertWork[], now: Date): Promise<RawAlertResult[]> {
    const start = await this.readAndLock(transaction, batch);

    // A request id processed before, or seen earlier in this batch, is a redelivery (or a repeat of an
    // Idempotency-Key): only its first copy counts. A stored answer too old for its key does not.
    const fresh: number[] = [];
    const renewed = new Set<string>();
    const seen = new Set<string>();
    batch.forEach((work, index) => {
      const stored = start.processed.get(work.requestId);
      const stale = stored !== undefined && work.storedAnswerValidFrom !== null && stored.processedAt < work.storedAnswerValidFrom;
      if ((stored && !stale) || seen.has(work.requestId)) return;
      if (stale) {
        renewed.add(work.requestId);
        start.processed.delete(work.requestId);
      }
      seen.add(work.requestId);
      fresh.push(index);
    });
    const items: BatchItem[] = fresh.flatMap((work) =>
      batch[work].candidates.map((candidate) => ({ work, projectId: batch[work].projectId, integrationId: batch[work].integrationId, candidate })),
    );
    const changes = alertBatchChanges(items, start.openAlerts, start.lastIids, now);
    const answers = new Map(fresh.map((work) => [work, changes.answers.get(work) ?? []]));
    const byRequest = new Map([...start.processed].map(([requestId, stored]) => [requestId, stored.alerts]));
    for (const [work, alerts] of answers) byRequest.set(batch[work].requestId, alerts);
    const results = batch.map((work, index) => ({
      requestId: work.requestId,
      alerts: byRequest.get(work.requestId) ?? [],
      redelivered: !answers.has(index),
      actions: answers.has(index) ? (changes.actions.get(index) ?? []) : [],
    }));
    await transaction.commit([
      ...writeStatements(changes, now),
      ...processedStatements(batch, answers, renewed, now),
      ...deliveryStatements(
        batch.flatMap((work, index) =>
          work.delivery
            ? [{ projectId: work.projectId, integrationId: work.integrationId, delivery: work.delivery, status: 200, error: null, alerts: results[index].alerts }]
            : [],
        ),
      ),
    ]);
    return results;
  }

  /**
   * Step 1. The iid counter of each project of the batch (created at 0 when missing) and the
   * not-resolved alerts its fingerprints match are locked until commit, so that no other transaction
   * numbers alerts of these projects or changes these alerts meanwhile. One index probe of
   * alerts_open_fingerprint_key per fingerprint (the LATERAL subquery keeps the planner from
   * scanning the table).
   */
  private async readAndLock(transaction: ScriptedTransaction, batch: readonly RawAlertWork[]) {
    const projectIds = [...new Set(batch.map((work) => work.projectId))].sort(compareIds);
    const keys = new Map<string, { project_id: string; fingerprint_sha256: string }>();
    for (const { projectId, candidates } of batch) {
      for (const { fingerprintSha256 } of candidates) {
        if (fingerprintSha256 !== null) keys.set(openAlertKey(projectId, fingerprintSha256), { project_id: projectId, fingerprint_sha256: fingerprintSha256 });
      }
    }
    const ordered = [...keys.values()].sort((a, b) => compareIds(a.project_id, b.project_id) || a.fingerprint_sha256.localeCompare(b.fingerprint_sha256));
    const projects = sqlLiteral.json(projectIds);
    const [, counters, processed, openAlerts] = await transaction.step([
      `INSERT INTO alert_iid_counters (project_id, last_iid)
       SELECT p.id::bigint, 0 FROM json_array_elements_text(${projects}) AS p(id)
       ON CONFLICT (project_id) DO NOTHING`,
      `SELECT project_id, last_iid FROM alert_iid_counters
       WHERE project_id IN (SELECT p.id::bigint FROM json_array_elements_text(${projects}) AS p(id))
       ORDER BY project_id FOR UPDATE`,
      // Locked, so that two instances renewing one stale Idempotency-Key answer take turns.
      `SELECT request_id, result, processed_at FROM processed_raw_alerts
       WHERE request_id IN (SELECT r.id::uuid FROM json_array_elements_text(${sqlLiteral.json(batch.map((work) => work.requestId))}) AS r(id))
       FOR UPDATE`,
      `SELECT ${ALERT_COLUMNS.replace(/(\w+)/g, 'a.$1')}
       FROM ROWS FROM (json_to_recordset(${sqlLiteral.json(ordered)}) AS (project_id bigint, fingerprint_sha256 char(64))) WITH ORDINALITY AS k(project_id, fingerprint_sha256, position)
       CROSS JOIN LATERAL (
         SELECT * FROM alerts
         WHERE alerts.project_id = k.project_id AND alerts.fingerprint_sha256 = k.fingerprint_sha256
           AND alerts.status <> 'resolved' AND alerts.fingerprint_sha256 IS NOT NULL
         OFFSET 0
         FOR UPDATE
       ) AS a
       ORDER BY k.position`,
    ]);
    return {
      lastIids: new Map((counters.rows as Array<{ project_id: string; last_iid: number }>).map((row) => [row.project_id, row.last_iid])),
      processed: new Map(
        (processed.rows as Array<{ request_id: string; result: { alerts: CreatedAlert[] }; processed_at: Date }>).map((row) => [
          row.request_id,
          { alerts: row.result.alerts, processedAt: new Date(row.processed_at) },
        ]),
      ),
      openAlerts: new Map((openAlerts.rows as AlertRow[]).map((row) => [row.id, row])),
    };
  }
}

/** Step 2: the batch's changes, each kind of row written by one set-based statement. */
function writeStatements(changes: AlertBatchChanges, now: Date): string[] {
  const statements: string[] = [];
  const at = sqlLiteral.timestamptz(now);
  if (changes.iidCounters.length > 0) {
    statements.push(
      `UPDATE alert_iid_counters c SET last_iid = u.last_iid
       FROM json_to_recordset(${sqlLiteral.json(changes.iidCounters)}) AS u(project_id bigint, last_iid int)
       WHERE c.project_id = u.project_id`,
    );
  }
  if (changes.updates.length > 0) {
    statements.push(
      `UPDATE alerts a SET
         events = a.events + u.grouped,
         status = CASE WHEN u.ended_at IS NULL THEN a.status ELSE 'resolved'::alert_status END,
         ended_at = COALESCE(u.ended_at, a.ended_at),
         updated_at = ${at}
       FROM json_to_recordset(${sqlLiteral.json(changes.updates)}) AS u(id bigint, grouped int, ended_at timestamptz)
       WHERE a.id = u.id`,
    );
  }
  if (changes.inserts.length > 0) {
    // Payloads travel in a document of their own: json_to_recordset unescapes every string of its
    // document, and refuses a payload's \u0000 or unpaired surrogate, which json_array_elements and
    // the `json` column keep as they are (README "Input policy and limits").
    const rows = changes.inserts.map(({ payload: _payload, ...row }) => row);
    statements.push(
      `INSERT INTO alerts (project_id, iid, integration_id, title, description, severity, status, events, started_at, ended_at,
         service, monitoring_tool, hosts, platform_environment_name, fingerprint, fingerprint_sha256, payload, created_at, updated_at)
       SELECT r.project_id, r.iid, r.integration_id, r.title, r.description, r.severity::alert_severity, r.status::alert_status,
         r.events, r.started_at, r.ended_at, r.service, r.monitoring_tool, r.hosts, r.platform_environment_name, r.fingerprint,
         r.fingerprint_sha256, p.payload, ${at}, ${at}
       FROM ROWS FROM (json_to_recordset(${sqlLiteral.json(rows)}) AS (project_id bigint, iid int, integration_id bigint, title text,
         description text, severity text, status text, events int, started_at timestamptz, ended_at timestamptz, service text,
         monitoring_tool text, hosts text[], platform_environment_name text, fingerprint text, fingerprint_sha256 char(64)))
         WITH ORDINALITY AS r
       JOIN json_array_elements(${sqlLiteral.json(changes.inserts.map((insert) => insert.payload))}) WITH ORDINALITY AS p(payload, ordinality)
         ON p.ordinality = r.ordinality
       ORDER BY r.ordinality`,
    );
  }
  statements.push(...alertEventStatements(changes.events));
  return statements;
}

/**
 * The idempotency record of each newly processed raw alert message, with its answer: inserted, or
 * replacing a stored answer that was too old for its Idempotency-Key (`renewed`, locked in step 1).
 */
function processedStatements(batch: readonly RawAlertWork[], answers: ReadonlyMap<number, CreatedAlert[]>, renewed: ReadonlySet<string>, now: Date): string[] {
  const rows = [...answers].map(([work, alerts]) => ({ request_id: batch[work].requestId, project_id: batch[work].projectId, result: { alerts } }));
  const inserted = rows.filter((row) => !renewed.has(row.request_id));
  const replaced = rows.filter((row) => renewed.has(row.request_id));
  const at = sqlLiteral.timestamptz(now);
  return [
    ...(inserted.length === 0
      ? []
      : [
          `INSERT INTO processed_raw_alerts (request_id, project_id, result, processed_at)
           SELECT r.request_id, r.project_id, r.result, ${at}
           FROM json_to_recordset(${sqlLiteral.json(inserted)}) AS r(request_id uuid, project_id bigint, result jsonb)`,
        ]),
    ...(replaced.length === 0
      ? []
      : [
          `UPDATE processed_raw_alerts p SET result = r.result, processed_at = ${at}
           FROM json_to_recordset(${sqlLiteral.json(replaced)}) AS r(request_id uuid, project_id bigint, result jsonb)
           WHERE p.request_id = r.request_id`,
        ]),
  ];
}

/** Orders decimal id strings numerically (the order PostgreSQL locks bigint keys in). */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
