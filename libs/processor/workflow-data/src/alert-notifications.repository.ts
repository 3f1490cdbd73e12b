import { activityStatements, AlertsDatabase, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import { ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { AlertNotificationView, NotificationReason, NotificationStatus, Severity } from '@alert-ingestion/contracts';
import { sqlLiteral } from '@alert-ingestion/sql';
import { ClaimDecisions, ClaimedNotifications, DueNotification, NotificationOut, NotificationUpdate, RecipientMail, RecordedNotification, RecordingState } from '@alert-ingestion/workflow-domain';

/** Filters of the notification list. */
export interface NotificationFilter {
  alertIid?: number;
  status?: NotificationStatus;
}

/**
 * `alert_notifications` (the processor owns it): what recording some events is decided on and its
 * write; the mailer's claim (a lease: claimed_by, claimed_until, in a transaction of its own that
 * commits before anything is sent) and the outcome it records afterwards where its claim still
 * holds; the list. No rule lives here: alert-email.ts in workflow-domain decides.
 */
export class AlertNotificationsRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * In one round trip: each recipient's waiting bundle (the first entry of
   * alert_notifications_recipient_waiting_idx: pending, never tried, not being sent) and when each
   * message of their last hour went, which of `planned` are recorded already, and which of the
   * `skippedEventIds` events already have their timeline entry; and an id for each planned one.
   */
  async recordingState(transaction: ScriptedTransaction, planned: readonly NotificationOut[], skippedEventIds: readonly string[]): Promise<RecordingState> {
    const recipients = sqlLiteral.json([...new Set(planned.map((n) => n.recipient))]);
    const keys = sqlLiteral.json(planned.map((n) => ({ event_id: n.eventId, user_id: n.userId })));
    const [waiting, sent, recorded, skipped, ids] = await transaction.step([
      `SELECT r.recipient, w.due_at FROM json_array_elements_text(${recipients}) AS r(recipient)
       CROSS JOIN LATERAL (
         SELECT next_attempt_at AS due_at FROM alert_notifications
         WHERE status = 'pending' AND attempts = 0 AND claimed_until IS NULL AND recipient = r.recipient
         ORDER BY next_attempt_at LIMIT 1
       ) w`,
      `SELECT recipient, max(sent_at) AS sent_at FROM alert_notifications
       WHERE status = 'sent' AND sent_at > now() - interval '1 hour' AND recipient IN (SELECT json_array_elements_text(${recipients}))
       GROUP BY recipient, message_id`,
      `SELECT n.event_id || '/' || n.user_id AS key FROM alert_notifications n
       JOIN json_to_recordset(${keys}) AS k(event_id text, user_id bigint) ON n.event_id = k.event_id AND n.user_id = k.user_id`,
      `SELECT DISTINCT details->>'event_id' AS event_id FROM activity_entries
       WHERE kind = 'notification_skipped' AND details->>'event_id' IN (SELECT json_array_elements_text(${sqlLiteral.json(skippedEventIds)}))
         AND alert_id IN (SELECT a.id FROM alerts a JOIN json_to_recordset(${sqlLiteral.json(skippedEventIds.map(alertOfEvent))}) AS e(project_id bigint, iid int)
           ON a.project_id = e.project_id AND a.iid = e.iid)`,
      `SELECT s.id::text AS id FROM (SELECT nextval(pg_get_serial_sequence('alert_notifications', 'id')) AS id FROM generate_series(1, ${planned.length})) s ORDER BY s.id`,
    ]);
    const mail = new Map<string, RecipientMail>();
    const of = (recipient: string) => mail.get(recipient) ?? mail.set(recipient, { bundleDueAt: null, sentAt: [] }).get(recipient)!;
    for (const row of waiting.rows as Array<{ recipient: string; due_at: Date }>) of(row.recipient).bundleDueAt = row.due_at;
    for (const row of sent.rows as Array<{ recipient: string; sent_at: Date }>) (of(row.recipient).sentAt as Date[]).push(row.sent_at);
    return {
      mail,
      recorded: new Set(recorded.rows.map((row) => row['key'] as string)),
      skippedEventIds: new Set(skipped.rows.map((row) => row['event_id'] as string)),
      ids: ids.rows.map((row) => row['id'] as string),
    };
  }

  /**
   * The statement recording notifications (values inlined, for the COMMIT), each on the alert of
   * its iid; one recorded already (a chunk delivered again meanwhile) is left as it is.
   */
  recordStatements(recorded: readonly RecordedNotification[]): string[] {
    if (recorded.length === 0) return [];
    const rows = recorded.map((n) => ({
      id: n.id,
      project_id: n.projectId,
      alert_iid: n.alertIid,
      user_id: n.userId,
      recipient: n.recipient,
      reason: n.reason,
      event_id: n.eventId,
      status: n.status,
      next_attempt_at: n.nextAttemptAt.toISOString(),
      occurred_at: n.occurredAt.toISOString(),
    }));
    return [
      `INSERT INTO alert_notifications (id, project_id, alert_id, user_id, recipient, reason, event_id, status, next_attempt_at, occurred_at)
       SELECT n.id, n.project_id, a.id, n.user_id, n.recipient, n.reason, n.event_id, n.status, n.next_attempt_at, n.occurred_at
       FROM json_to_recordset(${sqlLiteral.json(rows)}) AS n(id bigint, project_id bigint, alert_iid int, user_id bigint, recipient text, reason text, event_id text, status text,
         next_attempt_at timestamptz, occurred_at timestamptz)
       JOIN alerts a ON a.project_id = n.project_id AND a.iid = n.alert_iid
       ON CONFLICT (event_id, user_id) DO NOTHING`,
    ];
  }

  /**
   * Claims up to `limit` due notifications for `claim` (a name of its own) until `leaseMs` from now,
   * in the caller's transaction (a command of its own that commits before anything is sent): the
   * earliest due first (alert_notifications_pending_idx), skipping those another mailer is claiming
   * at this moment. A notification claimed before whose lease ran out (its mailer stopped) is due
   * again, and counts that claim as an attempt. With each, the alert as it is now (its silence, if
   * one covers it), and the messages of the last hour of each recipient. None due: null.
   */
  async claim(transaction: ScriptedTransaction, claim: string, limit: number, leaseMs: number): Promise<ClaimedNotifications | null> {
    const [claimed] = await transaction.step<ClaimedRow>([
      `WITH due AS (
         SELECT id FROM alert_notifications WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY next_attempt_at, id LIMIT ${Math.max(1, Math.floor(limit))} FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE alert_notifications n SET claimed_by = ${sqlLiteral.text(claim)}, claimed_until = now() + ${leaseInterval(leaseMs)},
           next_attempt_at = now() + ${leaseInterval(leaseMs)}, attempts = n.attempts + (n.claimed_until IS NOT NULL)::int
         FROM due WHERE n.id = due.id
         RETURNING n.id, n.project_id, n.alert_id, n.recipient, n.reason, n.attempts, n.message_id, COALESCE(n.occurred_at, n.created_at) AS occurred_at
       )
       SELECT c.id::text AS id, c.project_id::text AS project_id, c.recipient, c.reason, c.attempts, c.message_id, c.occurred_at,
         a.id::text AS alert_id, a.iid, a.title, a.severity::text AS severity, a.status::text AS status, a.started_at, a.ended_at,
         a.service, a.monitoring_tool, a.description,
         CASE WHEN s.ends_at > now() THEN s.id::text END AS silence_id, s.comment AS silence_comment
       FROM claimed c JOIN alerts a ON a.id = c.alert_id LEFT JOIN silences s ON s.id = a.silence_id`,
    ]);
    if (claimed.rows.length === 0) return null;
    const recipients = sqlLiteral.json([...new Set(claimed.rows.map((row) => row.recipient))]);
    const [counted] = await transaction.step<{ recipient: string; messages: string }>([
      `SELECT recipient, count(DISTINCT message_id) AS messages FROM alert_notifications
       WHERE status = 'sent' AND sent_at > now() - interval '1 hour' AND recipient IN (SELECT json_array_elements_text(${recipients}))
       GROUP BY recipient`,
    ]);
    return { due: claimed.rows.map(dueNotification), sentLastHour: new Map(counted.rows.map((row) => [row.recipient, Number(row.messages)])) };
  }

  /**
   * The statements writing a claim's decisions (values inlined, for its COMMIT): each message's
   * Message-ID on the notifications it holds, and the notifications settled at once (their lease ends).
   */
  claimStatements(claim: string, decisions: ClaimDecisions | null): string[] {
    if (!decisions) return [];
    const bundles = decisions.sends.flatMap((send) => send.notifications.map((n) => ({ id: n.id, message_id: send.messageId })));
    return [
      ...(bundles.length === 0
        ? []
        : [
            `UPDATE alert_notifications n SET message_id = b.message_id FROM json_to_recordset(${sqlLiteral.json(bundles)}) AS b(id bigint, message_id text)
             WHERE n.id = b.id AND n.claimed_by = ${sqlLiteral.text(claim)}`,
          ]),
      ...outcomeStatements(claim, decisions.settled),
    ];
  }

  /**
   * Records what became of the messages `claim` sent, with their timeline entries, and ends its
   * lease, in a short transaction of its own. A notification whose lease ran out and that another
   * mailer claimed since is left to that mailer (neither its state nor its entry is written).
   * Resolves the ids written.
   */
  async recordOutcome(claim: string, updates: readonly NotificationUpdate[], entries: readonly ActivityEntryOut[]): Promise<Set<string>> {
    if (updates.length === 0) return new Set();
    return this.database.scriptedTransaction(async (transaction) => {
      const [updated] = await transaction.step<{ id: string }>(outcomeStatements(claim, updates, 'RETURNING n.id::text AS id'));
      const written = new Set(updated.rows.map((row) => row.id));
      await transaction.commit(activityStatements(entries.filter((entry) => written.has(String(entry.details['notification_id'])))));
      return written;
    });
  }

  /** A page of a project's notifications, newest first. */
  async list(projectId: bigint, filter: NotificationFilter, limit: number, offset: number): Promise<{ notifications: AlertNotificationView[]; total: number }> {
    const conditions = ['n.project_id = $1'];
    const parameters: unknown[] = [projectId.toString()];
    if (filter.alertIid !== undefined) {
      parameters.push(filter.alertIid);
      conditions.push(`a.iid = $${parameters.length}`);
    }
    if (filter.status !== undefined) {
      parameters.push(filter.status);
      conditions.push(`n.status = $${parameters.length}`);
    }
    const { rows, total } = await this.database.page<ListedRow>(
      'n.id::text AS id, a.iid, n.user_id::text AS user_id, n.recipient, n.reason, n.status, n.attempts, n.error, n.next_attempt_at, n.sent_at, n.created_at',
      `alert_notifications n JOIN alerts a ON a.id = n.alert_id WHERE ${conditions.join(' AND ')}`,
      `ORDER BY n.id DESC LIMIT ${limit} OFFSET ${offset}`,
      parameters,
    );
    const iso = (time: Date | null) => (time === null ? null : new Date(time).toISOString());
    return {
      notifications: rows.map((row) => ({
        id: Number(row.id),
        alert_iid: row.iid,
        user_id: Number(row.user_id),
        recipient: row.recipient,
        reason: row.reason,
        status: row.status,
        attempts: row.attempts,
        error: row.error,
        next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
        sent_at: iso(row.sent_at),
        created_at: new Date(row.created_at).toISOString(),
      })),
      total,
    };
  }
}

/** The statement ending `claim`'s lease of notifications with their new state; none where another claim holds them. */
function outcomeStatements(claim: string, updates: readonly NotificationUpdate[], returning = ''): string[] {
  if (updates.length === 0) return [];
  const rows = updates.map((u) => ({
    id: u.id,
    status: u.status,
    attempts: u.attempts,
    next_attempt_at: u.nextAttemptAt.toISOString(),
    error: u.error,
    sent_at: u.sentAt?.toISOString() ?? null,
    message_id: u.messageId,
  }));
  return [
    `UPDATE alert_notifications n SET status = u.status, attempts = u.attempts, next_attempt_at = u.next_attempt_at, error = u.error,
       sent_at = u.sent_at, message_id = u.message_id, claimed_by = NULL, claimed_until = NULL
     FROM json_to_recordset(${sqlLiteral.json(rows)}) AS u(id bigint, status text, attempts int, next_attempt_at timestamptz, error text, sent_at timestamptz, message_id text)
     WHERE n.id = u.id AND n.claimed_by = ${sqlLiteral.text(claim)} ${returning}`,
  ];
}

/** The alert an event id names (`<project_id>:<iid>:<type>:<occurred_at>`, alertEventId). */
function alertOfEvent(eventId: string): { project_id: string; iid: number } {
  const [projectId, iid] = eventId.split(':');
  return { project_id: projectId, iid: Number(iid) };
}

function leaseInterval(leaseMs: number): string {
  return `interval '${Math.max(1, Math.round(leaseMs))} milliseconds'`;
}

interface ClaimedRow {
  id: string;
  project_id: string;
  recipient: string;
  reason: NotificationReason;
  attempts: number;
  message_id: string | null;
  occurred_at: Date;
  alert_id: string;
  iid: number;
  title: string;
  severity: Severity;
  status: string;
  started_at: Date;
  ended_at: Date | null;
  service: string | null;
  monitoring_tool: string | null;
  description: string | null;
  silence_id: string | null;
  silence_comment: string | null;
}

interface ListedRow {
  id: string;
  iid: number;
  user_id: string;
  recipient: string;
  reason: NotificationReason;
  status: NotificationStatus;
  attempts: number;
  error: string | null;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
}

/** A claimed row as the decision takes it; its project's path is the caller's to fill in (the project id until then). */
function dueNotification(row: ClaimedRow): DueNotification {
  return {
    id: row.id,
    projectId: row.project_id,
    projectPath: row.project_id,
    recipient: row.recipient,
    reason: row.reason,
    attempts: row.attempts,
    occurredAt: new Date(row.occurred_at),
    messageId: row.message_id,
    alert: {
      id: row.alert_id,
      iid: row.iid,
      title: row.title,
      severity: row.severity,
      status: row.status,
      startedAt: new Date(row.started_at).toISOString(),
      endedAt: row.ended_at === null ? null : new Date(row.ended_at).toISOString(),
      service: row.service,
      monitoringTool: row.monitoring_tool,
      description: row.description,
      silencedBy: row.silence_id === null ? null : { id: Number(row.silence_id), comment: row.silence_comment ?? '' },
    },
  };
}
