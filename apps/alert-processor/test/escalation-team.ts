import type { AlertEscalationView, ContactMethodView, EscalationPolicyView, OncallRotationView, OncallScheduleView } from '@alert-ingestion/contracts';
import { ServiceStack, StackProject, TestWebhookReceiver } from '@alert-ingestion/testing';
import { StackMember, stackMembers } from './stack-members';

/** The length of an escalation policy's minute in these specs (ESCALATION_MINUTE_MS): a loop's pause of 5 minutes is a second. */
export const MINUTE_MS = 200;

/** What every escalation spec's processor runs with: short minutes and polls, webhooks to the receiver on 127.0.0.1 allowed. */
export const ESCALATION_SETTINGS = {
  ESCALATION_MINUTE_MS: String(MINUTE_MS),
  ESCALATION_POLL_MS: '100',
  ESCALATION_WEBHOOK_ALLOW_PRIVATE: 'true',
  ESCALATION_WEBHOOK_TIMEOUT_MS: '2000',
  ESCALATION_PAGE_RETRY_MS: '200',
  ESCALATION_PAGE_MAX_RETRY_MS: '1000',
  ESCALATION_LATE_SECONDS: '1',
  EMAIL_POLL_MS: '100',
  CONSOLE_URL: 'http://console.example.test',
};

type Rule = { after_minutes: number; condition: 'not_acknowledged' | 'not_resolved'; targets: Array<Record<string, unknown>> };

/**
 * A team on a ServiceStack, made as a team would through integration-config (and the alerts API it
 * forwards): a project with a maintainer and developers, schedules, each member's contact methods
 * (webhook ones on the test receiver, whose secrets it learns), the escalation policy, alerts.
 */
export class EscalationTeam<Name extends string> {
  private constructor(
    private readonly stack: ServiceStack,
    private readonly receiver: TestWebhookReceiver,
    readonly project: StackProject,
    readonly members: Record<Name | 'lead', StackMember>,
  ) {}

  static async create<Name extends string>(stack: ServiceStack, receiver: TestWebhookReceiver, developers: readonly Name[]): Promise<EscalationTeam<Name>> {
    const project = await stack.createProject('premium', { pathPrefix: 'escalation' });
    const roles = Object.fromEntries([['lead', 'maintainer'], ...developers.map((name) => [name, 'developer'])]) as Record<Name | 'lead', 'maintainer' | 'developer'>;
    return new EscalationTeam(stack, receiver, project, await stackMembers(stack, project.id, roles));
  }

  /** A call through integration-config as `who`, whose answer must have `status`. */
  async call<T>(who: Name | 'lead', method: string, path: string, body?: unknown, status = { POST: 201, DELETE: 204 }[method] ?? 200): Promise<T> {
    const answer = await this.stack.answerAs<T>(this.members[who].token, method, path, body);
    if (answer.status !== status) throw new Error(`${method} ${path} as ${who} -> ${answer.status} ${JSON.stringify(answer.body)} (expected ${status})`);
    return answer.body;
  }

  /** A schedule in UTC with one daily rotation of `onCall` since yesterday (so they are on call now); none: nobody is ever on call. */
  async schedule(name: string, onCall: Name | null): Promise<OncallScheduleView> {
    const schedule = await this.call<OncallScheduleView>('lead', 'POST', `/projects/${this.project.id}/oncall_schedules`, { name, time_zone: 'UTC' });
    if (onCall !== null) {
      await this.call<OncallRotationView>('lead', 'POST', `/projects/${this.project.id}/oncall_schedules/${schedule.id}/rotations`, {
        name: 'Days',
        starts_at: `${Temporal.Now.plainDateISO('UTC').subtract({ days: 1 })}T00:00`,
        shift_length: 1,
        shift_length_unit: 'days',
        participant_ids: [this.members[onCall].id],
      });
    }
    return schedule;
  }

  /** A contact method of `who`: an email address, or a webhook on the receiver at `/<who>-<name>` (its secret given to the receiver). */
  async contact(who: Name | 'lead', type: 'email' | 'webhook', name: string = type): Promise<ContactMethodView & { path: string }> {
    const path = `/${this.members[who].username}-${name}`;
    const address = type === 'email' ? `${this.members[who].username}@example.com` : `${this.receiver.url}${path}`;
    const method = await this.call<ContactMethodView>(who, 'POST', '/user/contact_methods', { type, name, address });
    if (method.secret) this.receiver.secret(path, method.secret);
    return { ...method, path };
  }

  /** The project's policy, set by the maintainer; the receiver learns the secrets of new webhook URLs (on it, by path). */
  async policy(rules: Rule[], repeat = 0): Promise<EscalationPolicyView> {
    const policy = await this.call<EscalationPolicyView>('lead', 'PUT', `/projects/${this.project.id}/escalation_policy`, { rules, repeat });
    for (const { url, secret } of policy.webhook_secrets) this.receiver.secret(new URL(url).pathname, secret);
    return policy;
  }

  /** A webhook target on the receiver at `path`. */
  webhook(path: string): { type: 'webhook'; url: string } {
    return { type: 'webhook', url: `${this.receiver.url}${path}` };
  }

  /** Triggers a new alert (a payload to the project's integration); its iid. */
  async trigger(title: string, fields: Record<string, unknown> = {}): Promise<number> {
    const [iid] = await this.stack.notify(this.project.integration, { title, fingerprint: `${title}-${Math.random()}`, ...fields });
    return iid;
  }

  escalation(iid: number): Promise<AlertEscalationView> {
    return this.call<AlertEscalationView>('lead', 'GET', `/projects/${this.project.id}/alerts/${iid}/escalation`);
  }

  setStatus(who: Name | 'lead', iid: number, status: string): Promise<{ status: string; updated_at: string }> {
    return this.call(who, 'PUT', `/projects/${this.project.id}/alerts/${iid}`, { status });
  }

  /** The alert's timeline entries of these kinds, oldest first. */
  async timeline(iid: number, kinds: readonly string[]): Promise<Array<{ kind: string; reason: string | null; details: Record<string, unknown> }>> {
    const entries = await this.call<Array<{ kind: string; reason: string | null; details: Record<string, unknown> }>>('lead', 'GET', `/projects/${this.project.id}/alerts/${iid}/activity?per_page=100`);
    return entries.filter((entry) => kinds.includes(entry.kind));
  }
}
