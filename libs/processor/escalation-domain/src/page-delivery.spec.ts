import { webhookSignature } from '@alert-ingestion/crypto';
import { PageDelivery, pageEmail, pageEntries, pageUpdate, pageWebhookBody, pageWebhookHeaders } from './page-delivery';
import { StoredPage } from './stored-escalation';

const now = Date.parse('2026-11-29T10:00:00.000Z');
const page: StoredPage = {
  id: '90',
  escalationId: '40',
  projectId: '5',
  alertId: '300',
  kind: 'page',
  loop: 1,
  rule: 0,
  condition: 'not_acknowledged',
  method: 'webhook',
  userId: '7',
  username: 'ada',
  address: 'https://phone.example.com/',
  contactMethodId: '2',
  dueAt: now,
  notice: null,
  idempotencyKey: '0f8e2a4c-0000-4000-8000-000000000001',
  status: 'pending',
  attempts: 0,
  error: null,
  sentAt: null,
};
const delivery: PageDelivery = {
  page,
  alert: { projectId: '5', projectPath: 'acme/web', iid: 12, title: 'Disk full', severity: 'critical', status: 'triggered', startedAt: '2026-11-29T09:58:00.000Z', description: null, service: 'db', monitoringTool: null, hosts: ['db-1'] },
  incident: { iid: 3, title: 'Database down', status: 'open' },
  rule: { afterMinutes: 0, condition: 'not_acknowledged', description: 'at once, if not acknowledged, page @ada' },
  secret: 'webhook-secret',
};
const policy = { maxAttempts: 3, retryMs: 1000, maxRetryMs: 60_000 };

describe('pages', () => {
  it('gives the webhook the alert, its incident, the rule, the loop, the recipient and links, the same on every attempt', () => {
    const body = pageWebhookBody(delivery, 'https://alerts.example.com/');
    expect(body).toEqual({
      event: 'page',
      alert: { project_id: 5, project_path: 'acme/web', iid: 12, title: 'Disk full', severity: 'critical', status: 'triggered', started_at: '2026-11-29T09:58:00.000Z', description: null, service: 'db', monitoring_tool: null, hosts: ['db-1'] },
      incident: { iid: 3, title: 'Database down', status: 'open' },
      rule: { number: 1, after_minutes: 0, condition: 'not_acknowledged', description: 'at once, if not acknowledged, page @ada' },
      loop: 2,
      recipient: { type: 'user', id: 7, username: 'ada' },
      by: null,
      links: { alert: 'https://alerts.example.com/projects/5/alerts/12', incident: 'https://alerts.example.com/projects/5/incidents/3', acknowledge: '/api/v4/projects/5/alerts/12' },
      idempotency_key: page.idempotencyKey,
    });
  });

  it('signs the body with a timestamp as the gateway verifies, and keeps the idempotency key', () => {
    const body = Buffer.from(JSON.stringify(pageWebhookBody(delivery, undefined)));
    const headers = pageWebhookHeaders(body, 'webhook-secret', page.idempotencyKey, 'page', now);
    expect(headers['idempotency-key']).toBe(page.idempotencyKey);
    expect(headers['x-signature-timestamp']).toBe(String(now / 1000));
    expect(headers['x-grafana-alerting-signature']).toBe(webhookSignature('webhook-secret', body, String(now / 1000)));
  });

  it('mails a page and a notice with a Message-ID that stays the same', () => {
    const email = pageEmail({ ...delivery, page: { ...page, method: 'email', address: 'ada@example.com' } }, 'https://alerts.example.com', 'Alerts <alerts@example.com>');
    expect(email).toMatchObject({ to: 'ada@example.com', subject: '[Page] Alert #12 in acme/web: Disk full (critical)', messageId: `<escalation-page-${page.idempotencyKey}@example.com>` });
    expect(email.text).toContain('Escalation: loop 2, rule 1: at once, if not acknowledged, page @ada.');
    expect(email.text).toContain('Acknowledge it: https://alerts.example.com/projects/5/alerts/12');
    const notice = pageEmail({ ...delivery, rule: null, page: { ...page, kind: 'notice', rule: null, notice: { of: 'acknowledged', by: '@bob' } } }, undefined, 'alerts@example.com');
    expect(notice.subject).toBe('Acknowledged by @bob: alert #12 in acme/web: Disk full');
  });

  it('retries a refused page with backoff, fails it at its last attempt, and records sent and failed pages on the timeline', () => {
    expect(pageUpdate(page, { ok: false, error: 'HTTP 503' }, now, policy)).toEqual({ id: '90', status: 'pending', attempts: 1, nextAttemptAt: now + 1000, error: 'HTTP 503', sentAt: null });
    expect(pageUpdate({ ...page, attempts: 2 }, { ok: false, error: 'timed out' }, now, policy)).toMatchObject({ status: 'failed', attempts: 3 });
    expect(pageUpdate(page, { ok: true, messageId: 'x' }, now, policy)).toMatchObject({ status: 'sent', attempts: 1, sentAt: now });
    expect(pageUpdate(page, undefined, now, policy)).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: now });
    const entries = pageEntries([page], [pageUpdate(page, { ok: true, messageId: 'x' }, now, policy)], now);
    expect(entries).toEqual([expect.objectContaining({ kind: 'page_sent', reason: 'Paged @ada by webhook.', details: expect.objectContaining({ page_id: 90, loop: 2, rule: 1 }) })]);
    expect(pageEntries([page], [pageUpdate(page, { ok: false, error: 'x' }, now, policy)], now)).toEqual([]);
  });
});
