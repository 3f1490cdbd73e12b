import { AlertSilence } from '@alert-ingestion/contracts';
import {
  alertEventId,
  bundleMessageId,
  cancellation,
  composeAlertEmail,
  DeliveryDecision,
  DueNotification,
  EmailRecipient,
  notificationEntries,
  notificationReason,
  notificationUpdates,
  planDeliveries,
  planClaim,
  planNotifications,
  planRecording,
  RecordingState,
  retryDelayMs,
} from './alert-email';

describe('alert emails', () => {
  const now = new Date('2026-11-27T10:00:00.000Z');
  const from = 'Alerts <alerts@example.com>';
  const silence: AlertSilence = { id: 4, comment: 'Database maintenance', ends_at: '2026-11-27T12:00:00.000Z' };
  const event = (type: 'alert.created' | 'alert.grouped' | 'alert.resolved' | 'alert.status_changed', iid: number, projectId = 7, silencedBy: AlertSilence | null = null) => ({
    type,
    occurred_at: `2026-11-27T09:59:0${iid % 10}.000Z`,
    project_id: projectId,
    alert: { iid, silenced_by: silencedBy },
  });
  const recipients: EmailRecipient[] = [
    { projectId: '7', userId: '1', email: 'owner@example.com' },
    { projectId: '7', userId: '2', email: 'maintainer@example.com' },
    { projectId: '8', userId: '3', email: 'other@example.com' },
  ];
  const due = (id: string, recipient: string, iid: number, reason: 'new' | 'resolved' = 'new', attempts = 0, overrides: Partial<DueNotification> = {}): DueNotification => ({
    id,
    projectId: '7',
    projectPath: 'acme/web',
    recipient,
    reason,
    attempts,
    occurredAt: new Date(`2026-11-27T09:59:${String(iid).padStart(2, '0')}.000Z`),
    messageId: null,
    alert: {
      id: String(100 + iid),
      iid,
      title: `Disk full on db-${iid}`,
      severity: 'critical',
      status: reason === 'new' ? 'triggered' : 'resolved',
      startedAt: '2026-11-27T09:59:00.000Z',
      endedAt: reason === 'resolved' ? '2026-11-27T10:00:00.000Z' : null,
      service: 'db',
      monitoringTool: 'Prometheus',
      description: null,
      silencedBy: null,
    },
    ...overrides,
  });
  const policy = { bundleMs: 30_000, hourlyCap: 2, maxAttempts: 3, retryMs: 1_000, maxRetryMs: 3_000 };
  const state = (overrides: Partial<RecordingState> = {}): RecordingState => ({ mail: new Map(), recorded: new Set(), skippedEventIds: new Set(), ids: ['901', '902', '903', '904'], ...overrides });
  const send = (notifications: DueNotification[], messageId = '<m@example.com>'): Extract<DeliveryDecision, { action: 'send' }> => ({ action: 'send', recipient: notifications[0].recipient, messageId, notifications });

  it('mails on new and resolved alerts only, never on a grouped repeat or another status change', () => {
    expect(notificationReason('alert.created')).toBe('new');
    expect(notificationReason('alert.resolved')).toBe('resolved');
    expect(notificationReason('alert.grouped')).toBeNull();
    expect(notificationReason('alert.status_changed')).toBeNull();
  });

  it("mails each owner and maintainer of a project whose send_email is on, once per event, whatever the project's other events", () => {
    const events = [event('alert.created', 1), event('alert.grouped', 1), event('alert.resolved', 1), event('alert.created', 2, 8)];
    const planned = planNotifications([...events, events[0]], new Set(['7']), recipients, now);
    expect(planned.notifications.map((n) => [n.alertIid, n.reason, n.recipient])).toEqual([
      [1, 'new', 'owner@example.com'],
      [1, 'new', 'maintainer@example.com'],
      [1, 'resolved', 'owner@example.com'],
      [1, 'resolved', 'maintainer@example.com'],
    ]);
    expect(planned.notifications[0].eventId).toBe(alertEventId(events[0]));
    expect(planned.notifications[0].occurredAt).toEqual(new Date(events[0].occurred_at));
    expect(planned.notifications[0].eventId).not.toBe(planned.notifications[2].eventId);
    expect(planNotifications(events, new Set(), recipients, now)).toEqual({ notifications: [], skipped: [] });
  });

  it('mails nobody about a silenced alert and says why on its timeline, once per event', () => {
    const silenced = event('alert.created', 3, 7, silence);
    const planned = planNotifications([silenced, silenced, event('alert.created', 4)], new Set(['7']), recipients, now);
    expect(planned.notifications.map((n) => n.alertIid)).toEqual([4, 4]);
    expect(planned.skipped).toEqual([
      {
        projectId: '7',
        subject: { alertIid: 3 },
        kind: 'notification_skipped',
        actorUserId: null,
        source: 'notification',
        reason: 'Silenced by silence #4 (Database maintenance): no email was sent.',
        details: { reason: 'new', silence_id: 4, event_id: alertEventId(silenced) },
        at: now,
        eventId: alertEventId(silenced),
      },
    ]);
  });

  it('names one change the same way however often it is delivered', () => {
    expect(alertEventId(event('alert.created', 3))).toBe(alertEventId({ ...event('alert.created', 3) }));
    expect(alertEventId(event('alert.created', 3))).toBe('7:3:alert.created:2026-11-27T09:59:03.000Z');
  });

  it('waits twice as long after each refusal, up to the longest wait', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelayMs(attempts, policy))).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
  });

  it("bundles a recipient's due notifications into one message in the order the changes happened, and suppresses a recipient over the hourly cap", () => {
    const late = due('11', 'a@example.com', 9);
    const decisions = planDeliveries(
      [due('12', 'a@example.com', 2), late, due('13', 'b@example.com', 1), due('9', 'c@example.com', 3)],
      new Map([
        ['b@example.com', 2],
        ['c@example.com', 1],
      ]),
      policy,
      now,
      from,
    );
    expect(decisions.map((d) => [d.action, d.recipient, d.notifications.map((n) => n.id)])).toEqual([
      ['send', 'c@example.com', ['9']],
      ['send', 'a@example.com', ['12', '11']],
      ['suppress', 'b@example.com', ['13']],
    ]);
    expect(decisions[1]).toMatchObject({ messageId: `<alert-notification-11.${now.getTime()}@example.com>` });
  });

  it('keeps the Message-ID of a bundle claimed before, so a message sent again after a crash is the same message', () => {
    const claimedBefore = '<alert-notification-5.1764230000000@example.com>';
    const decisions = planDeliveries(
      [due('5', 'a@example.com', 1, 'new', 1, { messageId: claimedBefore }), due('6', 'a@example.com', 2, 'new', 1, { messageId: claimedBefore }), due('7', 'a@example.com', 3)],
      new Map([['a@example.com', 2]]),
      policy,
      now,
      from,
    );
    // The bundle tried before goes again whatever the cap (it may have gone already); the new one is over the cap.
    expect(decisions.map((d) => [d.action, d.notifications.map((n) => n.id), 'messageId' in d ? d.messageId : null])).toEqual([
      ['send', ['5', '6'], claimedBefore],
      ['suppress', ['7'], null],
    ]);
    expect(bundleMessageId('5', new Date(1_764_230_000_000), 'alerts@example.com')).toBe(claimedBefore);
    expect(bundleMessageId('5', now, 'no address')).toBe(`<alert-notification-5.${now.getTime()}@alert-ingestion.invalid>`);
  });

  it('cancels a resolution undone before it went, and anything about an alert a silence covers now; a new alert resolved since still goes', () => {
    const undone = due('1', 'a@example.com', 1, 'resolved');
    undone.alert.status = 'triggered';
    const silenced = due('2', 'a@example.com', 2);
    silenced.alert.silencedBy = { id: 4, comment: 'Database maintenance' };
    const resolvedSince = due('3', 'a@example.com', 3);
    resolvedSince.alert.status = 'resolved';
    expect(cancellation(undone)).toBe('Alert #1 was triggered again before the email about its resolution went out.');
    expect(cancellation(silenced)).toBe('Silenced by silence #4 (Database maintenance): the email was not sent.');
    expect(cancellation(resolvedSince)).toBeNull();
    const decisions = planDeliveries([undone, silenced, resolvedSince], new Map(), policy, now, from);
    expect(decisions.map((d) => [d.action, d.notifications.map((n) => n.id)])).toEqual([
      ['send', ['3']],
      ['cancel', ['1']],
      ['cancel', ['2']],
    ]);
    expect(composeAlertEmail(decisions[0] as Extract<DeliveryDecision, { action: 'send' }>, undefined).text).toContain('Status: resolved (resolved since it was raised)');
  });

  it('decides a claim before anything is sent: the messages with their Message-IDs, and what is suppressed or cancelled settled with its timeline entry', () => {
    const undone = due('3', 'b@example.com', 3, 'resolved');
    undone.alert.status = 'triggered';
    const plan = planClaim({ due: [due('1', 'a@example.com', 1), due('2', 'c@example.com', 2), undone], sentLastHour: new Map([['c@example.com', 2]]) }, policy, now, from);
    expect(plan.changes?.sends.map((send) => [send.recipient, send.messageId, send.notifications.map((n) => n.id)])).toEqual([
      ['a@example.com', `<alert-notification-1.${now.getTime()}@example.com>`, ['1']],
    ]);
    expect(plan.changes?.settled.map((update) => [update.id, update.status])).toEqual([
      ['2', 'suppressed'],
      ['3', 'cancelled'],
    ]);
    expect(plan.activity?.map((entry) => [entry.kind, entry.subject])).toEqual([
      ['notification_suppressed', { alertId: '102' }],
      ['notification_cancelled', { alertId: '103' }],
    ]);
    expect(planClaim(null, policy, now, from)).toEqual({ changes: { sends: [], settled: [] }, events: [] });
  });

  it('records a batch per recipient: joins the bundle that waits or starts one, and suppresses at once when the cap is reached within the hour before it is due', () => {
    const planned = planNotifications([event('alert.created', 1), event('alert.created', 2)], new Set(['7']), recipients, now);
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    const waiting = new Date(now.getTime() + 10_000);
    const mail = new Map([
      // Two messages in the hour before the bundle's due time (now + 30 s): over the cap of 2.
      ['owner@example.com', { bundleDueAt: null, sentAt: [minutesAgo(59), minutesAgo(5)] }],
      // One of its two messages leaves the hour before its bundle is due: under the cap then.
      ['maintainer@example.com', { bundleDueAt: waiting, sentAt: [minutesAgo(59.9), minutesAgo(5)] }],
    ]);
    const recorded = planRecording(planned, state({ mail }), now, policy);
    expect(recorded.changes?.map((n) => [n.id, n.alertIid, n.recipient, n.status, n.nextAttemptAt])).toEqual([
      ['901', 1, 'owner@example.com', 'suppressed', now],
      ['902', 1, 'maintainer@example.com', 'pending', waiting],
      ['903', 2, 'owner@example.com', 'suppressed', now],
      ['904', 2, 'maintainer@example.com', 'pending', waiting],
    ]);
    expect(recorded.activity?.map((entry) => [entry.kind, entry.subject, entry.details['notification_id']])).toEqual([
      ['notification_suppressed', { alertIid: 1 }, 901],
      ['notification_suppressed', { alertIid: 2 }, 903],
    ]);
    const single = { notifications: planned.notifications.slice(0, 1), skipped: [] };
    expect(planRecording(single, state(), now, policy).changes).toEqual([{ ...planned.notifications[0], id: '901', status: 'pending', nextAttemptAt: new Date(now.getTime() + policy.bundleMs) }]);
  });

  it('records nothing twice: a notification recorded already and a silenced event noted already are left out', () => {
    const silenced = event('alert.created', 3, 7, silence);
    const planned = planNotifications([event('alert.created', 1), silenced], new Set(['7']), recipients, now);
    const first = planned.notifications[0];
    const again = planRecording(planned, state({ recorded: new Set([`${first.eventId}/${first.userId}`]), skippedEventIds: new Set([alertEventId(silenced)]) }), now, policy);
    expect(again.changes?.map((n) => n.recipient)).toEqual(['maintainer@example.com']);
    expect(again.activity).toEqual([]);
  });

  it('records a sent bundle, retries a refused one with backoff and its Message-ID, fails it after its last attempt, and hands back one left unsent', () => {
    const decision = send([due('1', 'a@example.com', 1), due('2', 'a@example.com', 2, 'new', 2)]);
    expect(notificationUpdates(decision, { ok: true, messageId: '<m@example.com>' }, now, policy).map((u) => [u.status, u.attempts, u.sentAt, u.messageId])).toEqual([
      ['sent', 1, now, '<m@example.com>'],
      ['sent', 3, now, '<m@example.com>'],
    ]);
    const refused = notificationUpdates(decision, { ok: false, error: '550 5.1.1 mailbox unavailable' }, now, policy);
    expect(refused.map((u) => [u.status, u.attempts, u.nextAttemptAt.getTime() - now.getTime(), u.error, u.messageId])).toEqual([
      ['pending', 1, 1_000, '550 5.1.1 mailbox unavailable', '<m@example.com>'],
      ['failed', 3, 0, '550 5.1.1 mailbox unavailable', '<m@example.com>'],
    ]);
    const unsent = notificationUpdates(decision, undefined, now, policy);
    expect(unsent.map((u) => [u.status, u.attempts, u.nextAttemptAt])).toEqual([
      ['pending', 0, now],
      ['pending', 2, now],
    ]);
    const suppressed = notificationUpdates({ action: 'suppress', recipient: 'a@example.com', notifications: decision.notifications }, null, now, policy);
    expect(suppressed.map((u) => [u.status, u.attempts])).toEqual([
      ['suppressed', 0],
      ['suppressed', 2],
    ]);
    const cancelled = notificationUpdates({ action: 'cancel', recipient: 'a@example.com', notifications: decision.notifications.slice(0, 1), reason: 'undone' }, null, now, policy);
    expect(cancelled.map((u) => [u.status, u.error])).toEqual([['cancelled', 'undone']]);
  });

  it('writes a timeline entry for a notification sent, failed, suppressed or cancelled, none for a retry', () => {
    const notifications = [due('1', 'a@example.com', 1), due('2', 'a@example.com', 2, 'resolved', 2)];
    const onAlerts = notifications.map((n) => ({ ...n, subject: { alertId: n.alert.id } }));
    const updates = notificationUpdates(send(notifications), { ok: false, error: '554 no' }, now, policy);
    expect(notificationEntries(onAlerts, updates, now)).toEqual([
      {
        projectId: '7',
        subject: { alertId: '102' },
        kind: 'notification_failed',
        actorUserId: null,
        source: 'notification',
        reason: '554 no',
        details: { recipient: 'a@example.com', reason: 'resolved', notification_id: 2, attempts: 3 },
        at: now,
      },
    ]);
    const sent = notificationUpdates(send(notifications), { ok: true, messageId: 'm' }, now, policy);
    expect(notificationEntries(onAlerts, sent, now).map((e) => [e.kind, e.subject])).toEqual([
      ['notification_sent', { alertId: '101' }],
      ['notification_sent', { alertId: '102' }],
    ]);
    const cancelled = notificationUpdates({ action: 'cancel', recipient: 'a@example.com', notifications, reason: 'Silenced.' }, null, now, policy);
    expect(notificationEntries(onAlerts, cancelled, now).map((e) => [e.kind, e.reason])).toEqual([
      ['notification_cancelled', 'Silenced.'],
      ['notification_cancelled', 'Silenced.'],
    ]);
  });

  it('names one alert and its project in the subject, the headers and the link, with the Message-ID of its bundle', () => {
    const email = composeAlertEmail(send([due('1', 'a@example.com', 4)]), 'https://alerts.example.com/');
    expect(email).toMatchObject({
      to: 'a@example.com',
      messageId: '<m@example.com>',
      subject: 'New alert #4 in acme/web: Disk full on db-4',
      headers: { 'X-Alert-Id': '104', 'X-Alert-Iid': '4', 'X-Alert-Reason': 'new', 'X-Alert-Count': '1', 'X-Alert-Project': 'acme/web' },
    });
    expect(email.text).toContain('Severity: critical');
    expect(email.text).toContain('https://alerts.example.com/projects/7/alerts/4');
    expect(composeAlertEmail(send([due('1', 'a@example.com', 4)]), undefined).text).not.toContain('http');
  });

  it('says how many alerts a bundle holds, names each one with its project, in the order they changed', () => {
    const other = due('4', 'a@example.com', 5, 'new', 0, { projectId: '8', projectPath: 'acme/api' });
    const email = composeAlertEmail(send([due('1', 'a@example.com', 1), due('2', 'a@example.com', 2), due('3', 'a@example.com', 1, 'resolved')]), undefined);
    expect(email.subject).toBe('3 alert updates in acme/web (2 new, 1 resolved)');
    expect(email.headers).toEqual({ 'X-Alert-Id': '101, 102, 101', 'X-Alert-Iid': '1, 2, 1', 'X-Alert-Reason': 'new, new, resolved', 'X-Alert-Count': '3', 'X-Alert-Project': 'acme/web' });
    expect(email.text).toContain('New alert #1 in acme/web: Disk full on db-1');
    expect(email.text).toContain('Resolved #1 in acme/web: Disk full on db-1');
    const twoProjects = composeAlertEmail(send([due('1', 'a@example.com', 1), other]), undefined);
    expect(twoProjects.subject).toBe('2 alert updates in 2 projects (2 new)');
    expect(twoProjects.text.indexOf('#1 in acme/web')).toBeLessThan(twoProjects.text.indexOf('#5 in acme/api'));
  });

  it('keeps a title with line breaks on one subject line', () => {
    const notification = due('1', 'a@example.com', 1);
    notification.alert.title = 'Line one\r\nBcc: someone@example.com';
    expect(composeAlertEmail(send([notification]), undefined).subject).toBe('New alert #1 in acme/web: Line one Bcc: someone@example.com');
  });
});
