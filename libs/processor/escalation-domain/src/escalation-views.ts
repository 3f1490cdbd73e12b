import { AlertEscalationView, EscalationPageView, EscalationPolicyView, OncallUser, WebhookSecretView } from '@alert-ingestion/contracts';
import { describeRule, EscalationPolicy, loopMinutes, ruleViews, StoredPolicy, urlOrigin } from './escalation-policy';
import { stepNumbers } from './escalation-steps';
import { StoredEscalation, StoredPage } from './stored-escalation';

// Escalation policies and an alert's escalation as the API shows them. Pure.

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** A project's policy (none: no rules), with the members it cannot reach and new webhook secrets. */
export function policyView(
  stored: StoredPolicy | undefined,
  scheduleExists: (id: string) => boolean,
  unreachable: readonly OncallUser[],
  secrets: readonly WebhookSecretView[] = [],
  preview?: EscalationPolicy,
): EscalationPolicyView {
  const policy = preview ?? stored?.policy;
  return {
    rules: policy ? ruleViews(policy, scheduleExists) : [],
    repeat: policy?.repeat ?? 0,
    loop_minutes: policy ? loopMinutes(policy) : 0,
    created_at: iso(stored?.createdAt ?? null),
    updated_at: iso(stored?.updatedAt ?? null),
    unreachable_users: [...unreachable],
    webhook_secrets: [...secrets],
  };
}

/** A page as an alert's escalation shows it (a webhook URL as its origin). */
export function pageView(page: StoredPage): EscalationPageView {
  return {
    id: Number(page.id),
    kind: page.kind,
    loop: page.loop + 1,
    rule: page.rule === null ? null : page.rule + 1,
    method: page.method,
    user: page.userId === null ? null : { id: Number(page.userId), username: page.username ?? '' },
    address: page.method === 'webhook' ? urlOrigin(page.address) : page.address,
    status: page.status,
    attempts: page.attempts,
    error: page.error,
    due_at: new Date(page.dueAt).toISOString(),
    sent_at: iso(page.sentAt),
  };
}

/** An alert's escalation: its latest run (none: `none`), its next step in words, and its pages. */
export function alertEscalationView(escalation: StoredEscalation | undefined, pages: readonly StoredPage[], scheduleExists: (id: string) => boolean): AlertEscalationView {
  if (!escalation) {
    return { state: 'none', run: 0, started_at: null, ended_at: null, ended_reason: null, rules: [], repeat: 0, loop_minutes: 0, next_step: null, pages: [] };
  }
  const { policy, nextStep } = escalation;
  return {
    state: escalation.state,
    run: escalation.run,
    started_at: iso(escalation.startedAt),
    ended_at: iso(escalation.endedAt),
    ended_reason: escalation.endedReason,
    rules: ruleViews(policy, scheduleExists, urlOrigin),
    repeat: policy.repeat,
    loop_minutes: loopMinutes(policy),
    next_step:
      nextStep === null || escalation.nextDueAt === null
        ? null
        : { ...stepNumbers(nextStep), due_at: new Date(escalation.nextDueAt).toISOString(), description: describeRule(policy.rules[nextStep.rule], scheduleExists, urlOrigin) },
    pages: pages.map(pageView),
  };
}
