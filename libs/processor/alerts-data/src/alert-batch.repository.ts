import { BatchState, BatchWrites, compareIds, IdempotencyAnswer, StateKeys } from '@alert-ingestion/alerts-domain';
import { CreatedAlert } from '@alert-ingestion/contracts';
import { isUniqueViolation, sqlLiteral } from '@alert-ingestion/sql';
import { activityStatements } from './activity-entries';
import { alertEventStatements } from './alert-event-outbox';
import { AlertsDatabase, ScriptedTransaction } from './alerts-database';
import { ALERT_COLUMNS, AlertRow, storedAlert } from './alerts-query.repository';
import { SILENCE_COLUMNS, SilenceRow, storedSilence } from './silences.repository';
import { deliveryStatements } from './deliveries.repository';

/**
 * Another transaction got there first, and this one waited for it and failed: a concurrent
 * instance stored the same request id (the batch, run again, is then a redelivery), or created a
 * not-resolved alert with a fingerprint of the batch (run again, the batch groups into it).
 */
function lostRace(error: unknown): boolean {
  return isUniqueViolation(error, 'processed_raw_alerts_pkey') || isUniqueViolation(error, 'alerts_open_fingerprint_key');
}

/**
 * Where batches of raw alert messages are stored: one transaction per batch, in two round trips to
 * the server whatever the batch size: readState (BEGIN, then read and lock the state the batch starts
 * from), then write (everything the batch's plan writes, then COMMIT). What to write is the caller's
 * (planAlertBatch, pure); this class only reads and writes.
 *
 * Locks are taken in one order by every batch (counters by project, then alerts by project and
 * fingerprint), so instances wait on each other without cycles. The partial unique index
 * alerts_open_fingerprint_key (one not-resolved alert per project and fingerprint) is the final
 * arbiter: a new alert that another instance created meanwhile fails the insert, and the batch runs
 * again and groups into it: the database enforces it, not only memory. The primary key of
 * processed_raw_alerts does the same for a request id two instances process at once.
 */
export class AlertBatchRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * Runs `work` in one transaction, which its write commits (without one, nothing is written). A
   * deadlock, or a race lost to another transaction (lostRace), rolls back and runs `work` again,
   * which then reads what the winner committed.
   */
  transaction<T>(work: (transaction: AlertBatchTransaction) => Promise<T>): Promise<T> {
    return this.database.scriptedTransaction((transaction) => work(new AlertBatchTransaction(transaction)), lostRace);
  }
}

/** One batch's transaction: read the state once, then write once (which commits). */
export class AlertBatchTransaction {
  constructor(private readonly transaction: ScriptedTransaction) {}

  /**
   * BEGIN, and the state for `keys`, locked until commit so that no other transaction numbers alerts
   * of these projects, processes these request ids or changes these alerts meanwhile: each project's
   * iid counter (created at 0 when missing), the stored answers of the request ids (locked, so that
   * two instances renewing one expired answer take turns), and the not-resolved alerts of the
   * fingerprints (and the heartbeat alert fingerprints of the batch's integrations): one index probe
   * of alerts_open_fingerprint_key each (the LATERAL subquery keeps the planner from scanning the
   * table). With them, unlocked, the silences of the projects that have not ended: one probe of
   * silences_project_id_ends_at_idx per project, in the same round trip (a silence created meanwhile
   * applies from the next batch on).
   */
  async readState(keys: StateKeys): Promise<BatchState> {
    if (keys.projectIds.length === 0 && keys.requestIds.length === 0) return { lastIids: new Map(), answers: new Map(), openAlerts: [], silences: [] };
    const projects = sqlLiteral.json([...keys.projectIds].sort(compareIds));
    const probed = new Map([...keys.fingerprints, ...keys.heartbeatFingerprints].map((key) => [`${key.projectId}:${key.fingerprintSha256}`, key]));
    const fingerprints = [...probed.values()]
      .map(({ projectId, fingerprintSha256 }) => ({ project_id: projectId, fingerprint_sha256: fingerprintSha256 }))
      .sort((a, b) => compareIds(a.project_id, b.project_id) || a.fingerprint_sha256.localeCompare(b.fingerprint_sha256));
    const [, counters, answers, openAlerts, silences] = await this.transaction.step([
      `INSERT INTO alert_iid_counters (project_id, last_iid)
       SELECT p.id::bigint, 0 FROM json_array_elements_text(${projects}) AS p(id)
       ON CONFLICT (project_id) DO NOTHING`,
      `SELECT project_id, last_iid FROM alert_iid_counters
       WHERE project_id IN (SELECT p.id::bigint FROM json_array_elements_text(${projects}) AS p(id))
       ORDER BY project_id FOR UPDATE`,
      `SELECT request_id, result, processed_at FROM processed_raw_alerts
       WHERE request_id IN (SELECT r.id::uuid FROM json_array_elements_text(${sqlLiteral.json(keys.requestIds)}) AS r(id))
       FOR UPDATE`,
      `SELECT ${ALERT_COLUMNS}
       FROM ROWS FROM (json_to_recordset(${sqlLiteral.json(fingerprints)}) AS (project_id bigint, fingerprint_sha256 char(64))) WITH ORDINALITY AS k(project_id, fingerprint_sha256, position)
       CROSS JOIN LATERAL (
         SELECT * FROM alerts
         WHERE alerts.project_id = k.project_id AND alerts.fingerprint_sha256 = k.fingerprint_sha256
           AND alerts.status <> 'resolved' AND alerts.fingerprint_sha256 IS NOT NULL
         OFFSET 0
         FOR UPDATE
       ) AS a
       LEFT JOIN silences s ON s.id = a.silence_id
       ORDER BY k.position`,
      `SELECT ${SILENCE_COLUMNS} FROM silences
       WHERE project_id IN (SELECT p.id::bigint FROM json_array_elements_text(${projects}) AS p(id)) AND ends_at > now()`,
    ]);
    return {
      lastIids: new Map((counters.rows as Array<{ project_id: string; last_iid: number }>).map((row) => [row.project_id, row.last_iid])),
      answers: new Map(
        (answers.rows as Array<{ request_id: string; result: { alerts: CreatedAlert[] }; processed_at: Date }>).map((row) => [
          row.request_id,
          { alerts: row.result.alerts, processedAt: new Date(row.processed_at) },
        ]),
      ),
      openAlerts: (openAlerts.rows as AlertRow[]).map(storedAlert),
      silences: (silences.rows as SilenceRow[]).map(storedSilence),
    };
  }

  /**
   * Heartbeat checker: locks the heartbeats of `silent` that are still silent since the same last
   * request and not yet marked expired for it, skipping those another instance holds (it is
   * raising them, or a batch is recording a new request). Called after readState, so that locks are
   * taken in the batches' order (counters, alerts, then heartbeats) and never wait in a cycle.
   * Resolves the integration ids claimed.
   */
  async claimHeartbeats(silent: ReadonlyArray<{ integrationId: string; lastRequestAt: Date }>): Promise<Set<string>> {
    if (silent.length === 0) return new Set();
    const rows = silent.map(({ integrationId, lastRequestAt }) => ({ integration_id: integrationId, last_request_at: lastRequestAt.toISOString() }));
    const [claimed] = await this.transaction.step<{ integration_id: string }>([
      `SELECT h.integration_id::text AS integration_id
       FROM integration_heartbeats h
       JOIN json_to_recordset(${sqlLiteral.json(rows)}) AS s(integration_id bigint, last_request_at timestamptz) ON h.integration_id = s.integration_id
       WHERE h.last_request_at = s.last_request_at AND h.expired_for IS DISTINCT FROM h.last_request_at
       ORDER BY h.integration_id
       FOR UPDATE OF h SKIP LOCKED`,
    ]);
    return new Set(claimed.rows.map((row) => row.integration_id));
  }

  /** Writes everything, each kind of row by one set-based statement, and commits, in one round trip. */
  async write(writes: BatchWrites, now: Date): Promise<void> {
    await this.transaction.commit([
      ...alertStatements(writes, now),
      ...activityStatements(writes.activity),
      ...alertEventStatements(writes.events),
      ...answerStatements(writes.newAnswers, writes.renewedAnswers, now),
      ...deliveryStatements(writes.deliveries),
      ...heartbeatStatements(writes),
    ]);
  }
}

/**
 * Heartbeats: each integration's latest request (one upsert per integration of the batch, kept only
 * when later than the stored one, so a late batch never moves it back), and the heartbeats whose
 * alert the plan raised, marked expired for the last request it was raised for.
 */
function heartbeatStatements({ lastRequests, expiredHeartbeats }: BatchWrites): string[] {
  return [
    ...(lastRequests.length === 0
      ? []
      : [
          `INSERT INTO integration_heartbeats (integration_id, project_id, last_request_at)
           SELECT r.integration_id, r.project_id, r.last_request_at
           FROM json_to_recordset(${sqlLiteral.json(lastRequests)}) AS r(integration_id bigint, project_id bigint, last_request_at timestamptz)
           ORDER BY r.integration_id
           ON CONFLICT (integration_id) DO UPDATE SET last_request_at = EXCLUDED.last_request_at
           WHERE integration_heartbeats.last_request_at < EXCLUDED.last_request_at`,
        ]),
    ...(expiredHeartbeats.length === 0
      ? []
      : [
          `UPDATE integration_heartbeats h SET expired_for = e.last_request_at
           FROM json_to_recordset(${sqlLiteral.json(expiredHeartbeats)}) AS e(integration_id bigint, last_request_at timestamptz)
           WHERE h.integration_id = e.integration_id`,
        ]),
  ];
}

function alertStatements({ iidCounters, alertUpdates, alertInserts }: BatchWrites, now: Date): string[] {
  const statements: string[] = [];
  const at = sqlLiteral.timestamptz(now);
  if (iidCounters.length > 0) {
    statements.push(
      `UPDATE alert_iid_counters c SET last_iid = u.last_iid
       FROM json_to_recordset(${sqlLiteral.json(iidCounters)}) AS u(project_id bigint, last_iid int)
       WHERE c.project_id = u.project_id`,
    );
  }
  if (alertUpdates.length > 0) {
    statements.push(
      `UPDATE alerts a SET
         events = a.events + u.grouped,
         status = CASE WHEN u.ended_at IS NULL THEN a.status ELSE 'resolved'::alert_status END,
         ended_at = COALESCE(u.ended_at, a.ended_at),
         silence_id = u.silence_id,
         first_grouped_at = CASE WHEN u.grouped > 0 THEN COALESCE(a.first_grouped_at, ${at}) ELSE a.first_grouped_at END,
         last_grouped_at = CASE WHEN u.grouped > 0 THEN ${at} ELSE a.last_grouped_at END,
         updated_at = ${at}
       FROM json_to_recordset(${sqlLiteral.json(alertUpdates)}) AS u(id bigint, grouped int, ended_at timestamptz, silence_id bigint)
       WHERE a.id = u.id`,
    );
  }
  if (alertInserts.length > 0) {
    // Payloads travel in a document of their own: json_to_recordset unescapes every string of its
    // document, and refuses a payload's \u0000 or unpaired surrogate, which json_array_elements and
    // the `json` column keep as they are (docs/operating.md "Input policy and limits").
    const rows = alertInserts.map(({ payload: _payload, silenced_by, assignees: _assignees, ...row }) => ({ ...row, silence_id: silenced_by?.id ?? null }));
    statements.push(
      `INSERT INTO alerts (project_id, iid, integration_id, title, description, severity, status, events, started_at, ended_at,
         service, monitoring_tool, hosts, platform_environment_name, fingerprint, fingerprint_sha256, silence_id, payload, created_at, updated_at,
         first_grouped_at, last_grouped_at)
       SELECT r.project_id, r.iid, r.integration_id, r.title, r.description, r.severity::alert_severity, r.status::alert_status,
         r.events, r.started_at, r.ended_at, r.service, r.monitoring_tool, r.hosts, r.platform_environment_name, r.fingerprint,
         r.fingerprint_sha256, r.silence_id, p.payload, ${at}, ${at},
         CASE WHEN r.events > 1 THEN ${at} END, CASE WHEN r.events > 1 THEN ${at} END
       FROM ROWS FROM (json_to_recordset(${sqlLiteral.json(rows)}) AS (project_id bigint, iid int, integration_id bigint, title text,
         description text, severity text, status text, events int, started_at timestamptz, ended_at timestamptz, service text,
         monitoring_tool text, hosts text[], platform_environment_name text, fingerprint text, fingerprint_sha256 char(64), silence_id bigint))
         WITH ORDINALITY AS r
       JOIN json_array_elements(${sqlLiteral.json(alertInserts.map((insert) => insert.payload))}) WITH ORDINALITY AS p(payload, ordinality)
         ON p.ordinality = r.ordinality
       ORDER BY r.ordinality`,
    );
  }
  return statements;
}

/** Idempotency records: new answers inserted, renewed ones replacing the expired answer (locked by readState). */
function answerStatements(inserted: readonly IdempotencyAnswer[], replaced: readonly IdempotencyAnswer[], now: Date): string[] {
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
