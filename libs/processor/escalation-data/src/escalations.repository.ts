import { activityStatements, AlertsDatabase, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import { ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { AlertStatus, EscalationCondition, Severity } from '@alert-ingestion/contracts';
import {
  ClaimChanges,
  ClaimedSchedule,
  describeRule,
  EngineClaimState,
  EscalationEventChanges,
  EscalationEventState,
  EscalationUpdate,
  NewEscalation,
  NewPage,
  PagedAlert,
  PagedRecipient,
  PageDelivery,
  PageUpdate,
  StoredEscalation,
  StoredPage,
  UserPaging,
} from '@alert-ingestion/escalation-domain';
import { DAY_MS, scheduleTimeline } from '@alert-ingestion/oncall-domain';
import { readTimelines } from '@alert-ingestion/oncall-data';
import { sqlLiteral } from '@alert-ingestion/sql';
import { ESCALATION_COLUMNS, EscalationRow, PAGE_COLUMNS, PageRow, policyJson, policyOf, storedEscalation, storedPage } from './escalation-rows';
import { readPaging } from './paging.repository';

/** How far around now a schedule's timeline is read: shifts are read whole up to 400 days either way (oncall-domain wholeShifts). */
const WHOLE_SHIFT_REACH_MS = 401 * DAY_MS;

/** The engine's claim, as read (locked): the state its plan takes, less the members (access control's). */
export type ClaimRead = Omit<EngineClaimState, 'members' | 'paging'> & {
  /** The projects of what is due, whose members may be paged. */
  projectIds: string[];
};

/** An alert's current escalation run and its pages, as the alert page shows them. */
export interface AlertEscalationRead {
  escalation: StoredEscalation;
  pages: StoredPage[];
}

/**
 * Escalation runs and their pages (docs/api-guide.md "Escalation policies"): what the escalation
 * consumer decides a chunk of alert events on (the runs locked) and its write; the engine's claim
 * (due runs and pages FOR UPDATE SKIP LOCKED, their alerts FOR UPDATE) and its write, committed
 * before any page is sent; what a page needs to go out; the outcome recorded where the claim still
 * holds; an alert's escalation. No rule lives here: escalation-domain decides.
 */
export class EscalationsRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * What a chunk of events is decided on: the latest run of each of its alerts (locked), the
   * policies of its projects, the events that started runs already, and who each run paged and
   * wants notices. `usernames` of the users who made the changes are the caller's.
   */
  async eventState(
    transaction: ScriptedTransaction,
    alerts: ReadonlyArray<{ projectId: string; iid: number }>,
    eventIds: readonly string[],
    usernames: ReadonlyMap<string, string>,
  ): Promise<EscalationEventState> {
    const refs = JSON.stringify(alerts.map((alert) => ({ project_id: alert.projectId, iid: alert.iid })));
    const projectIds = [...new Set(alerts.map((alert) => alert.projectId))];
    const runs = await transaction.query<EscalationRow>(
      `SELECT ${ESCALATION_COLUMNS} FROM alert_escalations e JOIN alerts a ON a.id = e.alert_id
       JOIN json_to_recordset($1::json) AS r(project_id bigint, iid int) ON a.project_id = r.project_id AND a.iid = r.iid
       WHERE NOT EXISTS (SELECT 1 FROM alert_escalations later WHERE later.alert_id = e.alert_id AND later.run > e.run)
       ORDER BY e.id FOR UPDATE OF e`,
      [refs],
    );
    const escalationIds = runs.rows.map((row) => row.id);
    const [policies, started, paged] = await Promise.all([
      transaction.query<{ project_id: string; rules: EscalationRow['policy']['rules']; repeat: number; created_at: Date }>(
        'SELECT project_id::text AS project_id, rules, repeat, created_at FROM escalation_policies WHERE project_id = ANY($1::bigint[])',
        [projectIds],
      ),
      transaction.query<{ started_by_event: string }>(
        `SELECT e.started_by_event FROM alert_escalations e JOIN alerts a ON a.id = e.alert_id
         JOIN json_to_recordset($1::json) AS r(project_id bigint, iid int) ON a.project_id = r.project_id AND a.iid = r.iid
         WHERE e.started_by_event = ANY($2::text[])`,
        [refs, [...eventIds]],
      ),
      transaction.query<{ escalation_id: string; user_id: string | null; username: string | null; method: PagedRecipient['method']; address: string; contact_method_id: string | null }>(
        `SELECT DISTINCT escalation_id::text AS escalation_id, user_id::text AS user_id, username, method, address, contact_method_id::text AS contact_method_id
         FROM escalation_pages WHERE escalation_id = ANY($1::bigint[]) AND kind = 'page' AND status = 'sent'`,
        [escalationIds],
      ),
    ]);
    const pagedUsers = [...new Set(paged.rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id])))];
    const notices = await transaction.query<{ user_id: string }>('SELECT user_id::text AS user_id FROM user_paging_settings WHERE status_notices AND user_id = ANY($1::bigint[])', [pagedUsers]);
    const byRun = new Map<string, PagedRecipient[]>();
    for (const row of paged.rows) {
      const list = byRun.get(row.escalation_id) ?? byRun.set(row.escalation_id, []).get(row.escalation_id)!;
      list.push({ userId: row.user_id, username: row.username, method: row.method, address: row.address, contactMethodId: row.contact_method_id });
    }
    return {
      policies: new Map(policies.rows.map((row) => [row.project_id, { policy: policyOf(row), since: row.created_at.getTime() }])),
      escalations: new Map(runs.rows.map((row) => [`${row.project_id}:${row.alert_iid}`, storedEscalation(row)])),
      startedBy: new Set(started.rows.map((row) => row.started_by_event)),
      paged: byRun,
      noticeUsers: new Set(notices.rows.map((row) => row.user_id)),
      usernames,
    };
  }

  /** The statements writing what a chunk of events decided (values inlined, for the COMMIT). */
  eventStatements(changes: EscalationEventChanges | null): string[] {
    if (!changes) return [];
    const starts = changes.starts.map((start) => escalationRow(start));
    return [
      ...(starts.length === 0
        ? []
        : [
            `INSERT INTO alert_escalations (project_id, alert_id, run, started_at, started_by_event, policy, state, next_loop, next_rule, next_due_at, ended_at, ended_reason)
             SELECT s.project_id, a.id, s.run, s.started_at, s.started_by_event, s.policy, s.state, s.next_loop, s.next_rule, s.next_due_at, s.ended_at, s.ended_reason
             FROM ROWS FROM (json_to_recordset(${sqlLiteral.json(starts)}) AS (project_id bigint, alert_iid int, run int, started_at timestamptz, started_by_event text, policy jsonb,
               state text, next_loop int, next_rule int, next_due_at timestamptz, ended_at timestamptz, ended_reason text)) WITH ORDINALITY AS s
             JOIN alerts a ON a.project_id = s.project_id AND a.iid = s.alert_iid
             ORDER BY s.ordinality
             ON CONFLICT DO NOTHING`,
          ]),
      ...updateStatements(changes.updates),
      ...changes.cancellations.map(
        (cancellation) =>
          `UPDATE escalation_pages SET status = 'cancelled', error = ${sqlLiteral.text(cancellation.reason)}, claimed_by = NULL, claimed_until = NULL
           WHERE escalation_id = ${Number(cancellation.escalationId)} AND status = 'pending' AND kind = 'page'
             AND condition IN (SELECT json_array_elements_text(${sqlLiteral.json(cancellation.conditions)}))
             AND (claimed_until IS NULL OR claimed_until < now())`,
      ),
      ...pageInserts(changes.notices, null),
    ];
  }

  /**
   * The engine's claim, read in the caller's transaction: up to `limit` runs whose next step is due
   * and up to `limit` due pages, each skipping what another claim holds at this moment, then their
   * alerts locked FOR UPDATE (in id order), so an acknowledgement committed before this read always
   * counts; the database's clock; the schedules the due rules page through (their timelines around
   * now). None due: null.
   */
  async claimRead(transaction: ScriptedTransaction, limit: number): Promise<ClaimRead | null> {
    const count = Math.max(1, Math.floor(limit));
    const runs = await transaction.query<EscalationRow>(
      `WITH due AS (
         SELECT id FROM alert_escalations WHERE next_due_at <= now() AND state IN ('running', 'acknowledged')
         ORDER BY next_due_at, id LIMIT ${count} FOR UPDATE SKIP LOCKED
       )
       SELECT ${ESCALATION_COLUMNS} FROM alert_escalations e JOIN due ON due.id = e.id JOIN alerts a ON a.id = e.alert_id ORDER BY e.next_due_at, e.id`,
    );
    const pages = await transaction.query<PageRow>(
      `WITH due AS (
         SELECT id FROM escalation_pages WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY next_attempt_at, id LIMIT ${count} FOR UPDATE SKIP LOCKED
       )
       SELECT ${PAGE_COLUMNS} FROM escalation_pages p JOIN due ON due.id = p.id ORDER BY p.next_attempt_at, p.id`,
    );
    if (runs.rows.length === 0 && pages.rows.length === 0) return null;
    const alertIds = [...new Set([...runs.rows.map((row) => row.alert_id), ...pages.rows.map((row) => row.alert_id)])];
    const [alerts, clock] = await Promise.all([
      transaction.query<{ id: string; project_id: string; iid: number; status: AlertStatus }>(
        'SELECT id::text AS id, project_id::text AS project_id, iid, status::text AS status FROM alerts WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
        [alertIds],
      ),
      transaction.query<{ now: Date }>('SELECT now() AS now'),
    ]);
    const now = clock.rows[0].now.getTime();
    const alertById = new Map(alerts.rows.map((row): [string, PagedAlert] => [row.id, { id: row.id, projectId: row.project_id, iid: row.iid, status: row.status }]));
    const due = runs.rows.flatMap((row) => {
      const alert = alertById.get(row.alert_id);
      return alert ? [{ escalation: storedEscalation(row), alert }] : [];
    });
    const scheduleIds = [...new Set(due.flatMap(({ escalation }) => escalation.policy.rules.flatMap((rule) => rule.targets.flatMap((target) => (target.type === 'schedule' ? [target.scheduleId] : [])))))];
    return {
      now,
      due,
      pages: pages.rows.flatMap((row) => {
        const alert = alertById.get(row.alert_id);
        return alert ? [{ page: storedPage(row), alert }] : [];
      }),
      schedules: await readSchedules(transaction, scheduleIds, now),
      projectIds: [...new Set([...due.map(({ escalation }) => escalation.projectId), ...pages.rows.map((row) => row.project_id)])],
    };
  }

  /** The paging of users, in the claim's transaction. */
  claimPaging(transaction: ScriptedTransaction, userIds: readonly string[]): Promise<Map<string, UserPaging>> {
    return readPaging(transaction, userIds);
  }

  /**
   * Writes a claim's decisions in its transaction, before anything is sent: the runs' next steps,
   * the new pages (those due by now leased to `claim` until `leaseMs` from now), the stored pages it
   * leases, and the ones it cancels. Resolves the ids of the pages leased to it.
   */
  async writeClaim(transaction: ScriptedTransaction, claim: string, leaseMs: number, now: number, changes: ClaimChanges | null): Promise<string[]> {
    if (!changes) return [];
    const lease = `now() + interval '${Math.max(1, Math.round(leaseMs))} milliseconds'`;
    const statements = [
      ...updateStatements(changes.escalations),
      ...pageInserts(changes.pages, { claim, lease, now }),
      ...(changes.claimed.length === 0
        ? []
        : [
            `UPDATE escalation_pages SET claimed_by = ${sqlLiteral.text(claim)}, claimed_until = ${lease}, next_attempt_at = ${lease},
               attempts = attempts + (claimed_until IS NOT NULL)::int
             WHERE id IN (SELECT json_array_elements_text(${sqlLiteral.json(changes.claimed)})::bigint) RETURNING id::text AS id`,
          ]),
      ...changes.cancelled.map((cancelled) => `UPDATE escalation_pages SET status = 'cancelled', error = ${sqlLiteral.text(cancelled.error)}, claimed_by = NULL, claimed_until = NULL WHERE id = ${Number(cancelled.id)}`),
    ];
    if (statements.length === 0) return [];
    const results = await transaction.step<{ id: string }>(statements);
    // Only the new pages' INSERT and the leasing UPDATE return rows: the ids leased to this claim (null: a page written for later).
    return results.flatMap((result) => result.rows.flatMap((row) => (typeof row.id === 'string' ? [row.id] : [])));
  }

  /** What each leased page needs to go out: the page, its alert and incident as they are now, its rule, its webhook secret. */
  async deliveries(pageIds: readonly string[]): Promise<Array<Omit<PageDelivery, 'alert'> & { alert: Omit<PageDelivery['alert'], 'projectPath'> }>> {
    if (pageIds.length === 0) return [];
    const { rows } = await this.database.pool.query<
      PageRow & {
        iid: number;
        title: string;
        severity: Severity;
        alert_status: string;
        started_at: Date;
        description: string | null;
        service: string | null;
        monitoring_tool: string | null;
        hosts: string[];
        incident_iid: number | null;
        incident_title: string | null;
        incident_status: string | null;
        policy: EscalationRow['policy'];
        secret: string | null;
      }
    >(
      `SELECT ${PAGE_COLUMNS}, a.iid, a.title, a.severity::text AS severity, a.status::text AS alert_status, a.started_at, a.description, a.service, a.monitoring_tool, a.hosts,
         i.iid AS incident_iid, i.title AS incident_title, i.status::text AS incident_status, e.policy,
         COALESCE(m.secret, w.secret) AS secret
       FROM escalation_pages p JOIN alerts a ON a.id = p.alert_id JOIN alert_escalations e ON e.id = p.escalation_id
       LEFT JOIN incidents i ON i.id = a.incident_id
       LEFT JOIN user_contact_methods m ON m.id = p.contact_method_id AND p.method = 'webhook'
       LEFT JOIN escalation_webhook_secrets w ON p.user_id IS NULL AND w.project_id = p.project_id AND w.url = p.address
       WHERE p.id = ANY($1::bigint[]) ORDER BY p.id`,
      [[...pageIds]],
    );
    return rows.map((row) => {
      const policy = policyOf(row.policy);
      const rule = row.rule === null ? undefined : policy.rules[row.rule];
      return {
        page: storedPage(row),
        alert: {
          projectId: row.project_id,
          iid: row.iid,
          title: row.title,
          severity: row.severity,
          status: row.alert_status,
          startedAt: row.started_at.toISOString(),
          description: row.description,
          service: row.service,
          monitoringTool: row.monitoring_tool,
          hosts: row.hosts,
        },
        incident: row.incident_iid === null ? null : { iid: row.incident_iid, title: row.incident_title ?? '', status: row.incident_status ?? '' },
        rule: rule ? { afterMinutes: rule.afterMinutes, condition: rule.condition as EscalationCondition, description: describeRule(rule) } : null,
        secret: row.secret,
      };
    });
  }

  /**
   * Records what became of the pages `claim` sent, with their timeline entries, and ends its lease,
   * in a short transaction of its own. A page whose lease ran out and that another claim took since
   * is left to that claim. Resolves the ids written.
   */
  async recordOutcome(claim: string, updates: readonly PageUpdate[], entries: readonly ActivityEntryOut[]): Promise<Set<string>> {
    if (updates.length === 0) return new Set();
    const rows = updates.map((update) => ({
      id: update.id,
      status: update.status,
      attempts: update.attempts,
      next_attempt_at: new Date(update.nextAttemptAt).toISOString(),
      error: update.error,
      sent_at: update.sentAt === null ? null : new Date(update.sentAt).toISOString(),
    }));
    return this.database.scriptedTransaction(async (transaction) => {
      const [updated] = await transaction.step<{ id: string }>([
        `UPDATE escalation_pages p SET status = u.status, attempts = u.attempts, next_attempt_at = u.next_attempt_at, error = u.error, sent_at = u.sent_at,
           claimed_by = NULL, claimed_until = NULL
         FROM json_to_recordset(${sqlLiteral.json(rows)}) AS u(id bigint, status text, attempts int, next_attempt_at timestamptz, error text, sent_at timestamptz)
         WHERE p.id = u.id AND p.claimed_by = ${sqlLiteral.text(claim)} RETURNING p.id::text AS id`,
      ]);
      const written = new Set(updated.rows.map((row) => row.id));
      await transaction.commit(activityStatements(entries.filter((entry) => written.has(String(entry.details['page_id'])))));
      return written;
    });
  }

  /** An alert's latest escalation run and that run's pages, oldest first; undefined: it has none. */
  async alertEscalation(projectId: string, iid: number): Promise<AlertEscalationRead | undefined> {
    const { rows } = await this.database.pool.query<EscalationRow>(
      `SELECT ${ESCALATION_COLUMNS} FROM alert_escalations e JOIN alerts a ON a.id = e.alert_id WHERE a.project_id = $1 AND a.iid = $2 ORDER BY e.run DESC LIMIT 1`,
      [projectId, iid],
    );
    if (!rows[0]) return undefined;
    const pages = await this.database.pool.query<PageRow>(`SELECT ${PAGE_COLUMNS} FROM escalation_pages p WHERE p.escalation_id = $1 ORDER BY p.due_at, p.id`, [rows[0].id]);
    return { escalation: storedEscalation(rows[0]), pages: pages.rows.map(storedPage) };
  }
}

/** The schedules (that still exist) with their timelines around `now`, in the caller's transaction. */
async function readSchedules(transaction: ScriptedTransaction, scheduleIds: readonly string[], now: number): Promise<Map<string, ClaimedSchedule>> {
  if (scheduleIds.length === 0) return new Map();
  const [names, timelines] = await Promise.all([
    transaction.query<{ id: string; name: string }>('SELECT id::text AS id, name FROM oncall_schedules WHERE id = ANY($1::bigint[])', [[...scheduleIds]]),
    readTimelines(transaction, scheduleIds, { start: now - WHOLE_SHIFT_REACH_MS, end: now + WHOLE_SHIFT_REACH_MS }),
  ]);
  return new Map(
    names.rows.map((row) => {
      const { rotations, overrides } = timelines.get(row.id) ?? { rotations: [], overrides: [] };
      return [row.id, { name: row.name, timeline: scheduleTimeline(rotations, overrides) }];
    }),
  );
}

/** A run to insert, as json_to_recordset takes it. */
function escalationRow(start: NewEscalation) {
  return {
    project_id: start.projectId,
    alert_iid: start.alertIid,
    run: start.run,
    started_at: new Date(start.startedAt).toISOString(),
    started_by_event: start.startedByEvent,
    policy: JSON.parse(policyJson(start.policy)) as unknown,
    ...stateColumns(start),
  };
}

/** A run's state and next step as its columns. */
function stateColumns(run: Pick<EscalationUpdate, 'state' | 'nextStep' | 'nextDueAt' | 'endedAt' | 'endedReason'>) {
  const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());
  return {
    state: run.state,
    next_loop: run.nextStep?.loop ?? null,
    next_rule: run.nextStep?.rule ?? null,
    next_due_at: iso(run.nextDueAt),
    ended_at: iso(run.endedAt),
    ended_reason: run.endedReason,
  };
}

/** The statement moving runs to their new state and next step. */
function updateStatements(updates: readonly EscalationUpdate[]): string[] {
  if (updates.length === 0) return [];
  const rows = updates.map((update) => ({ id: update.id, ...stateColumns(update) }));
  return [
    `UPDATE alert_escalations e SET state = u.state, next_loop = u.next_loop, next_rule = u.next_rule, next_due_at = u.next_due_at,
       ended_at = COALESCE(e.ended_at, u.ended_at), ended_reason = COALESCE(u.ended_reason, e.ended_reason), updated_at = now()
     FROM json_to_recordset(${sqlLiteral.json(rows)}) AS u(id bigint, state text, next_loop int, next_rule int, next_due_at timestamptz, ended_at timestamptz, ended_reason text)
     WHERE e.id = u.id`,
  ];
}

/**
 * The statement inserting pages (a page made twice, by the same idempotency key, is one). With a
 * claim, those due by its `now` are leased to it as they are written, and their ids returned.
 */
function pageInserts(pages: readonly NewPage[], claim: { claim: string; lease: string; now: number } | null): string[] {
  if (pages.length === 0) return [];
  const rows = pages.map((page) => ({
    escalation_id: page.escalationId,
    project_id: page.projectId,
    alert_id: page.alertId,
    kind: page.kind,
    loop: page.loop,
    rule: page.rule,
    condition: page.condition,
    method: page.method,
    user_id: page.userId,
    username: page.username,
    address: page.address,
    contact_method_id: page.contactMethodId,
    notice_of: page.notice?.of ?? null,
    notice_by: page.notice?.by ?? null,
    idempotency_key: page.idempotencyKey,
    due_at: new Date(page.dueAt).toISOString(),
    leased: claim !== null && page.dueAt <= claim.now,
  }));
  const claimed = claim ? sqlLiteral.text(claim.claim) : 'NULL::text';
  const until = claim ? claim.lease : 'NULL::timestamptz';
  return [
    `INSERT INTO escalation_pages (escalation_id, project_id, alert_id, kind, loop, rule, condition, method, user_id, username, address, contact_method_id,
       notice_of, notice_by, idempotency_key, due_at, next_attempt_at, claimed_by, claimed_until)
     SELECT n.escalation_id, n.project_id, n.alert_id, n.kind, n.loop, n.rule, n.condition, n.method, n.user_id, n.username, n.address, n.contact_method_id,
       n.notice_of, n.notice_by, n.idempotency_key, n.due_at,
       CASE WHEN n.leased THEN ${until} ELSE n.due_at END, CASE WHEN n.leased THEN ${claimed} END, CASE WHEN n.leased THEN ${until} END
     FROM json_to_recordset(${sqlLiteral.json(rows)}) AS n(escalation_id bigint, project_id bigint, alert_id bigint, kind text, loop int, rule int, condition text, method text,
       user_id bigint, username text, address text, contact_method_id bigint, notice_of text, notice_by text, idempotency_key text, due_at timestamptz, leased boolean)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING CASE WHEN claimed_by IS NOT NULL THEN id::text END AS id`,
  ];
}
