import type { HttpSchemas } from '../http';

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
export type EscalationTargetView = HttpSchemas['EscalationTargetDto'];

export type EscalationRuleView = HttpSchemas['EscalationRuleDto'];

/** The secret a webhook target's pages are signed with: shown once, in the answer that first names its URL (or resets it). */
export type WebhookSecretView = HttpSchemas['WebhookSecretDto'];

/** `GET/PUT /projects/:id/escalation_policy`. */
export type EscalationPolicyView = HttpSchemas['EscalationPolicyDto'];
