import { AccessLevel, AlertEvent, NotificationReason, NotificationStatus, Severity } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';
import { ActivityEntryOut } from './activity';
import { compareIds } from './decimal-ids';

// Alert emails (docs/api-guide.md "Email on new alerts"), as GitLab's "send a single email
// notification to owners and maintainers for new alerts", on state changes only: which events mail
// whom, how a recipient's emails are bundled and capped, how a refused one is retried, and what the
// message says. Pure: the consumer, the repository and the mailer do the I/O.

/** The roles that get alert emails (GitLab: owners and maintainers). */
export const EMAIL_RECIPIENT_LEVELS: readonly AccessLevel[] = ['maintainer', 'owner'];

/** Why an event is mailed: a new alert, a resolved one; nothing else (never `alert.grouped`: a repeat is no news). */
export function notificationReason(type: AlertEvent.AlertEventType): NotificationReason | null {
  switch (type) {
    case 'alert.created':
      return 'new';
    case 'alert.resolved':
      return 'resolved';
    default:
      return null;
  }
}

/**
 * The identity of the change an event reports, the same however often the event (or the raw alert
 * behind it) is delivered: one alert changes to one state at one time once. With the user it makes
 * a notification unique, so a redelivery mails nobody twice.
 */
export function alertEventId(event: Pick<AlertEvent.AlertEventValue, 'type' | 'occurred_at' | 'project_id'> & { alert: { iid: number } }): string {
  return `${event.project_id}:${event.alert.iid}:${event.type}:${event.occurred_at}`;
}

/** A project member who gets alert emails. */
export interface EmailRecipient {
  projectId: string;
  userId: string;
  email: string;
}

/** A notification to record as pending. */
export interface NotificationOut {
  projectId: string;
  alertIid: number;
  userId: string;
  recipient: string;
  reason: NotificationReason;
  eventId: string;
}

/**
 * The notifications some events call for: one per (event, recipient), for `alert.created` and
 * `alert.resolved` events of projects whose `send_email` is on (`emailProjects`), to the project's
 * owners and maintainers with an address (`recipients`).
 */
export function planNotifications(
  events: ReadonlyArray<Pick<AlertEvent.AlertEventValue, 'type' | 'occurred_at' | 'project_id'> & { alert: { iid: number } }>,
  emailProjects: ReadonlySet<string>,
  recipients: readonly EmailRecipient[],
): NotificationOut[] {
  const byProject = new Map<string, EmailRecipient[]>();
  for (const recipient of recipients) byProject.set(recipient.projectId, [...(byProject.get(recipient.projectId) ?? []), recipient]);
  const out: NotificationOut[] = [];
  const seen = new Set<string>();
  for (const event of events) {
    const reason = notificationReason(event.type);
    const projectId = String(event.project_id);
    if (reason === null || !emailProjects.has(projectId)) continue;
    const eventId = alertEventId(event);
    for (const recipient of byProject.get(projectId) ?? []) {
      const key = `${eventId}/${recipient.userId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ projectId, alertIid: event.alert.iid, userId: recipient.userId, recipient: recipient.email, reason, eventId });
    }
  }
  return out;
}

/** How the mailer paces itself (the EMAIL_* settings). */
export interface EmailPolicy {
  /** A recipient's notifications within this window of the first go out in one message. */
  bundleMs: number;
  /** Messages one recipient gets per rolling hour; what is due beyond it is suppressed. */
  hourlyCap: number;
  /** Attempts at a notification the server refuses (or cannot be reached) before it is failed. */
  maxAttempts: number;
  /** Wait after the first refused attempt; it doubles with each further one, up to `maxRetryMs`. */
  retryMs: number;
  maxRetryMs: number;
}

/** The wait after attempt number `attempts` (1 = the first) failed: exponential backoff, capped. */
export function retryDelayMs(attempts: number, policy: Pick<EmailPolicy, 'retryMs' | 'maxRetryMs'>): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(policy.maxRetryMs, policy.retryMs * 2 ** exponent);
}

/** A recipient's mail when notifications are recorded for them. */
export interface RecipientMail {
  /** When the bundle that waits for them (pending, not tried yet) is due; null: none waits. */
  bundleDueAt: Date | null;
  /** When each message they got in the last hour went out. */
  sentAt: readonly Date[];
}

/** A notification as recorded: pending until its bundle is due, or suppressed at once. */
export interface RecordedNotification extends NotificationOut {
  status: 'pending' | 'suppressed';
  /** When the mailer takes it: the due time of its bundle (suppressed: now). */
  nextAttemptAt: Date;
}

/**
 * How a batch's notifications are recorded, decided once per recipient (`mail`, a recipient not in
 * it has no mail yet): each joins the bundle that waits for its recipient, or starts one due
 * `bundleMs` from now; when the recipient's messages already sent in the hour before that due time
 * reach `hourlyCap`, the mailer would suppress the bundle when it is due (planDeliveries: those
 * messages are still within its hour then), so the notifications are recorded suppressed at once
 * instead of waiting to be claimed, decided and updated one by one.
 */
export function planRecording(
  notifications: readonly NotificationOut[],
  mail: ReadonlyMap<string, RecipientMail>,
  now: Date,
  policy: Pick<EmailPolicy, 'bundleMs' | 'hourlyCap'>,
): RecordedNotification[] {
  const decided = new Map<string, Pick<RecordedNotification, 'status' | 'nextAttemptAt'>>();
  return notifications.map((notification) => {
    let decision = decided.get(notification.recipient);
    if (!decision) {
      const recipientMail = mail.get(notification.recipient);
      const dueAt = recipientMail?.bundleDueAt ?? new Date(now.getTime() + policy.bundleMs);
      const hourBefore = dueAt.getTime() - HOUR_MS;
      const sentInHour = (recipientMail?.sentAt ?? []).filter((sentAt) => sentAt.getTime() > hourBefore).length;
      decision = sentInHour >= policy.hourlyCap ? { status: 'suppressed', nextAttemptAt: now } : { status: 'pending', nextAttemptAt: dueAt };
      decided.set(notification.recipient, decision);
    }
    return { ...notification, ...decision };
  });
}

const HOUR_MS = 3_600_000;

/** A pending notification the mailer claimed, with what its message needs of the alert. */
export interface DueNotification {
  id: string;
  projectId: string;
  recipient: string;
  reason: NotificationReason;
  attempts: number;
  alert: EmailAlert;
}

/** What an email says about an alert. */
export interface EmailAlert {
  id: string;
  iid: number;
  title: string;
  severity: Severity;
  status: string;
  startedAt: string;
  endedAt: string | null;
  service: string | null;
  monitoringTool: string | null;
  description: string | null;
}

/** One recipient's due notifications: sent together in one message, or suppressed by the cap. */
export type DeliveryDecision =
  | { action: 'send'; recipient: string; notifications: DueNotification[] }
  | { action: 'suppress'; recipient: string; notifications: DueNotification[] };

/**
 * Bundles due notifications per recipient (one message each, alerts in id order) and applies the
 * hourly cap: a recipient who already got `hourlyCap` messages in the last hour (`sentLastHour`)
 * gets none, and the notifications are suppressed (recorded, never sent later: a flood that
 * outlasts the cap is not replayed an hour on).
 */
export function planDeliveries(due: readonly DueNotification[], sentLastHour: ReadonlyMap<string, number>, policy: Pick<EmailPolicy, 'hourlyCap'>): DeliveryDecision[] {
  const byRecipient = new Map<string, DueNotification[]>();
  for (const notification of [...due].sort((a, b) => compareIds(a.id, b.id))) {
    byRecipient.set(notification.recipient, [...(byRecipient.get(notification.recipient) ?? []), notification]);
  }
  return [...byRecipient].map(([recipient, notifications]) =>
    (sentLastHour.get(recipient) ?? 0) >= policy.hourlyCap ? { action: 'suppress', recipient, notifications } : { action: 'send', recipient, notifications },
  );
}

/** What becomes of a notification after a decision or an attempt. */
export interface NotificationUpdate {
  id: string;
  status: NotificationStatus;
  attempts: number;
  nextAttemptAt: Date;
  error: string | null;
  sentAt: Date | null;
  messageId: string | null;
}

/** The outcome of sending one bundle: accepted (with the message's id), or refused / unreachable. */
export type SendOutcome = { ok: true; messageId: string } | { ok: false; error: string };

/**
 * The notifications of a decision after it was carried out: suppressed ones as they are; sent ones
 * with the message id; refused ones pending again after their backoff, or failed once this was
 * their last attempt.
 */
export function notificationUpdates(decision: DeliveryDecision, outcome: SendOutcome | null, now: Date, policy: Pick<EmailPolicy, 'maxAttempts' | 'retryMs' | 'maxRetryMs'>): NotificationUpdate[] {
  return decision.notifications.map((notification) => {
    if (decision.action === 'suppress' || outcome === null) {
      return { id: notification.id, status: 'suppressed', attempts: notification.attempts, nextAttemptAt: now, error: null, sentAt: null, messageId: null };
    }
    const attempts = notification.attempts + 1;
    if (outcome.ok) return { id: notification.id, status: 'sent', attempts, nextAttemptAt: now, error: null, sentAt: now, messageId: outcome.messageId };
    const failed = attempts >= policy.maxAttempts;
    return {
      id: notification.id,
      status: failed ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: failed ? now : new Date(now.getTime() + retryDelayMs(attempts, policy)),
      error: outcome.error,
      sentAt: null,
      messageId: null,
    };
  });
}

/**
 * The timeline entries of notifications that reached their end (sent, failed, suppressed), one on
 * each alert's timeline; a refusal that is retried writes none (the record shows its attempts).
 */
export function notificationEntries(
  due: ReadonlyArray<Pick<DueNotification, 'id' | 'projectId' | 'recipient' | 'reason'> & { alert: Pick<EmailAlert, 'id'> }>,
  updates: ReadonlyArray<Pick<NotificationUpdate, 'id' | 'status' | 'attempts' | 'error'>>,
  now: Date,
): ActivityEntryOut[] {
  const byId = new Map(due.map((notification) => [notification.id, notification]));
  const entries: ActivityEntryOut[] = [];
  for (const update of updates) {
    const notification = byId.get(update.id);
    if (!notification || update.status === 'pending') continue;
    const details: JsonObject = { recipient: notification.recipient, reason: notification.reason, notification_id: Number(notification.id) };
    if (update.status === 'failed') details['attempts'] = update.attempts;
    entries.push({
      projectId: notification.projectId,
      subject: { alertId: notification.alert.id },
      kind: `notification_${update.status}`,
      actorUserId: null,
      source: 'notification',
      reason: update.status === 'failed' ? update.error : update.status === 'suppressed' ? 'Over the hourly email cap of the recipient.' : null,
      details,
      at: now,
    });
  }
  return entries;
}

/** An email ready for the SMTP transport. */
export interface AlertEmail {
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
}

/** Where a message links to: the console's alert page, when the console's address is known. */
export function alertLink(consoleUrl: string | undefined, projectId: string, iid: number): string | null {
  return consoleUrl ? `${consoleUrl.replace(/\/+$/, '')}/projects/${projectId}/alerts/${iid}` : null;
}

const REASON_WORDS: Record<NotificationReason, string> = { new: 'New alert', resolved: 'Resolved' };

/**
 * The message of a bundle. One alert: the subject names it (`New alert #12: Disk full`) and the
 * body gives its fields and link. Several: the subject counts them (`3 alert updates in project 7`)
 * and the body lists each. The `X-Alert-Id` (database id), `X-Alert-Iid` and `X-Alert-Reason`
 * headers name the alert (for a bundle, every alert, comma-separated in the order listed), so mail
 * filters can sort them; `X-Alert-Count` says how many alerts the message holds.
 */
export function composeAlertEmail(recipient: string, notifications: readonly DueNotification[], consoleUrl: string | undefined): AlertEmail {
  if (notifications.length === 0) throw new Error('an alert email needs at least one notification');
  const headers = {
    'X-Alert-Id': notifications.map((n) => n.alert.id).join(', '),
    'X-Alert-Iid': notifications.map((n) => String(n.alert.iid)).join(', '),
    'X-Alert-Reason': notifications.map((n) => n.reason).join(', '),
    'X-Alert-Count': String(notifications.length),
  };
  const projectIds = [...new Set(notifications.map((n) => n.projectId))];
  if (notifications.length === 1) {
    const [only] = notifications;
    return {
      to: recipient,
      subject: oneLine(`${REASON_WORDS[only.reason]} #${only.alert.iid}: ${only.alert.title}`),
      text: [alertBlock(only, consoleUrl), '', footer()].join('\n'),
      headers,
    };
  }
  const where = projectIds.length === 1 ? `project ${projectIds[0]}` : `${projectIds.length} projects`;
  const counts = (['new', 'resolved'] as const)
    .map((reason) => [reason, notifications.filter((n) => n.reason === reason).length] as const)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${count} ${reason}`)
    .join(', ');
  return {
    to: recipient,
    subject: `${notifications.length} alert updates in ${where} (${counts})`,
    text: [`${notifications.length} alerts changed (${counts}):`, '', ...notifications.map((n) => alertBlock(n, consoleUrl) + '\n'), footer()].join('\n'),
    headers,
  };
}

function alertBlock(notification: DueNotification, consoleUrl: string | undefined): string {
  const { alert } = notification;
  const lines = [
    `${REASON_WORDS[notification.reason]} #${alert.iid}: ${oneLine(alert.title)}`,
    `  Severity: ${alert.severity}`,
    `  Status: ${alert.status}`,
    `  Started: ${alert.startedAt}`,
  ];
  if (alert.endedAt) lines.push(`  Ended: ${alert.endedAt}`);
  if (alert.service) lines.push(`  Service: ${oneLine(alert.service)}`);
  if (alert.monitoringTool) lines.push(`  Monitoring tool: ${oneLine(alert.monitoringTool)}`);
  if (alert.description) lines.push(`  Description: ${alert.description}`);
  const link = alertLink(consoleUrl, notification.projectId, alert.iid);
  if (link) lines.push(`  ${link}`);
  return lines.join('\n');
}

function footer(): string {
  return "You get this email as an owner or maintainer of the project, whose alert settings send email on new and resolved alerts.";
}

/** A header-safe one-line text (titles may hold newlines). */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 250);
}
