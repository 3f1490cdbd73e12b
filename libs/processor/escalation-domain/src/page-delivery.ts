import { ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { EscalationCondition, PageStatus, Severity } from '@alert-ingestion/contracts';
import { signedWebhookHeaders } from '@alert-ingestion/crypto';
import { AlertEmail, alertLink, oneLine, retryDelayMs, SendOutcome, senderDomain } from '@alert-ingestion/workflow-domain';
import { StoredPage } from './stored-escalation';

// What a page says and how its outcome is recorded (docs/api-guide.md "Pages"): the email, the
// webhook's JSON body and signature, and the retries. Pure: the engine sends through the workflow's
// EmailSender and the webhook sender, outside every transaction.

/** What a page tells about its alert, read when it is sent. */
export interface PagedAlertDetails {
  projectId: string;
  projectPath: string;
  iid: number;
  title: string;
  severity: Severity;
  status: string;
  startedAt: string;
  description: string | null;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
}

/** Everything a page needs to go out: the page, its alert and incident as they are now, its rule, and a webhook's secret. */
export interface PageDelivery {
  page: StoredPage;
  alert: PagedAlertDetails;
  incident: { iid: number; title: string; status: string } | null;
  /** The rule that paged, from the run's policy (null for a notice). */
  rule: { afterMinutes: number; condition: EscalationCondition; description: string } | null;
  /** The webhook's signing secret (a user's webhook method's, or the project's for a rule's webhook target); null for email. */
  secret: string | null;
}

/** `page`, or for a notice what it tells, or `test` for "send me a test page". */
export type PageEvent = 'page' | 'acknowledged' | 'resolved' | 'test';

/** What a stored page is: a page, or the acknowledgement or resolution its notice tells. */
export function pageEvent(page: Pick<StoredPage, 'notice'>): PageEvent {
  return page.notice?.of ?? 'page';
}

/** The webhook's JSON body: the same on every attempt of a page (the signature's timestamp is what changes). */
export interface PageWebhookBody {
  event: PageEvent;
  alert: {
    project_id: number;
    project_path: string;
    iid: number;
    title: string;
    severity: Severity;
    status: string;
    started_at: string;
    description: string | null;
    service: string | null;
    monitoring_tool: string | null;
    hosts: string[];
  };
  incident: { iid: number; title: string; status: string } | null;
  rule: { number: number; after_minutes: number; condition: EscalationCondition; description: string } | null;
  /** The loop that paged (from 1). */
  loop: number;
  recipient: { type: 'user'; id: number; username: string } | { type: 'webhook'; url: string };
  /** Who acknowledged or resolved the alert (a notice); null otherwise. */
  by: string | null;
  links: { alert: string | null; incident: string | null; acknowledge: string };
  idempotency_key: string;
}

/** Where the console shows an incident (CONSOLE_URL), or null. */
function incidentLink(consoleUrl: string | undefined, projectId: string, iid: number): string | null {
  return consoleUrl ? `${consoleUrl.replace(/\/+$/, '')}/projects/${projectId}/incidents/${iid}` : null;
}

/** The body of a page's webhook. `acknowledge` is the API route that acknowledges the alert (PUT with `{"status": "acknowledged"}` and a developer's token). */
export function pageWebhookBody(delivery: PageDelivery, consoleUrl: string | undefined): PageWebhookBody {
  const { page, alert, incident, rule } = delivery;
  return {
    event: pageEvent(page),
    alert: {
      project_id: Number(alert.projectId),
      project_path: alert.projectPath,
      iid: alert.iid,
      title: alert.title,
      severity: alert.severity,
      status: alert.status,
      started_at: alert.startedAt,
      description: alert.description,
      service: alert.service,
      monitoring_tool: alert.monitoringTool,
      hosts: alert.hosts,
    },
    incident,
    rule: rule && page.rule !== null ? { number: page.rule + 1, after_minutes: rule.afterMinutes, condition: rule.condition, description: rule.description } : null,
    loop: page.loop + 1,
    recipient: page.userId === null ? { type: 'webhook', url: page.address } : { type: 'user', id: Number(page.userId), username: page.username ?? '' },
    by: page.notice?.by ?? null,
    links: {
      alert: alertLink(consoleUrl, alert.projectId, alert.iid),
      incident: incident && incidentLink(consoleUrl, alert.projectId, incident.iid),
      acknowledge: `/api/v4/projects/${alert.projectId}/alerts/${alert.iid}`,
    },
    idempotency_key: page.idempotencyKey,
  };
}

/**
 * The headers of a webhook page sent at `nowMs`, signed as the gateway verifies signed webhooks
 * (docs/api-guide.md "Signed webhooks"): `X-Signature-Timestamp` (Unix seconds) and
 * `X-Grafana-Alerting-Signature`, the hex HMAC-SHA256 of `{timestamp}:{body}` with the target's
 * secret; and `Idempotency-Key`, the same on every attempt of the page.
 */
export function pageWebhookHeaders(body: Buffer, secret: string, idempotencyKey: string, event: PageEvent, nowMs: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'alert-ingestion-escalation/1',
    'idempotency-key': idempotencyKey,
    'x-escalation-event': event,
    ...signedWebhookHeaders(secret, body, nowMs),
  };
}

/** The Message-ID of a page's email: the same on every attempt (its idempotency key), under the sender's domain. */
export function pageMessageId(idempotencyKey: string, from: string): string {
  return `<escalation-page-${idempotencyKey}@${senderDomain(from)}>`;
}

const NOTICE_WORDS = { acknowledged: 'Acknowledged', resolved: 'Resolved' } as const;

/** A page's (or a notice's) email. */
export function pageEmail(delivery: PageDelivery, consoleUrl: string | undefined, from: string): AlertEmail {
  const { page, alert, incident, rule } = delivery;
  const event = pageEvent(page);
  const name = `#${alert.iid} in ${alert.projectPath}: ${alert.title}`;
  const subject =
    event === 'page' || event === 'test' ? `[Page] Alert ${name} (${alert.severity})` : `${NOTICE_WORDS[event]} by ${page.notice?.by ?? 'someone'}: alert ${name}`;
  const link = alertLink(consoleUrl, alert.projectId, alert.iid);
  const lines = [
    event === 'page' || event === 'test' ? `Alert ${name}` : `${NOTICE_WORDS[event]}: alert ${name}`,
    `  Severity: ${alert.severity}`,
    `  Status: ${alert.status}`,
    `  Started: ${alert.startedAt}`,
  ];
  if (alert.service) lines.push(`  Service: ${oneLine(alert.service)}`);
  if (alert.monitoringTool) lines.push(`  Monitoring tool: ${oneLine(alert.monitoringTool)}`);
  if (alert.description) lines.push(`  Description: ${alert.description}`);
  if (incident) lines.push(`  Incident: #${incident.iid} ${oneLine(incident.title)} (${incident.status})`);
  if (rule && page.rule !== null) lines.push('', `Escalation: loop ${page.loop + 1}, rule ${page.rule + 1}: ${rule.description}.`);
  if (link) lines.push('', event === 'page' ? `Acknowledge it: ${link}` : link);
  const footer =
    event === 'page'
      ? `You get this page from the escalation policy of ${alert.projectPath}. How you are paged is on your profile (contact methods and notification rules).`
      : `You get this notice because you were paged for this alert and asked for notices on your profile.`;
  return {
    to: page.address,
    subject: oneLine(subject),
    text: [...lines, '', footer].join('\n'),
    messageId: pageMessageId(page.idempotencyKey, from),
    headers: { 'X-Alert-Iid': String(alert.iid), 'X-Alert-Project': alert.projectPath, 'X-Escalation-Event': event, 'Idempotency-Key': page.idempotencyKey },
  };
}

/** How failed pages are tried again (the ESCALATION_PAGE_* settings). */
export interface PageRetryPolicy {
  maxAttempts: number;
  retryMs: number;
  maxRetryMs: number;
}

/** A page after an attempt; the claim's lease ends with it. */
export interface PageUpdate {
  id: string;
  status: PageStatus;
  attempts: number;
  nextAttemptAt: number;
  error: string | null;
  sentAt: number | null;
}

/**
 * A page after its attempt: sent; refused (or unreachable, or timed out) and pending again after a
 * backoff, or failed at its last attempt; or left unsent because the claim's lease ran short
 * (`outcome` undefined), due again at once.
 */
export function pageUpdate(page: Pick<StoredPage, 'id' | 'attempts'>, outcome: SendOutcome | undefined, now: number, policy: PageRetryPolicy): PageUpdate {
  const kept = { id: page.id, attempts: page.attempts, nextAttemptAt: now, sentAt: null };
  if (outcome === undefined) return { ...kept, status: 'pending', error: null };
  const attempts = page.attempts + 1;
  if (outcome.ok) return { ...kept, attempts, status: 'sent', error: null, sentAt: now };
  const failed = attempts >= policy.maxAttempts;
  return { ...kept, attempts, status: failed ? 'failed' : 'pending', nextAttemptAt: failed ? now : now + retryDelayMs(attempts, policy), error: outcome.error };
}

/** The timeline entries of pages that reached their end (sent, or failed at their last attempt), on their alerts' timelines. */
export function pageEntries(pages: readonly StoredPage[], updates: readonly PageUpdate[], now: number): ActivityEntryOut[] {
  const byId = new Map(pages.map((page) => [page.id, page]));
  return updates.flatMap((update): ActivityEntryOut[] => {
    const page = byId.get(update.id);
    if (!page || (update.status !== 'sent' && update.status !== 'failed')) return [];
    const who = page.username === null ? `the webhook ${page.address}` : `@${page.username} by ${page.method}`;
    const what = page.kind === 'notice' ? `A notice that the alert was ${page.notice?.of} went to ${who}` : `Paged ${who}`;
    return [
      {
        projectId: page.projectId,
        subject: { alertId: page.alertId },
        kind: update.status === 'sent' ? 'page_sent' : 'page_failed',
        actorUserId: null,
        source: 'escalation',
        reason: update.status === 'sent' ? `${what}.` : `${what}: failed after ${update.attempts} attempts (${update.error}).`,
        details: {
          page_id: Number(page.id),
          kind: page.kind,
          method: page.method,
          user: page.username,
          address: page.address,
          loop: page.loop + 1,
          rule: page.rule === null ? null : page.rule + 1,
          ...(update.status === 'failed' && { attempts: update.attempts }),
        },
        at: new Date(now),
      },
    ];
  });
}

/** A test page ("send me a test page"): what a user's contact method receives, by email or webhook, signed as a page is. */
export function testPageEmail(to: string, username: string, idempotencyKey: string, from: string): AlertEmail {
  return {
    to,
    subject: 'Test page',
    text: [`This is a test page for @${username}: this contact method reaches you when an escalation policy pages you.`, '', 'Nothing needs doing.'].join('\n'),
    messageId: pageMessageId(idempotencyKey, from),
    headers: { 'X-Escalation-Event': 'test', 'Idempotency-Key': idempotencyKey },
  };
}

export interface TestPageWebhookBody {
  event: 'test';
  recipient: { type: 'user'; id: number; username: string };
  message: string;
  idempotency_key: string;
}

export function testPageWebhookBody(user: { id: string; username: string }, idempotencyKey: string): TestPageWebhookBody {
  return {
    event: 'test',
    recipient: { type: 'user', id: Number(user.id), username: user.username },
    message: `This is a test page for @${user.username}: this contact method reaches you when an escalation policy pages you.`,
    idempotency_key: idempotencyKey,
  };
}
