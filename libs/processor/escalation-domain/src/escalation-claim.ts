import { AcceptedCommand, ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { PageMethod } from '@alert-ingestion/contracts';
import { onCallAt, Participant, ScheduleTimeline } from '@alert-ingestion/oncall-domain';
import { PolicyRule } from './escalation-policy';
import { EscalationUpdate } from './escalation-events';
import { conditionHolds, EscalationClock, nextPagingStep, StepRef, stepAfter, stepDueAt, stepNumbers } from './escalation-steps';
import { NewPage, PagedAlert, pageIdempotencyKey, StoredEscalation, StoredPage, UserPaging } from './stored-escalation';
import { userPageMethods } from './contact-methods';

// The engine's claim (one command, committed before any page is sent): the steps that are due are
// taken (each rule of each loop once, whoever takes it), turned into pages, and the pages due by now
// are leased to this claim; all decided on the alerts' rows locked FOR UPDATE, so an
// acknowledgement committed before the claim always wins. Pure.

/** A schedule a due rule pages through, as the on-call rooms read it. */
export interface ClaimedSchedule {
  name: string;
  timeline: ScheduleTimeline;
}

/** What a claim is decided on, read and locked by the data layer. */
export interface EngineClaimState {
  /** The database's clock, read under the locks. */
  now: number;
  /** Runs whose next step is due, each with its alert (locked). */
  due: ReadonlyArray<{ escalation: StoredEscalation; alert: PagedAlert }>;
  /** Pending pages that are due (their notification rule's minutes have passed, a retry's wait, or a lease that ran out), each with its alert (locked). */
  pages: ReadonlyArray<{ page: StoredPage; alert: PagedAlert }>;
  /** The schedules the due rules name that still exist. */
  schedules: ReadonlyMap<string, ClaimedSchedule>;
  /** Each project's members (user ids): only members are on call and paged. */
  members: ReadonlyMap<string, ReadonlySet<string>>;
  /** The contact methods and notification rules of the members who may be paged; a user missing has none. */
  paging: ReadonlyMap<string, UserPaging>;
}

export interface EngineSettings {
  clock: EscalationClock;
  /** Whether the service can send email (SMTP_URL): without it, email contact methods reach nobody. */
  emailConfigured: boolean;
}

/** A step the claim took, for the metrics: when it was due. */
export interface TakenStep {
  escalationId: string;
  step: StepRef;
  dueAt: number;
}

export interface ClaimChanges {
  escalations: EscalationUpdate[];
  /** Pages to write; those due by `now` are leased to the claim as they are written. */
  pages: NewPage[];
  /** Stored pages the claim leases. */
  claimed: string[];
  /** Stored pages that no longer go (the alert was acknowledged or resolved since), with why. */
  cancelled: Array<{ id: string; error: string }>;
  steps: TakenStep[];
}

/** Why a target of a rule reached nobody, as `page_skipped` records it. */
export type PageSkip = 'nobody_on_call' | 'schedule_deleted' | 'not_a_member' | 'no_contact_method' | 'email_not_configured';

/**
 * Plans a claim: every due step of every run, in order, as long as its alert still meets its
 * rule's condition (otherwise the run goes on with the next step that can still page it); each
 * step pages its targets as they are now (who is on call, each member's notification rules), every
 * member once per rule and loop, records on the alert's timeline each target that reached nobody,
 * and, when the rule reached nobody at all, takes the loop's next rule at once. A run whose last
 * step is taken ends (`completed`). Stored pages that are due go, unless their rule's condition no
 * longer holds (cancelled); a notice always goes.
 */
export function planEngineClaim(state: EngineClaimState, settings: EngineSettings): AcceptedCommand<ClaimChanges> {
  const changes: ClaimChanges = { escalations: [], pages: [], claimed: [], cancelled: [], steps: [] };
  const activity: ActivityEntryOut[] = [];
  const now = state.now;
  for (const { escalation, alert } of state.due) {
    let step = escalation.nextStep;
    let dueAt = escalation.nextDueAt;
    // Every step taken, the last included: the run is over. (Steps the alert's status rules out
    // leave its end to the alert's event: acknowledged or resolved.)
    let completed = false;
    while (step !== null && dueAt !== null && dueAt <= now) {
      const rule = escalation.policy.rules[step.rule];
      if (!conditionHolds(rule.condition, alert.status)) {
        step = nextPagingStep(escalation.policy, stepAfter(escalation.policy, step), alert.status);
        dueAt = step && stepDueAt(escalation.policy, escalation.startedAt, step, settings.clock);
        continue;
      }
      changes.steps.push({ escalationId: escalation.id, step, dueAt });
      const paged = pageRule(escalation, alert, rule, step, state, settings, activity);
      changes.pages.push(...paged);
      const next = stepAfter(escalation.policy, step);
      // A rule that reached nobody holds nothing up: the loop's next rule is taken at once.
      dueAt = next && (paged.length === 0 && next.loop === step.loop ? now : stepDueAt(escalation.policy, escalation.startedAt, next, settings.clock));
      completed = next === null;
      step = next;
    }
    if (completed) {
      activity.push(entry(escalation, 'escalation_stopped', 'Every rule of every loop has paged: nothing more is paged.', { run: escalation.run, stopped: 'completed' }, now));
    }
    changes.escalations.push({
      id: escalation.id,
      state: completed ? 'ended' : escalation.state,
      nextStep: step,
      nextDueAt: dueAt,
      endedAt: completed ? now : null,
      endedReason: completed ? 'completed' : null,
    });
  }
  for (const { page, alert } of state.pages) {
    if (page.condition !== null && !conditionHolds(page.condition, alert.status)) {
      changes.cancelled.push({ id: page.id, error: `Alert #${alert.iid} was ${alert.status} before the page went.` });
    } else {
      changes.claimed.push(page.id);
    }
  }
  return { changes, events: [], activity };
}

/** The pages of one rule of one loop: each member once, each webhook once; what reached nobody is on the timeline. */
function pageRule(
  escalation: StoredEscalation,
  alert: PagedAlert,
  rule: PolicyRule,
  step: StepRef,
  state: EngineClaimState,
  settings: EngineSettings,
  activity: ActivityEntryOut[],
): NewPage[] {
  const now = state.now;
  const members = state.members.get(escalation.projectId) ?? new Set<string>();
  const numbers = stepNumbers(step);
  const skip = (skipped: PageSkip, reason: string, details: Record<string, string | number | null> = {}) =>
    activity.push(entry(escalation, 'page_skipped', reason, { ...details, skipped, loop: numbers.loop, rule: numbers.rule }, now));
  const users = new Map<string, Participant>();
  const pages: NewPage[] = [];
  const page = (method: PageMethod, address: string, user: Participant | null, contactMethodId: string | null, afterMinutes: number): NewPage => ({
    escalationId: escalation.id,
    projectId: escalation.projectId,
    alertId: alert.id,
    kind: 'page',
    loop: step.loop,
    rule: step.rule,
    condition: rule.condition,
    method,
    userId: user?.userId ?? null,
    username: user?.username ?? null,
    address,
    contactMethodId,
    dueAt: now + afterMinutes * settings.clock.minuteMs,
    notice: null,
    idempotencyKey: pageIdempotencyKey('page', escalation.id, step.loop, step.rule, user?.userId ?? null, contactMethodId ?? address, afterMinutes),
  });
  for (const target of rule.targets) {
    if (target.type === 'webhook') {
      pages.push(page('webhook', target.url, null, null, 0));
    } else if (target.type === 'user') {
      if (members.has(target.userId)) users.set(target.userId, { userId: target.userId, username: target.username });
      else skip('not_a_member', `@${target.username} is no longer a member of the project: not paged.`, { user: target.username });
    } else {
      const schedule = state.schedules.get(target.scheduleId);
      if (!schedule) {
        skip('schedule_deleted', `The schedule ${target.name} has been deleted: nobody paged through it.`, { schedule: target.name });
        continue;
      }
      const onCall = onCallAt(schedule.timeline, now, { now, isMember: (userId) => members.has(userId) });
      if (onCall.length === 0) skip('nobody_on_call', `Nobody is on call in ${schedule.name}.`, { schedule: schedule.name });
      for (const member of onCall) users.set(member.user.userId, member.user);
    }
  }
  for (const user of users.values()) {
    const methods = userPageMethods(state.paging.get(user.userId));
    if (methods.length === 0) {
      skip('no_contact_method', `@${user.username} has no contact method: not notified.`, { user: user.username });
      continue;
    }
    const usable = methods.filter(({ method }) => settings.emailConfigured || method.type !== 'email');
    if (usable.length === 0) skip('email_not_configured', `@${user.username} has only email contact methods and the service sends no email (no SMTP_URL): not notified.`, { user: user.username });
    for (const { method, afterMinutes } of usable) pages.push(page(method.type, method.address, user, method.id, afterMinutes));
  }
  return pages;
}

function entry(escalation: StoredEscalation, kind: ActivityEntryOut['kind'], reason: string, details: ActivityEntryOut['details'], at: number): ActivityEntryOut {
  return { projectId: escalation.projectId, subject: { alertId: escalation.alertId }, kind, actorUserId: null, source: 'escalation', reason, details, at: new Date(at) };
}
