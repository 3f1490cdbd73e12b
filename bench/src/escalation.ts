/**
 * The escalation policy a benchmark's project can run (BENCH_ESCALATION=on in bench:compare): a
 * member on call in a schedule, paged by a webhook contact method at a real receiver in the bench's
 * process (TestWebhookReceiver, which checks every page's signature) at once, with a second rule far
 * enough ahead that a round never reaches it. Every bench alert is new, so every one starts an
 * escalation and sends a page: the worst case. What escalation did is read from the database at the end.
 */
import { withClient } from '@alert-ingestion/database';
import { TestWebhookReceiver, waitForCount } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { Stack } from './pipeline-stack';

/** Gives the project an on-call member with a webhook contact method on the receiver, a schedule they are on call in, and a policy paging it. */
export async function enableEscalation(stack: Stack, projectId: number, receiver: TestWebhookReceiver): Promise<void> {
  const name = `bench-on-call-${randomBytes(4).toString('hex')}`;
  const member = await stack.client.management<{ id: number; token: string }>('POST', '/users', { username: name });
  await stack.client.management('POST', `/projects/${projectId}/members`, { user_id: member.id, access_level: 'developer' });
  const method = await stack.client.answerAs<{ secret: string }>(member.token, 'POST', '/user/contact_methods', { type: 'webhook', name: 'Pager', address: `${receiver.url}/${name}` });
  if (method.status !== 201) throw new Error(`contact method of ${name}: ${method.status} ${JSON.stringify(method.body)}`);
  receiver.secret(`/${name}`, method.body.secret);
  const schedule = await stack.client.processorApi<{ id: number }>('POST', `/projects/${projectId}/oncall_schedules`, { name: 'Bench', time_zone: 'UTC' });
  await stack.client.processorApi('POST', `/projects/${projectId}/oncall_schedules/${schedule.id}/rotations`, {
    name: 'Days',
    starts_at: `${Temporal.Now.plainDateISO('UTC').subtract({ days: 1 })}T00:00`,
    shift_length: 1,
    shift_length_unit: 'days',
    participant_ids: [member.id],
  });
  await stack.client.processorApi('PUT', `/projects/${projectId}/escalation_policy`, {
    rules: [
      { after_minutes: 0, condition: 'not_acknowledged', targets: [{ type: 'schedule', schedule_id: schedule.id }] },
      { after_minutes: 60, condition: 'not_resolved', targets: [{ type: 'user', user_id: member.id }] },
    ],
  });
}

export interface EscalationCounts {
  alerts: number;
  /** Escalation runs by state. */
  escalations: Map<string, number>;
  /** Pages by status. */
  pages: Map<string, number>;
}

/** The projects' alerts, escalation runs by state and pages by status, from the database. */
export async function escalationCounts(stack: Stack, projectIds: number[]): Promise<EscalationCounts> {
  if (!stack.databaseUrl) throw new Error('counting escalations needs the database (DATABASE_URL)');
  return withClient(stack.databaseUrl, async (client) => {
    const count = async (sql: string) => new Map((await client.query<{ key: string; count: string }>(sql, [projectIds])).rows.map((row) => [row.key, Number(row.count)]));
    const alerts = await client.query<{ count: string }>('SELECT count(*) AS count FROM alerts WHERE project_id = ANY($1)', [projectIds]);
    return {
      alerts: Number(alerts.rows[0].count),
      escalations: await count('SELECT state AS key, count(*) AS count FROM alert_escalations WHERE project_id = ANY($1) GROUP BY state ORDER BY state'),
      pages: await count('SELECT status AS key, count(*) AS count FROM escalation_pages WHERE project_id = ANY($1) GROUP BY status ORDER BY status'),
    };
  });
}

/** Waits (up to `timeoutMs` each) until every stored alert has its escalation and its first page settled (not pending), then returns the counts. */
export async function settledEscalation(stack: Stack, projectIds: number[], timeoutMs: number): Promise<EscalationCounts> {
  const { alerts } = await escalationCounts(stack, projectIds);
  const sum = (counts: Map<string, number>, skip = '') => [...counts].filter(([key]) => key !== skip).reduce((total, [, count]) => total + count, 0);
  await waitForCount(async () => sum((await escalationCounts(stack, projectIds)).escalations), alerts, timeoutMs, 1_000);
  await waitForCount(async () => sum((await escalationCounts(stack, projectIds)).pages, 'pending'), alerts, timeoutMs, 1_000);
  return escalationCounts(stack, projectIds);
}

/** What escalation did in the pipeline's projects, and what the receiver took. */
export function escalationLines(counts: EscalationCounts, receiver: TestWebhookReceiver): string[] {
  const text = (counts: Map<string, number>) => [...counts].map(([key, count]) => `${key} ${count}`).join(', ') || 'none';
  const valid = receiver.received.filter((request) => request.signatureValid).length;
  return [
    'escalation (every pipeline project, warm-ups included):',
    `  alerts stored ${counts.alerts}; escalations by state: ${text(counts.escalations)}; pages by status: ${text(counts.pages)}`,
    `  webhook requests the receiver took: ${receiver.received.length} (${valid} signed correctly), distinct idempotency keys ${new Set(receiver.received.map((request) => request.headers['idempotency-key'])).size}`,
  ];
}
