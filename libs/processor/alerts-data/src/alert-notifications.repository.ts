import {
  ActivityEntryOut,
  DueNotification,
  notificationEntries,
  NotificationOut,
  NotificationUpdate,
  RecipientMail,
  RecordedNotification,
} from '@alert-ingestion/alerts-domain';
import { AlertNotificationView, NotificationReason, NotificationStatus, Severity } from '@alert-ingestion/contracts';
import { sqlLiteral } from '@alert-ingestion/sql';
import { activityStatements } from './activity-entries';
import { AlertsDatabase } from './alerts-database';

/** Filters of the notification list. */
export interface NotificationFilter {
  alertIid?: number;
  status?: NotificationStatus;
}

/** What the mailer decided for the claimed notifications: their new state and their timeline entries. */
export interface DeliveryResult {
  updates: NotificationUpdate[];
  entries: ActivityEntryOut[];
}

/**
 * `alert_notifications` (the processor owns it): recorded from alert events, claimed by the mailer
 * (FOR UPDATE SKIP LOCKED, so several processors never send one twice at once), updated with the
 * outcome and the timeline entries in one transaction, listed.
 */
export class AlertNotificationsRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** Whether any project's alert settings send email. */
  async anyProjectSendsEmail(): Promise<boolean> {
    const { rows } = await this.database.pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM project_alert_settings WHERE send_email) AS any');
    return rows[0].any;
  }

  /** The projects among `projectIds` whose alert settings send email. */
  async emailProjects(projectIds: readonly string[]): Promise<Set<string>> {
    if (projectIds.length === 0) return new Set();
    const { rows } = await this.database.pool.query<{ project_id: string }>(
      'SELECT project_id::text AS project_id FROM project_alert_settings WHERE send_email AND project_id = ANY($1::bigint[])',
      [[...new Set(projectIds)]],
    );
    return new Set(rows.map((row) => row.project_id));
  }

  /**
   * Records a batch's notifications, once per (event, user): a redelivered event records nothing.
   * `plan` decides over each recipient's mail as it is now (planRecording: the bundle waiting and the
   * messages of the last hour): pending until their bundle is due, or suppressed at once with their
   * timeline entries. One transaction of three round trips whatever the batch's size. Resolves the
   * status of each one new.
   */
  async record(
    notifications: readonly NotificationOut[],
    plan: (mail: Map<string, RecipientMail>) => RecordedNotification[],
    now: Date,
  ): Promise<NotificationStatus[]> {
    if (notifications.length === 0) return [];
    const recipients = sqlLiteral.json([...new Set(notifications.map((n) => n.recipient))]);
    return this.database.scriptedTransaction(async (transaction) => {
      const [waiting, sent] = await transaction.step<{ recipient: string; due_at: Date; sent_at: Date }>([
        // Each recipient's waiting bundle: the first entry of alert_notifications_recipient_waiting_idx.
        `SELECT r.recipient, w.due_at FROM json_array_elements_text(${recipients}) AS r(recipient)
         CROSS JOIN LATERAL (
           SELECT next_attempt_at AS due_at FROM alert_notifications
           WHERE status = 'pending' AND attempts = 0 AND recipient = r.recipient
           ORDER BY next_attempt_at LIMIT 1
         ) w`,
        `SELECT recipient, max(sent_at) AS sent_at FROM alert_notifications
         WHERE status = 'sent' AND sent_at > now() - interval '1 hour' AND recipient IN (SELECT json_array_elements_text(${recipients}))
         GROUP BY recipient, message_id`,
      ]);
      const mail = new Map<string, RecipientMail>(
        [...new Set([...waiting.rows, ...sent.rows].map((row) => row.recipient))].map((recipient) => [
          recipient,
          {
            bundleDueAt: waiting.rows.find((row) => row.recipient === recipient)?.due_at ?? null,
            sentAt: sent.rows.filter((row) => row.recipient === recipient).map((row) => row.sent_at),
          },
        ]),
      );
      const recorded = plan(mail);
      const rows = recorded.map((n) => ({
        project_id: n.projectId,
        alert_iid: n.alertIid,
        user_id: n.userId,
        recipient: n.recipient,
        reason: n.reason,
        event_id: n.eventId,
        status: n.status,
        next_attempt_at: n.nextAttemptAt.toISOString(),
      }));
      const [inserted] = await transaction.step<{ id: string; project_id: string; alert_id: string; recipient: string; reason: NotificationReason; status: NotificationStatus }>([
        `INSERT INTO alert_notifications (project_id, alert_id, user_id, recipient, reason, event_id, status, next_attempt_at)
         SELECT n.project_id, a.id, n.user_id, n.recipient, n.reason, n.event_id, n.status, n.next_attempt_at
         FROM json_to_recordset(${sqlLiteral.json(rows)}) AS n(project_id bigint, alert_iid int, user_id bigint, recipient text, reason text, event_id text, status text, next_attempt_at timestamptz)
         JOIN alerts a ON a.project_id = n.project_id AND a.iid = n.alert_iid
         ON CONFLICT (event_id, user_id) DO NOTHING
         RETURNING id::text AS id, project_id::text AS project_id, alert_id::text AS alert_id, recipient, reason, status`,
      ]);
      const suppressed = inserted.rows
        .filter((row) => row.status === 'suppressed')
        .map((row) => ({ id: row.id, projectId: row.project_id, recipient: row.recipient, reason: row.reason, alert: { id: row.alert_id }, status: row.status, attempts: 0, error: null }));
      await transaction.commit(activityStatements(notificationEntries(suppressed, suppressed, now)));
      return inserted.rows.map((row) => row.status);
    });
  }

  /**
   * Claims up to `limit` due pending notifications (locked, skipping the ones another mailer holds),
   * hands them and each recipient's messages of the last hour to `deliver` (which sends), and
   * writes what it returns with the timeline entries, in the same transaction. None due: no call.
   */
  async deliverDue(limit: number, deliver: (due: DueNotification[], sentLastHour: Map<string, number>) => Promise<DeliveryResult>): Promise<DeliveryResult | null> {
    return this.database.scriptedTransaction(async (transaction) => {
      const [claimed] = await transaction.step<ClaimedRow>([
        `SELECT n.id::text AS id, n.project_id::text AS project_id, n.recipient, n.reason, n.attempts,
           a.id::text AS alert_id, a.iid, a.title, a.severity::text AS severity, a.status::text AS status, a.started_at, a.ended_at,
           a.service, a.monitoring_tool, a.description
         FROM alert_notifications n JOIN alerts a ON a.id = n.alert_id
         WHERE n.status = 'pending' AND n.next_attempt_at <= now()
         ORDER BY n.next_attempt_at, n.id
         LIMIT ${Math.max(1, Math.floor(limit))}
         FOR UPDATE OF n SKIP LOCKED`,
      ]);
      if (claimed.rows.length === 0) {
        await transaction.commit([]);
        return null;
      }
      const recipients = [...new Set(claimed.rows.map((row) => row.recipient))];
      const [counted] = await transaction.step<{ recipient: string; messages: string }>([
        `SELECT recipient, count(DISTINCT message_id) AS messages FROM alert_notifications
         WHERE status = 'sent' AND sent_at > now() - interval '1 hour' AND recipient IN (SELECT json_array_elements_text(${sqlLiteral.json(recipients)}))
         GROUP BY recipient`,
      ]);
      const sentLastHour = new Map(counted.rows.map((row) => [row.recipient, Number(row.messages)]));
      const result = await deliver(claimed.rows.map(dueNotification), sentLastHour);
      await transaction.commit([...updateStatements(result.updates), ...activityStatements(result.entries)]);
      return result;
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

interface ClaimedRow {
  id: string;
  project_id: string;
  recipient: string;
  reason: NotificationReason;
  attempts: number;
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

function dueNotification(row: ClaimedRow): DueNotification {
  return {
    id: row.id,
    projectId: row.project_id,
    recipient: row.recipient,
    reason: row.reason,
    attempts: row.attempts,
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
    },
  };
}

/** The statement writing the notifications' new state (values inlined, for the commit step). */
function updateStatements(updates: readonly NotificationUpdate[]): string[] {
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
       sent_at = u.sent_at, message_id = u.message_id
     FROM json_to_recordset(${sqlLiteral.json(rows)}) AS u(id bigint, status text, attempts int, next_attempt_at timestamptz, error text, sent_at timestamptz, message_id text)
     WHERE n.id = u.id`,
  ];
}
