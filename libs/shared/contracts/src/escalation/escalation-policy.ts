import { OncallUser } from '../oncall';

// Escalation policies (docs/api-guide.md "Escalation policies"): the API's shapes, shared by the
// processor, the alerts proxy and the console. A policy is ordered rules, each "after N minutes, if
// the alert is not acknowledged (or not resolved), page these targets", run again `repeat` times.

/** When a rule pages: while the alert is triggered (`not_acknowledged`), or while it is not resolved (`not_resolved`). */
export const ESCALATION_CONDITIONS = ['not_acknowledged', 'not_resolved'] as const;
export type EscalationCondition = (typeof ESCALATION_CONDITIONS)[number];

/** Whom a rule pages: whoever is on call in a schedule, a project member, or a webhook URL. */
export const ESCALATION_TARGET_TYPES = ['schedule', 'user', 'webhook'] as const;
export type EscalationTargetType = (typeof ESCALATION_TARGET_TYPES)[number];

/** A target as the API shows it: the fields of its type set, the others null. */
export interface EscalationTargetView {
  type: EscalationTargetType;
  schedule_id: number | null;
  /** The schedule's name; null when it has been deleted since (the rule then pages nobody for it). */
  schedule_name: string | null;
  user_id: number | null;
  username: string | null;
  url: string | null;
}

export interface EscalationRuleView {
  /** Minutes after the alert was triggered (in every loop: after the loop began). */
  after_minutes: number;
  condition: EscalationCondition;
  targets: EscalationTargetView[];
  /** The rule in words: "after 5 min, if not acknowledged, page whoever is on call in Primary". */
  description: string;
}

/** The secret a webhook target's pages are signed with: shown once, in the answer that first names its URL (or resets it). */
export interface WebhookSecretView {
  url: string;
  secret: string;
}

/** `GET/PUT /projects/:id/escalation_policy`. */
export interface EscalationPolicyView {
  rules: EscalationRuleView[];
  /** How many times the rules run again after the first loop (0 to 9). */
  repeat: number;
  /** How long one loop lasts: the last rule's minutes plus a pause, and never less than the pause, so repeats never spin. */
  loop_minutes: number;
  /** Null while the project has no policy. */
  created_at: string | null;
  updated_at: string | null;
  /** Members the policy can page (its users, and everyone in its schedules' rotations and overrides) who have no contact method: they would be paged in vain. */
  unreachable_users: OncallUser[];
  /** New webhook secrets (the answer of a change that first names a URL); empty otherwise. */
  webhook_secrets: WebhookSecretView[];
}
