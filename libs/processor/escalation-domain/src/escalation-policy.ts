import { CommandPlan, CommandRefusal, refusal, refuse, unchanged } from '@alert-ingestion/alerts-domain';
import { ESCALATION_CONDITIONS, ESCALATION_TARGET_TYPES, EscalationCondition, EscalationRuleView, EscalationTargetView } from '@alert-ingestion/contracts';

// An escalation policy (docs/api-guide.md "Escalation policies"), as GitLab's: ordered rules "after
// N minutes since the alert was triggered, if it is not acknowledged (or not resolved), page these
// targets", and, as GoAlert's and PagerDuty's, a repeat count. Pure: checked here, stored by the data
// layer, run by the engine (escalation-steps.ts).

/** The most rules a policy holds. */
export const MAX_RULES = 10;
/** The most targets a rule pages. */
export const MAX_TARGETS = 10;
/** The latest a rule may page: a day after the alert was triggered (or its loop began). */
export const MAX_AFTER_MINUTES = 1440;
/** The most times the rules run again after the first loop. */
export const MAX_REPEAT = 9;
/**
 * After a loop's last rule the policy waits this long before it starts again: a loop lasts its last
 * rule's minutes plus this, so even a policy whose every rule is at 0 minutes repeats at most every
 * five minutes and can never spin.
 */
export const LOOP_PAUSE_MINUTES = 5;
/** The longest webhook URL. */
export const MAX_URL_LENGTH = 2048;

/** Whom a rule pages: a schedule's on-call, a member, a webhook. Names are as they were when read (a snapshot keeps them). */
export type PolicyTarget =
  | { type: 'schedule'; scheduleId: string; name: string }
  | { type: 'user'; userId: string; username: string }
  | { type: 'webhook'; url: string };

export interface PolicyRule {
  afterMinutes: number;
  condition: EscalationCondition;
  targets: PolicyTarget[];
}

export interface EscalationPolicy {
  rules: PolicyRule[];
  repeat: number;
}

/** A policy as the API asks for it, not yet checked. */
export interface PolicyRequest {
  rules: ReadonlyArray<{ after_minutes: unknown; condition: unknown; targets: ReadonlyArray<TargetRequest> }>;
  repeat?: unknown;
}

export interface TargetRequest {
  type: unknown;
  schedule_id?: unknown;
  user_id?: unknown;
  url?: unknown;
}

/** What a policy may name: the project's schedules (id to name) and members (id to username). */
export interface PolicyDirectory {
  schedules: ReadonlyMap<string, string>;
  members: ReadonlyMap<string, string>;
}

/** A whole number from `min` to `max`, or undefined. */
export function wholeNumber(value: unknown, min: number, max: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

/** A reference to a schedule or a user as a request gives it: an id (a number or its text), or a name where the directory is keyed by names. */
function refOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Why a webhook URL cannot be paged, or null: an http(s) URL without credentials (a secret signs the
 * pages instead), at most MAX_URL_LENGTH long. Private addresses are refused when a page is sent,
 * once the name is resolved, unless the operator allows them.
 */
export function webhookUrlProblem(url: unknown): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH) return `must be an http:// or https:// URL of at most ${MAX_URL_LENGTH} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http:// or https:// URL.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http:// or https:// URL.';
  if (parsed.username !== '' || parsed.password !== '') return 'must not hold credentials: pages are signed with the secret shown when the URL is first saved.';
  return null;
}

/** A problem of a request, at its field (`rules[1].targets[0].schedule_id`). */
export interface PolicyProblem {
  field: string;
  message: string;
}

function checkTarget(target: TargetRequest, directory: PolicyDirectory, field: string): { target: PolicyTarget } | PolicyProblem {
  switch (target.type) {
    case 'schedule': {
      const ref = refOf(target.schedule_id);
      const name = ref === undefined ? undefined : directory.schedules.get(ref);
      if (ref === undefined || name === undefined) return { field: `${field}.schedule_id`, message: `The project has no on-call schedule ${String(target.schedule_id)}.` };
      return { target: { type: 'schedule', scheduleId: ref, name } };
    }
    case 'user': {
      const ref = refOf(target.user_id);
      const username = ref === undefined ? undefined : directory.members.get(ref);
      if (ref === undefined || username === undefined) return { field: `${field}.user_id`, message: `User ${String(target.user_id)} is not a member of the project.` };
      return { target: { type: 'user', userId: ref, username } };
    }
    case 'webhook': {
      const problem = webhookUrlProblem(target.url);
      if (problem) return { field: `${field}.url`, message: `url ${problem}` };
      return { target: { type: 'webhook', url: new URL(target.url as string).toString() } };
    }
    default:
      return { field: `${field}.type`, message: `type must be one of ${ESCALATION_TARGET_TYPES.join(', ')}.` };
  }
}

/** The same target (a schedule, a user or a URL named twice in one rule). */
export function targetKey(target: PolicyTarget): string {
  switch (target.type) {
    case 'schedule':
      return `schedule:${target.scheduleId}`;
    case 'user':
      return `user:${target.userId}`;
    case 'webhook':
      return `webhook:${target.url}`;
  }
}

/**
 * Every problem of a policy request against the project's schedules and members (the directory's
 * keys are what the request names them by: ids through the API, names in the on-call setup
 * document): 1 to MAX_RULES rules in the order they page (each at least as late as the one before),
 * each with a condition and 1 to MAX_TARGETS distinct targets, and a repeat count of 0 to MAX_REPEAT
 * (0 when absent). The policy when there is none.
 */
export function policyProblems(request: PolicyRequest, directory: PolicyDirectory): { policy: EscalationPolicy } | { problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const repeat = request.repeat === undefined ? 0 : wholeNumber(request.repeat, 0, MAX_REPEAT);
  if (repeat === undefined) problems.push({ field: 'repeat', message: `repeat must be a whole number from 0 to ${MAX_REPEAT}.` });
  if (!Array.isArray(request.rules) || request.rules.length === 0 || request.rules.length > MAX_RULES) {
    return { problems: [{ field: 'rules', message: `rules must hold 1 to ${MAX_RULES} rules.` }, ...problems] };
  }
  const rules: PolicyRule[] = [];
  let latest = 0;
  for (const [index, rule] of request.rules.entries()) {
    const field = `rules[${index}]`;
    const afterMinutes = wholeNumber(rule.after_minutes, 0, MAX_AFTER_MINUTES);
    if (afterMinutes === undefined) problems.push({ field: `${field}.after_minutes`, message: `after_minutes must be a whole number of minutes from 0 to ${MAX_AFTER_MINUTES}.` });
    else if (afterMinutes < latest) problems.push({ field: `${field}.after_minutes`, message: `Rules page in order: after_minutes must be at least the rule before's (${latest}).` });
    else latest = afterMinutes;
    if (!ESCALATION_CONDITIONS.includes(rule.condition as EscalationCondition)) problems.push({ field: `${field}.condition`, message: `condition must be one of ${ESCALATION_CONDITIONS.join(', ')}.` });
    const targets: PolicyTarget[] = [];
    if (!Array.isArray(rule.targets) || rule.targets.length === 0 || rule.targets.length > MAX_TARGETS) {
      problems.push({ field: `${field}.targets`, message: `targets must hold 1 to ${MAX_TARGETS} targets.` });
    } else {
      for (const [targetIndex, requested] of rule.targets.entries()) {
        const checked = checkTarget(requested, directory, `${field}.targets[${targetIndex}]`);
        if (!('target' in checked)) problems.push(checked);
        else if (targets.some((target) => targetKey(target) === targetKey(checked.target))) problems.push({ field: `${field}.targets[${targetIndex}]`, message: 'A rule names each target once.' });
        else targets.push(checked.target);
      }
    }
    rules.push({ afterMinutes: afterMinutes ?? 0, condition: rule.condition as EscalationCondition, targets });
  }
  return problems.length > 0 ? { problems } : { policy: { rules, repeat: repeat ?? 0 } };
}

/** A policy request checked as the API takes it: the policy, or its first problem refused with its field. */
export function checkPolicy(request: PolicyRequest, directory: PolicyDirectory): { policy: EscalationPolicy } | { refused: CommandRefusal } {
  const checked = policyProblems(request, directory);
  if ('policy' in checked) return checked;
  const [first] = checked.problems;
  return refuse('invalid', 'validation_failed', first.message, first.field);
}

/** How long one loop of the policy lasts, in minutes: its last rule's minutes plus LOOP_PAUSE_MINUTES. */
export function loopMinutes(policy: EscalationPolicy): number {
  return Math.max(0, ...policy.rules.map((rule) => rule.afterMinutes)) + LOOP_PAUSE_MINUTES;
}

/** Every schedule the policy pages through. */
export function policyScheduleIds(policy: EscalationPolicy): string[] {
  return [...new Set(policy.rules.flatMap((rule) => rule.targets.flatMap((target) => (target.type === 'schedule' ? [target.scheduleId] : []))))];
}

/** Every webhook URL the policy pages. */
export function policyWebhookUrls(policy: EscalationPolicy): string[] {
  return [...new Set(policy.rules.flatMap((rule) => rule.targets.flatMap((target) => (target.type === 'webhook' ? [target.url] : []))))];
}

/** The policy with its targets' names as they are now (`directory`); a deleted schedule keeps the name it had. */
export function withCurrentNames(policy: EscalationPolicy, directory: PolicyDirectory): EscalationPolicy {
  return {
    ...policy,
    rules: policy.rules.map((rule) => ({
      ...rule,
      targets: rule.targets.map((target) => {
        if (target.type === 'schedule') return { ...target, name: directory.schedules.get(target.scheduleId) ?? target.name };
        if (target.type === 'user') return { ...target, username: directory.members.get(target.userId) ?? target.username };
        return target;
      }),
    })),
  };
}

const CONDITION_WORDS: Record<EscalationCondition, string> = { not_acknowledged: 'if not acknowledged', not_resolved: 'if not resolved' };

/** How a view shows a webhook URL: whole (maintainers), or as its origin (its path may hold a token). */
export type UrlShown = (url: string) => string;

/** A URL as its origin only, with an ellipsis where its path was: `https://hooks.example.com/…`. */
export const urlOrigin: UrlShown = (url) => {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && parsed.search === '' ? `${parsed.origin}/` : `${parsed.origin}/…`;
  } catch {
    return '…';
  }
};

function targetWords(target: PolicyTarget, scheduleExists: (id: string) => boolean, shown: UrlShown): string {
  switch (target.type) {
    case 'schedule':
      return scheduleExists(target.scheduleId) ? `whoever is on call in ${target.name}` : `whoever is on call in ${target.name} (deleted)`;
    case 'user':
      return `@${target.username}`;
    case 'webhook':
      return `the webhook ${shown(target.url)}`;
  }
}

/** A list in words: `a`, `a and b`, `a, b and c`. */
function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** A rule in words, as the console previews it: "after 5 min, if not acknowledged, page whoever is on call in Primary". */
export function describeRule(rule: PolicyRule, scheduleExists: (id: string) => boolean = () => true, shown: UrlShown = (url) => url): string {
  const when = rule.afterMinutes === 0 ? 'at once' : `after ${rule.afterMinutes} min`;
  return `${when}, ${CONDITION_WORDS[rule.condition]}, page ${listed(rule.targets.map((target) => targetWords(target, scheduleExists, shown)))}`;
}

/** A target as the API shows it. */
export function targetView(target: PolicyTarget, scheduleExists: (id: string) => boolean, shown: UrlShown = (url) => url): EscalationTargetView {
  const none = { schedule_id: null, schedule_name: null, user_id: null, username: null, url: null };
  switch (target.type) {
    case 'schedule':
      return { ...none, type: 'schedule', schedule_id: Number(target.scheduleId), schedule_name: scheduleExists(target.scheduleId) ? target.name : null };
    case 'user':
      return { ...none, type: 'user', user_id: Number(target.userId), username: target.username };
    case 'webhook':
      return { ...none, type: 'webhook', url: shown(target.url) };
  }
}

/** The policy's rules as the API shows them, each with its description. */
export function ruleViews(policy: EscalationPolicy, scheduleExists: (id: string) => boolean = () => true, shown: UrlShown = (url) => url): EscalationRuleView[] {
  return policy.rules.map((rule) => ({
    after_minutes: rule.afterMinutes,
    condition: rule.condition,
    targets: rule.targets.map((target) => targetView(target, scheduleExists, shown)),
    description: describeRule(rule, scheduleExists, shown),
  }));
}

/** A project's policy as stored. */
export interface StoredPolicy {
  policy: EscalationPolicy;
  createdAt: number;
  updatedAt: number;
}

/** What an edit of a project's policy is decided on (read with the project's policy locked). */
export interface PolicyState {
  stored: StoredPolicy | undefined;
  directory: PolicyDirectory;
  /** The webhook URLs that have a secret already. */
  knownUrls: ReadonlySet<string>;
}

export type PolicyEdit =
  /** `secrets`: fresh secrets, one for each webhook URL the request may name for the first time, made by the caller. */
  | { kind: 'put'; request: PolicyRequest; secrets: readonly string[] }
  | { kind: 'delete' }
  | { kind: 'reset_secret'; url: string; secret: string };

export interface PolicyChanges {
  /** The new policy; null: deleted; undefined: as it was. */
  policy?: EscalationPolicy | null;
  /** Secrets of webhook URLs: new ones, or a reset one (shown once). */
  secrets: Array<{ url: string; secret: string }>;
}

export function policyNotFound(): CommandRefusal {
  return refusal('not_found', 'escalation_policy_not_found', 'The project has no escalation policy.');
}

/** Whether two policies page alike (the same rules, targets by id, and repeat; names aside). */
export function samePolicy(a: EscalationPolicy, b: EscalationPolicy): boolean {
  const shape = (policy: EscalationPolicy) =>
    JSON.stringify([policy.repeat, policy.rules.map((rule) => [rule.afterMinutes, rule.condition, rule.targets.map(targetKey)])]);
  return shape(a) === shape(b);
}

/**
 * Decides an edit of a project's policy: a new policy replaces the old (runs under way keep the one
 * they started with), each webhook URL it names for the first time gets a secret (shown once), and
 * the same policy again changes nothing; deleting stops new escalations; a URL's secret is reset
 * only while the policy names it.
 */
export function planPolicyEdit(state: PolicyState, edit: PolicyEdit): CommandPlan<PolicyChanges> {
  switch (edit.kind) {
    case 'put': {
      const checked = checkPolicy(edit.request, state.directory);
      if ('refused' in checked) return checked;
      const fresh = policyWebhookUrls(checked.policy).filter((url) => !state.knownUrls.has(url));
      const secrets = fresh.map((url, index) => ({ url, secret: edit.secrets[index] }));
      if (secrets.some((secret) => secret.secret === undefined)) throw new Error('planPolicyEdit needs a fresh secret for each webhook URL of the request');
      if (state.stored && samePolicy(state.stored.policy, checked.policy) && secrets.length === 0) return unchanged();
      return { changes: { policy: checked.policy, secrets }, events: [] };
    }
    case 'delete':
      if (!state.stored) return { refused: policyNotFound() };
      return { changes: { policy: null, secrets: [] }, events: [] };
    case 'reset_secret': {
      if (!state.stored) return { refused: policyNotFound() };
      const url = webhookUrlProblem(edit.url) === null ? new URL(edit.url).toString() : edit.url;
      if (!policyWebhookUrls(state.stored.policy).includes(url)) return refuse('invalid', 'validation_failed', 'The escalation policy pages no such webhook URL.', 'url');
      return { changes: { secrets: [{ url, secret: edit.secret }] }, events: [] };
    }
  }
}
