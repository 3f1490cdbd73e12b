import {
  alertEventId,
  composeAlertEmail,
  DueNotification,
  EmailRecipient,
  notificationEntries,
  notificationReason,
  notificationUpdates,
  planDeliveries,
  planNotifications,
  planRecording,
  retryDelayMs,
} from './alert-email';

describe('alert emails', () => {
  const now = new Date('2026-11-27T10:00:00.000Z');
  const event = (type: 'alert.created' | 'alert.grouped' | 'alert.resolved' | 'alert.status_changed', iid: number, projectId = 7) => ({
    type,
    occurred_at: `2026-11-27T09:59:0${iid % 10}.000Z`,
    project_id: projectId,
    alert: { iid },
  });
  const recipients: EmailRecipient[] = [
    { projectId: '7', userId: '1', email: 'owner@example.com' },
    { projectId: '7', userId: '2', email: 'maintainer@example.com' },
    { projectId: '8', userId: '3', email: 'other@example.com' },
  ];
  const due = (id: string, recipient: string, iid: number, reason: 'new' | 'resolved' = 'new', attempts = 0): DueNotification => ({
    id,
    projectId: '7',
    recipient,
    reason,
    attempts,
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
    },
  });
  const policy = { bundleMs: 30_000, hourlyCap: 2, maxAttempts: 3, retryMs: 1_000, maxRetryMs: 3_000 };

  it('mails on new and resolved alerts only, never on a grouped repeat or another status change', () => {
    expect(notificationReason('alert.created')).toBe('new');
    expect(notificationReason('alert.resolved')).toBe('resolved');
    expect(notificationReason('alert.grouped')).toBeNull();
    expect(notificationReason('alert.status_changed')).toBeNull();
  });

  it("mails each owner and maintainer of a project whose send_email is on, once per event, whatever the project's other events", () => {
    const events = [event('alert.created', 1), event('alert.grouped', 1), event('alert.resolved', 1), event('alert.created', 2, 8)];
    const planned = planNotifications([...events, events[0]], new Set(['7']), recipients);
    expect(planned.map((n) => [n.alertIid, n.reason, n.recipient])).toEqual([
      [1, 'new', 'owner@example.com'],
      [1, 'new', 'maintainer@example.com'],
      [1, 'resolved', 'owner@example.com'],
      [1, 'resolved', 'maintainer@example.com'],
    ]);
    expect(planned[0].eventId).toBe(alertEventId(events[0]));
    expect(planned[0].eventId).not.toBe(planned[2].eventId);
    expect(planNotifications(events, new Set(), recipients)).toEqual([]);
  });

  it('names one change the same way however often it is delivered', () => {
    expect(alertEventId(event('alert.created', 3))).toBe(alertEventId({ ...event('alert.created', 3) }));
    expect(alertEventId(event('alert.created', 3))).toBe('7:3:alert.created:2026-11-27T09:59:03.000Z');
  });

  it('waits twice as long after each refusal, up to the longest wait', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelayMs(attempts, policy))).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
  });

  it("bundles a recipient's due notifications into one message and suppresses a recipient over the hourly cap", () => {
    const decisions = planDeliveries(
      [due('12', 'a@example.com', 2), due('11', 'a@example.com', 1), due('13', 'b@example.com', 1), due('9', 'c@example.com', 3)],
      new Map([
        ['b@example.com', 2],
        ['c@example.com', 1],
      ]),
      policy,
    );
    expect(decisions.map((d) => [d.action, d.recipient, d.notifications.map((n) => n.id)])).toEqual([
      ['send', 'c@example.com', ['9']],
      ['send', 'a@example.com', ['11', '12']],
      ['suppress', 'b@example.com', ['13']],
    ]);
  });

  it('records a batch per recipient: joins the bundle that waits or starts one, and suppresses at once when the cap is reached within the hour before it is due', () => {
    const out = planNotifications([event('alert.created', 1), event('alert.created', 2)], new Set(['7']), recipients);
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    const waiting = new Date(now.getTime() + 10_000);
    const recorded = planRecording(
      out,
      new Map([
        // Two messages in the hour before the bundle's due time (now + 30 s): over the cap of 2.
        ['owner@example.com', { bundleDueAt: null, sentAt: [minutesAgo(59), minutesAgo(5)] }],
        // One of its two messages leaves the hour before its bundle is due: under the cap then.
        ['maintainer@example.com', { bundleDueAt: waiting, sentAt: [minutesAgo(59.9), minutesAgo(5)] }],
      ]),
      now,
      policy,
    );
    expect(recorded.map((n) => [n.alertIid, n.recipient, n.status, n.nextAttemptAt])).toEqual([
      [1, 'owner@example.com', 'suppressed', now],
      [1, 'maintainer@example.com', 'pending', waiting],
      [2, 'owner@example.com', 'suppressed', now],
      [2, 'maintainer@example.com', 'pending', waiting],
    ]);
    expect(planRecording(out.slice(0, 1), new Map(), now, policy)).toEqual([{ ...out[0], status: 'pending', nextAttemptAt: new Date(now.getTime() + policy.bundleMs) }]);
  });

  it('records a sent bundle, retries a refused one with backoff, fails it after its last attempt', () => {
    const decision = { action: 'send' as const, recipient: 'a@example.com', notifications: [due('1', 'a@example.com', 1), due('2', 'a@example.com', 2, 'new', 2)] };
    expect(notificationUpdates(decision, { ok: true, messageId: '<m@x>' }, now, policy).map((u) => [u.status, u.attempts, u.sentAt, u.messageId])).toEqual([
      ['sent', 1, now, '<m@x>'],
      ['sent', 3, now, '<m@x>'],
    ]);
    const refused = notificationUpdates(decision, { ok: false, error: '550 5.1.1 mailbox unavailable' }, now, policy);
    expect(refused.map((u) => [u.status, u.attempts, u.nextAttemptAt.getTime() - now.getTime(), u.error])).toEqual([
      ['pending', 1, 1_000, '550 5.1.1 mailbox unavailable'],
      ['failed', 3, 0, '550 5.1.1 mailbox unavailable'],
    ]);
    const suppressed = notificationUpdates({ ...decision, action: 'suppress' }, null, now, policy);
    expect(suppressed.map((u) => [u.status, u.attempts])).toEqual([
      ['suppressed', 0],
      ['suppressed', 2],
    ]);
  });

  it('writes a timeline entry for a notification sent, failed or suppressed, none for a retry', () => {
    const notifications = [due('1', 'a@example.com', 1), due('2', 'a@example.com', 2, 'resolved', 2)];
    const updates = notificationUpdates({ action: 'send', recipient: 'a@example.com', notifications }, { ok: false, error: '554 no' }, now, policy);
    expect(notificationEntries(notifications, updates, now)).toEqual([
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
    const sent = notificationUpdates({ action: 'send', recipient: 'a@example.com', notifications }, { ok: true, messageId: 'm' }, now, policy);
    expect(notificationEntries(notifications, sent, now).map((e) => [e.kind, e.subject])).toEqual([
      ['notification_sent', { alertId: '101' }],
      ['notification_sent', { alertId: '102' }],
    ]);
  });

  it('names one alert in the subject, the headers and the link', () => {
    const email = composeAlertEmail('a@example.com', [due('1', 'a@example.com', 4)], 'https://alerts.example.com/');
    expect(email).toMatchObject({
      to: 'a@example.com',
      subject: 'New alert #4: Disk full on db-4',
      headers: { 'X-Alert-Id': '104', 'X-Alert-Iid': '4', 'X-Alert-Reason': 'new', 'X-Alert-Count': '1' },
    });
    expect(email.text).toContain('Severity: critical');
    expect(email.text).toContain('https://alerts.example.com/projects/7/alerts/4');
    expect(composeAlertEmail('a@example.com', [due('1', 'a@example.com', 4)], undefined).text).not.toContain('http');
  });

  it('says how many alerts a bundle holds and lists each', () => {
    const email = composeAlertEmail('a@example.com', [due('1', 'a@example.com', 1), due('2', 'a@example.com', 2), due('3', 'a@example.com', 1, 'resolved')], undefined);
    expect(email.subject).toBe('3 alert updates in project 7 (2 new, 1 resolved)');
    expect(email.headers).toEqual({ 'X-Alert-Id': '101, 102, 101', 'X-Alert-Iid': '1, 2, 1', 'X-Alert-Reason': 'new, new, resolved', 'X-Alert-Count': '3' });
    expect(email.text).toContain('New alert #1: Disk full on db-1');
    expect(email.text).toContain('New alert #2: Disk full on db-2');
    expect(email.text).toContain('Resolved #1: Disk full on db-1');
  });

  it('keeps a title with line breaks on one subject line', () => {
    const notification = due('1', 'a@example.com', 1);
    notification.alert.title = 'Line one\r\nBcc: someone@example.com';
    expect(composeAlertEmail('a@example.com', [notification], undefined).subject).toBe('New alert #1: Line one Bcc: someone@example.com');
  });
});
