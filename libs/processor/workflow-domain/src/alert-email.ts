import { AcceptedCommand, ActivityEntryOut, compareIds } from '@alert-ingestion/alerts-domain';
import { AccessLevel, AlertEvent, AlertSilence, NotificationReason, NotificationStatus, Severity } from '@alert-ingestion/contracts';
import { JsonObject } from '@alert-ingestion/json';
import { silenceReason } from './silenced';

// Alert emails (docs/api-guide.md "Email on new alerts"), as GitLab's "send a single email
// notification to owners and maintainers for new alerts", on state changes only: which events mail
// whom, how a recipient's emails are bundled and capped, how a refused one is retried, and what the
// message says. Pure: the consumer, the repository and the mailer do the I/O.
//
// How a message is sent once: the mailer claims due notifications with a lease (claimed by, until)
// in a short transaction and commits, sends with no lock or connection of the database held, then
// records the outcome in a second short transaction. A bundle keeps the Message-ID it was first
// claimed with, so the one way a recipient can see a message twice is a processor that stopped
// between the server's acceptance and that record (a crash): its lease runs out and the bundle goes
// again, with the same Message-ID, which mail clients show once.

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
  /** When the change happened: a bundle lists its alerts in this order. */
  occurredAt: Date;
}

/** An alert event as the alert emails read it. */
export type NotifiedEvent = Pick<AlertEvent.AlertEventValue, 'type' | 'occurred_at' | 'project_id'> & { alert: { iid: number; silenced_by: AlertSilence | null } };

/** What some alert events call for: the notifications to record, and the alerts left unmailed because a silence covered them. */
export interface PlannedNotifications {
  notifications: NotificationOut[];
  /** One timeline entry per silenced event (its alert named by iid), saying why nobody was mailed. */
  skipped: Array<ActivityEntryOut & { eventId: string }>;
}

/**
 * The notifications some events call for: one per (event, recipient), for `alert.created` and
 * `alert.resolved` events of projects whose `send_email` is on (`emailProjects`), to the project's
 * owners and maintainers with an address (`recipients`). An event of an alert a silence covered
 * when it changed mails nobody (Alertmanager mutes notifications during a silence) and notes why,
 * once per event, on the alert's timeline.
 */
export function planNotifications(events: readonly NotifiedEvent[], emailProjects: ReadonlySet<string>, recipients: readonly EmailRecipient[], now: Date): PlannedNotifications {
  const byProject = new Map<string, EmailRecipient[]>();
  for (const recipient of recipients) byProject.set(recipient.projectId, [...(byProject.get(recipient.projectId) ?? []), recipient]);
  const planned: PlannedNotifications = { notifications: [], skipped: [] };
  const seen = new Set<string>();
  for (const event of events) {
    const reason = notificationReason(event.type);
    const projectId = String(event.project_id);
    if (reason === null || !emailProjects.has(projectId)) continue;
    const eventId = alertEventId(event);
    const silence = event.alert.silenced_by;
    if (silence) {
      if (seen.has(eventId)) continue;
      seen.add(eventId);
      planned.skipped.push({
        projectId,
        subject: { alertIid: event.alert.iid },
        kind: 'notification_skipped',
        actorUserId: null,
        source: 'notification',
        reason: silenceReason(silence, 'no email was sent'),
        details: { reason, silence_id: silence.id, event_id: eventId },
        at: now,
        eventId,
      });
      continue;
    }
    for (const recipient of byProject.get(projectId) ?? []) {
      const key = `${eventId}/${recipient.userId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      planned.notifications.push({ projectId, alertIid: event.alert.iid, userId: recipient.userId, recipient: recipient.email, reason, eventId, occurredAt: new Date(event.occurred_at) });
    }
  }
  return planned;
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
  /** Its id, taken from the table's sequence by the data layer before the plan. */
  id: string;
  status: 'pending' | 'suppressed';
  /** When the mailer takes it: the due time of its bundle (suppressed: now). */
  nextAttemptAt: Date;
}

/** What recording planned notifications is decided on, read by the data layer. */
export interface RecordingState {
  /** Each recipient's mail as it is now; a recipient missing has none. */
  mail: ReadonlyMap<string, RecipientMail>;
  /** The notifications recorded already (`<event id>/<user id>`): a chunk delivered again records them once. */
  recorded: ReadonlySet<string>;
  /** The events whose alert's timeline already says nobody was mailed. */
  skippedEventIds: ReadonlySet<string>;
  /** Ids from the notifications' sequence, one for each planned notification (one not used is a gap). */
  ids: readonly string[];
}

/**
 * How planned notifications are recorded, decided once per recipient (`mail`, a recipient not in
 * it has no mail yet): each joins the bundle that waits for its recipient, or starts one due
 * `bundleMs` from now; when the recipient's messages already sent in the hour before that due time
 * reach `hourlyCap`, the mailer would suppress the bundle when it is due (planDeliveries: those
 * messages are still within its hour then), so the notifications are recorded suppressed at once
 * (with their timeline entries) instead of waiting to be claimed, decided and updated one by one.
 * A notification recorded already, and a silenced event's entry written already, are left out.
 */
export function planRecording(
  planned: PlannedNotifications,
  state: RecordingState,
  now: Date,
  policy: Pick<EmailPolicy, 'bundleMs' | 'hourlyCap'>,
): AcceptedCommand<RecordedNotification[]> {
  const decided = new Map<string, Pick<RecordedNotification, 'status' | 'nextAttemptAt'>>();
  const fresh = planned.notifications.filter((n) => !state.recorded.has(`${n.eventId}/${n.userId}`));
  const recorded = fresh.map((notification, index): RecordedNotification => {
    let decision = decided.get(notification.recipient);
    if (!decision) {
      const recipientMail = state.mail.get(notification.recipient);
      const dueAt = recipientMail?.bundleDueAt ?? new Date(now.getTime() + policy.bundleMs);
      const hourBefore = dueAt.getTime() - HOUR_MS;
      const sentInHour = (recipientMail?.sentAt ?? []).filter((sentAt) => sentAt.getTime() > hourBefore).length;
      decision = sentInHour >= policy.hourlyCap ? { status: 'suppressed', nextAttemptAt: now } : { status: 'pending', nextAttemptAt: dueAt };
      decided.set(notification.recipient, decision);
    }
    const id = state.ids[index];
    if (id === undefined) throw new Error(`no notification id reserved for notification ${index + 1}`);
    return { ...notification, ...decision, id };
  });
  const suppressed = recorded.filter((n) => n.status === 'suppressed');
  const activity = [
    ...planned.skipped.filter((entry) => !state.skippedEventIds.has(entry.eventId)).map(({ eventId: _, ...entry }) => entry),
    ...notificationEntries(
      suppressed.map((n) => ({ ...n, subject: { alertIid: n.alertIid } })),
      suppressed.map((n) => ({ id: n.id, status: n.status, attempts: 0, error: null })),
      now,
    ),
  ];
  return { changes: recorded, events: [], activity };
}

const HOUR_MS = 3_600_000;

/** A pending notification the mailer claimed (under its lease), with what its message needs of the alert as it is now. */
export interface DueNotification {
  id: string;
  projectId: string;
  /** The project's path (`acme/web`), which the message names; its id when the project is gone. */
  projectPath: string;
  recipient: string;
  reason: NotificationReason;
  /** Attempts made before this one (a lease that ran out counts as one). */
  attempts: number;
  occurredAt: Date;
  /** The Message-ID of the bundle it was sent in before; null: never claimed for a message. */
  messageId: string | null;
  alert: EmailAlert;
}

/** What an email says about an alert, as the alert is when the email goes. */
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
  /** The silence that covers the alert now, if any. */
  silencedBy: Pick<AlertSilence, 'id' | 'comment'> | null;
}

/**
 * One recipient's due notifications, decided: sent together in one message (`messageId`, the
 * same on every attempt of the bundle), suppressed by the cap, or cancelled (each with its reason).
 */
export type DeliveryDecision =
  | { action: 'send'; recipient: string; messageId: string; notifications: DueNotification[] }
  | { action: 'suppress'; recipient: string; notifications: DueNotification[] }
  | { action: 'cancel'; recipient: string; notifications: DueNotification[]; reason: string };

/**
 * Why a notification due now is not sent at all, or null: a resolution that was undone before it
 * went (the alert is no longer resolved), or an alert a silence covers now. A new alert resolved
 * since is still news: its message shows it as it is now.
 */
export function cancellation(notification: Pick<DueNotification, 'reason' | 'alert'>): string | null {
  if (notification.alert.silencedBy) return silenceReason(notification.alert.silencedBy, 'the email was not sent');
  if (notification.reason === 'resolved' && notification.alert.status !== 'resolved') {
    return `Alert #${notification.alert.iid} was ${notification.alert.status} again before the email about its resolution went out.`;
  }
  return null;
}

/**
 * The Message-ID of a new bundle: named by its first notification and the time it was first
 * claimed, under the sender's domain, so an attempt after a crash repeats it (it is stored with the
 * bundle) and no two bundles share one.
 */
export function bundleMessageId(firstNotificationId: string, claimedAt: Date, from: string): string {
  return `<alert-notification-${firstNotificationId}.${claimedAt.getTime()}@${senderDomain(from)}>`;
}

/** The domain of the sender's address (EMAIL_FROM), which the workflow's Message-IDs are made under. */
export function senderDomain(from: string): string {
  return /@([^@>\s]+)>?\s*$/.exec(from)?.[1] ?? 'alert-ingestion.invalid';
}

/**
 * Decides the claimed notifications per recipient: a notification whose change was undone, or
 * whose alert a silence covers now, is cancelled (cancellation); the others of a recipient go in
 * one message, alerts in the order their changes happened, unless the recipient already got
 * `hourlyCap` messages in the last hour (`sentLastHour`): then they are suppressed (recorded, never
 * sent later: a flood that outlasts the cap is not replayed an hour on). Notifications claimed
 * before for a message keep that message (and its Message-ID); new ones form one per recipient.
 */
export function planDeliveries(
  due: readonly DueNotification[],
  sentLastHour: ReadonlyMap<string, number>,
  policy: Pick<EmailPolicy, 'hourlyCap'>,
  claimedAt: Date,
  from: string,
): DeliveryDecision[] {
  const decisions: DeliveryDecision[] = [];
  const cancelled = new Map<string, Extract<DeliveryDecision, { action: 'cancel' }>>();
  const bundles = new Map<string, { recipient: string; messageId: string | null; notifications: DueNotification[] }>();
  for (const notification of [...due].sort((a, b) => compareIds(a.id, b.id))) {
    const reason = cancellation(notification);
    if (reason !== null) {
      const key = `${notification.recipient}\n${reason}`;
      const decision = cancelled.get(key) ?? { action: 'cancel', recipient: notification.recipient, notifications: [], reason };
      decision.notifications.push(notification);
      cancelled.set(key, decision);
      continue;
    }
    const key = notification.messageId ?? `new\n${notification.recipient}`;
    const bundle = bundles.get(key) ?? { recipient: notification.recipient, messageId: notification.messageId, notifications: [] };
    bundle.notifications.push(notification);
    bundles.set(key, bundle);
  }
  const sending = new Map<string, number>();
  for (const bundle of bundles.values()) {
    const notifications = bundle.notifications.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || compareIds(a.id, b.id));
    const sent = (sentLastHour.get(bundle.recipient) ?? 0) + (sending.get(bundle.recipient) ?? 0);
    if (bundle.messageId === null && sent >= policy.hourlyCap) {
      decisions.push({ action: 'suppress', recipient: bundle.recipient, notifications });
      continue;
    }
    sending.set(bundle.recipient, (sending.get(bundle.recipient) ?? 0) + 1);
    const messageId = bundle.messageId ?? bundleMessageId(notifications.reduce((first, n) => (compareIds(n.id, first) < 0 ? n.id : first), notifications[0].id), claimedAt, from);
    decisions.push({ action: 'send', recipient: bundle.recipient, messageId, notifications });
  }
  return [...decisions, ...cancelled.values()];
}

/** Due notifications one mailer claimed under one lease, and the messages each of their recipients got in the last hour. */
export interface ClaimedNotifications {
  due: DueNotification[];
  sentLastHour: ReadonlyMap<string, number>;
}

/** What a claim decides before anything is sent: the messages to send (their Message-IDs kept with them), and the notifications settled at once. */
export interface ClaimDecisions {
  sends: Array<Extract<DeliveryDecision, { action: 'send' }>>;
  /** Suppressed and cancelled notifications, as they end. */
  settled: NotificationUpdate[];
}

/**
 * The claim's plan (planDeliveries over what it claimed), committed with the claim before any
 * message goes: each message keeps its Message-ID from here on, so a claim taken again after a
 * crash sends the same message; what is suppressed or cancelled ends here, with its timeline entry.
 */
export function planClaim(
  claimed: ClaimedNotifications | null,
  policy: Pick<EmailPolicy, 'hourlyCap' | 'maxAttempts' | 'retryMs' | 'maxRetryMs'>,
  claimedAt: Date,
  from: string,
): AcceptedCommand<ClaimDecisions> {
  if (!claimed) return { changes: { sends: [], settled: [] }, events: [] };
  const decisions = planDeliveries(claimed.due, claimed.sentLastHour, policy, claimedAt, from);
  const sends = decisions.filter((decision): decision is Extract<DeliveryDecision, { action: 'send' }> => decision.action === 'send');
  const settled = decisions.filter((decision) => decision.action !== 'send').flatMap((decision) => notificationUpdates(decision, null, claimedAt, policy));
  const activity = notificationEntries(
    claimed.due.map((n) => ({ ...n, subject: { alertId: n.alert.id } })),
    settled,
    claimedAt,
  );
  return { changes: { sends, settled }, events: [], activity };
}

/** What becomes of a notification after a decision or an attempt; the claim's lease ends with it. */
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
 * The notifications of a decision after it was carried out: suppressed and cancelled ones as they
 * are (cancelled with the reason as their error); sent ones with the message id; refused ones
 * pending again after their backoff, or failed once this was their last attempt (they keep the
 * bundle's Message-ID, so a retry repeats it). A decision the mailer left unsent (its lease ran
 * short: `outcome` undefined) is due again at once, as it was.
 */
export function notificationUpdates(
  decision: DeliveryDecision,
  outcome: SendOutcome | null | undefined,
  now: Date,
  policy: Pick<EmailPolicy, 'maxAttempts' | 'retryMs' | 'maxRetryMs'>,
): NotificationUpdate[] {
  return decision.notifications.map((notification) => {
    const kept = { id: notification.id, attempts: notification.attempts, nextAttemptAt: now, sentAt: null };
    if (decision.action === 'suppress') return { ...kept, status: 'suppressed', error: null, messageId: null };
    if (decision.action === 'cancel') return { ...kept, status: 'cancelled', error: decision.reason, messageId: null };
    if (outcome === undefined) return { ...kept, status: 'pending', error: null, messageId: notification.messageId };
    const attempts = notification.attempts + 1;
    if (outcome === null || !outcome.ok) {
      const failed = attempts >= policy.maxAttempts;
      const error = outcome === null ? 'not sent' : outcome.error;
      return { ...kept, attempts, status: failed ? 'failed' : 'pending', nextAttemptAt: failed ? now : new Date(now.getTime() + retryDelayMs(attempts, policy)), error, messageId: decision.messageId };
    }
    return { ...kept, attempts, status: 'sent', error: null, sentAt: now, messageId: outcome.messageId };
  });
}

const ENDED_ENTRY_REASON: Partial<Record<NotificationStatus, string>> = { suppressed: 'Over the hourly email cap of the recipient.' };

/**
 * The timeline entries of notifications that reached their end (sent, failed, suppressed,
 * cancelled), one on each alert's timeline; a retry writes none (the record shows its attempts).
 */
export function notificationEntries(
  due: ReadonlyArray<Pick<DueNotification, 'id' | 'projectId' | 'recipient' | 'reason'> & { subject: ActivityEntryOut['subject'] }>,
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
      subject: notification.subject,
      kind: `notification_${update.status}`,
      actorUserId: null,
      source: 'notification',
      reason: update.status === 'failed' || update.status === 'cancelled' ? update.error : (ENDED_ENTRY_REASON[update.status] ?? null),
      details,
      at: now,
    });
  }
  return entries;
}

/** An email ready for the SMTP transport, with the Message-ID its bundle keeps. */
export interface AlertEmail {
  to: string;
  subject: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

/** Where a message links to: the console's alert page, when the console's address is known. */
export function alertLink(consoleUrl: string | undefined, projectId: string, iid: number): string | null {
  return consoleUrl ? `${consoleUrl.replace(/\/+$/, '')}/projects/${projectId}/alerts/${iid}` : null;
}

const REASON_WORDS: Record<NotificationReason, string> = { new: 'New alert', resolved: 'Resolved' };

/**
 * The message of a send decision. One alert: the subject names it and its project
 * (`New alert #12 in acme/web: Disk full`) and the body gives its fields and link. Several: the
 * subject counts them and names the project, or counts the projects (`3 alert updates in acme/web
 * (2 new, 1 resolved)`), and the body lists each with its project, in the order the changes
 * happened. The `X-Alert-Id` (database id), `X-Alert-Iid` and `X-Alert-Reason` headers name the
 * alerts (comma-separated, in the order listed), so mail filters can sort them; `X-Alert-Count`
 * says how many the message holds, `X-Alert-Project` the project paths.
 */
export function composeAlertEmail(decision: Extract<DeliveryDecision, { action: 'send' }>, consoleUrl: string | undefined): AlertEmail {
  const { recipient: to, messageId, notifications } = decision;
  if (notifications.length === 0) throw new Error('an alert email needs at least one notification');
  const projects = [...new Set(notifications.map((n) => n.projectPath))];
  const headers = {
    'X-Alert-Id': notifications.map((n) => n.alert.id).join(', '),
    'X-Alert-Iid': notifications.map((n) => String(n.alert.iid)).join(', '),
    'X-Alert-Reason': notifications.map((n) => n.reason).join(', '),
    'X-Alert-Count': String(notifications.length),
    'X-Alert-Project': projects.join(', '),
  };
  if (notifications.length === 1) {
    const [only] = notifications;
    return {
      to,
      messageId,
      subject: oneLine(`${REASON_WORDS[only.reason]} #${only.alert.iid} in ${only.projectPath}: ${only.alert.title}`),
      text: [alertBlock(only, consoleUrl), '', footer()].join('\n'),
      headers,
    };
  }
  const where = projects.length === 1 ? projects[0] : `${projects.length} projects`;
  const counts = (['new', 'resolved'] as const)
    .map((reason) => [reason, notifications.filter((n) => n.reason === reason).length] as const)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${count} ${reason}`)
    .join(', ');
  return {
    to,
    messageId,
    subject: oneLine(`${notifications.length} alert updates in ${where} (${counts})`),
    text: [`${notifications.length} alerts changed (${counts}):`, '', ...notifications.map((n) => alertBlock(n, consoleUrl) + '\n'), footer()].join('\n'),
    headers,
  };
}

function alertBlock(notification: DueNotification, consoleUrl: string | undefined): string {
  const { alert } = notification;
  const lines = [
    `${REASON_WORDS[notification.reason]} #${alert.iid} in ${notification.projectPath}: ${oneLine(alert.title)}`,
    `  Severity: ${alert.severity}`,
    `  Status: ${alert.status}${notification.reason === 'new' && alert.status === 'resolved' ? ' (resolved since it was raised)' : ''}`,
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
  return 'You get this email as an owner or maintainer of the project, whose alert settings send email on new and resolved alerts.';
}

/** A header-safe one-line text (titles may hold newlines). */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 250);
}
