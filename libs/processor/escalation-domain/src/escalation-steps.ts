import { AlertStatus, EscalationCondition } from '@alert-ingestion/contracts';
import { EscalationPolicy, loopMinutes } from './escalation-policy';

// The steps of an escalation: loop by loop, rule by rule, each due at the minutes of its rule after
// its loop began (the first loop begins when the alert was triggered). Pure.

/** A rule of a loop (both from 0). */
export interface StepRef {
  loop: number;
  rule: number;
}

/** How an escalation's minutes are counted: a minute is this many milliseconds (60,000; tests shorten it). */
export interface EscalationClock {
  minuteMs: number;
}

/** When a step is due: its loop's start plus its rule's minutes. */
export function stepDueAt(policy: EscalationPolicy, startedAt: number, step: StepRef, clock: EscalationClock): number {
  return startedAt + (step.loop * loopMinutes(policy) + policy.rules[step.rule].afterMinutes) * clock.minuteMs;
}

/** The step after `step`: the next rule, or the first rule of the next loop; null after the last rule of the last loop. */
export function stepAfter(policy: EscalationPolicy, step: StepRef): StepRef | null {
  if (step.rule + 1 < policy.rules.length) return { loop: step.loop, rule: step.rule + 1 };
  return step.loop < policy.repeat ? { loop: step.loop + 1, rule: 0 } : null;
}

/** Whether a rule of this condition still pages an alert in this status: "not acknowledged" while triggered, "not resolved" while triggered or acknowledged. */
export function conditionHolds(condition: EscalationCondition, status: AlertStatus): boolean {
  return status === 'triggered' || (condition === 'not_resolved' && status === 'acknowledged');
}

/** The first step at or after `from` whose rule can still page an alert in `status` (acknowledged: only "not resolved" rules); null: none. */
export function nextPagingStep(policy: EscalationPolicy, from: StepRef | null, status: AlertStatus): StepRef | null {
  for (let step = from; step !== null; step = stepAfter(policy, step)) {
    if (conditionHolds(policy.rules[step.rule].condition, status)) return step;
  }
  return null;
}

/** A step as people count it (from 1): "loop 2, rule 1". */
export function stepNumbers(step: StepRef): { loop: number; rule: number } {
  return { loop: step.loop + 1, rule: step.rule + 1 };
}
