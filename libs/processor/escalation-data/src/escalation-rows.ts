import { ContactMethodType, EscalationCondition, PageKind, PageMethod, PageStatus } from '@alert-ingestion/contracts';
import { ContactMethod, EscalationPolicy, NotificationRule, PolicyRule, PolicyTarget, StoredEscalation, StoredEscalationState, StoredPage } from '@alert-ingestion/escalation-domain';

// The rows of the escalation tables and how they read as the domain's stored shapes. bigint columns
// arrive as decimal strings, timestamptz as Date, jsonb parsed.

/** A policy's rules as stored in jsonb (snake_case, ids as decimal strings). */
type StoredRule = {
  after_minutes: number;
  condition: EscalationCondition;
  targets: Array<{ type: 'schedule'; schedule_id: string; name: string } | { type: 'user'; user_id: string; username: string } | { type: 'webhook'; url: string }>;
};

export function rulesJson(rules: readonly PolicyRule[]): StoredRule[] {
  return rules.map((rule) => ({
    after_minutes: rule.afterMinutes,
    condition: rule.condition,
    targets: rule.targets.map((target) => {
      switch (target.type) {
        case 'schedule':
          return { type: 'schedule' as const, schedule_id: target.scheduleId, name: target.name };
        case 'user':
          return { type: 'user' as const, user_id: target.userId, username: target.username };
        case 'webhook':
          return { type: 'webhook' as const, url: target.url };
      }
    }),
  }));
}

export function rulesOf(stored: readonly StoredRule[]): PolicyRule[] {
  return stored.map((rule) => ({
    afterMinutes: rule.after_minutes,
    condition: rule.condition,
    targets: rule.targets.map((target): PolicyTarget => {
      switch (target.type) {
        case 'schedule':
          return { type: 'schedule', scheduleId: String(target.schedule_id), name: target.name };
        case 'user':
          return { type: 'user', userId: String(target.user_id), username: target.username };
        case 'webhook':
          return { type: 'webhook', url: target.url };
      }
    }),
  }));
}

/** A policy as stored: `{rules, repeat}` (a run's snapshot), the same as a project's policy row. */
export function policyJson(policy: EscalationPolicy): string {
  return JSON.stringify({ rules: rulesJson(policy.rules), repeat: policy.repeat });
}

export function policyOf(stored: { rules: StoredRule[]; repeat: number }): EscalationPolicy {
  return { rules: rulesOf(stored.rules), repeat: stored.repeat };
}

export const ESCALATION_COLUMNS = `e.id::text AS id, e.project_id::text AS project_id, e.alert_id::text AS alert_id, a.iid AS alert_iid, e.run, e.started_at,
  e.started_by_event, e.policy, e.state, e.next_loop, e.next_rule, e.next_due_at, e.ended_at, e.ended_reason`;

export interface EscalationRow {
  id: string;
  project_id: string;
  alert_id: string;
  alert_iid: number;
  run: number;
  started_at: Date;
  started_by_event: string;
  policy: { rules: StoredRule[]; repeat: number };
  state: StoredEscalationState;
  next_loop: number | null;
  next_rule: number | null;
  next_due_at: Date | null;
  ended_at: Date | null;
  ended_reason: string | null;
}

export function storedEscalation(row: EscalationRow): StoredEscalation {
  return {
    id: row.id,
    projectId: row.project_id,
    alertId: row.alert_id,
    alertIid: row.alert_iid,
    run: row.run,
    startedAt: row.started_at.getTime(),
    startedByEvent: row.started_by_event,
    policy: policyOf(row.policy),
    state: row.state,
    nextStep: row.next_loop === null || row.next_rule === null ? null : { loop: row.next_loop, rule: row.next_rule },
    nextDueAt: row.next_due_at?.getTime() ?? null,
    endedAt: row.ended_at?.getTime() ?? null,
    endedReason: row.ended_reason,
  };
}

export const PAGE_COLUMNS = `p.id::text AS id, p.escalation_id::text AS escalation_id, p.project_id::text AS project_id, p.alert_id::text AS alert_id, p.kind, p.loop, p.rule,
  p.condition, p.method, p.user_id::text AS user_id, p.username, p.address, p.contact_method_id::text AS contact_method_id, p.notice_of, p.notice_by,
  p.idempotency_key, p.status, p.attempts, p.due_at, p.error, p.sent_at`;

export interface PageRow {
  id: string;
  escalation_id: string;
  project_id: string;
  alert_id: string;
  kind: PageKind;
  loop: number;
  rule: number | null;
  condition: EscalationCondition | null;
  method: PageMethod;
  user_id: string | null;
  username: string | null;
  address: string;
  contact_method_id: string | null;
  notice_of: 'acknowledged' | 'resolved' | null;
  notice_by: string | null;
  idempotency_key: string;
  status: PageStatus;
  attempts: number;
  due_at: Date;
  error: string | null;
  sent_at: Date | null;
}

export function storedPage(row: PageRow): StoredPage {
  return {
    id: row.id,
    escalationId: row.escalation_id,
    projectId: row.project_id,
    alertId: row.alert_id,
    kind: row.kind,
    loop: row.loop,
    rule: row.rule,
    condition: row.condition,
    method: row.method,
    userId: row.user_id,
    username: row.username,
    address: row.address,
    contactMethodId: row.contact_method_id,
    dueAt: row.due_at.getTime(),
    notice: row.notice_of === null ? null : { of: row.notice_of, by: row.notice_by ?? '' },
    idempotencyKey: row.idempotency_key,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    sentAt: row.sent_at?.getTime() ?? null,
  };
}

export const CONTACT_METHOD_COLUMNS = `m.id::text AS id, m.user_id::text AS user_id, m.type, m.name, m.address, m.created_at`;

export interface ContactMethodRow {
  id: string;
  user_id: string;
  type: ContactMethodType;
  name: string;
  address: string;
  created_at: Date;
}

export function contactMethod(row: ContactMethodRow): ContactMethod {
  return { id: row.id, userId: row.user_id, type: row.type, name: row.name, address: row.address };
}

export const NOTIFICATION_RULE_COLUMNS = `r.id::text AS id, r.user_id::text AS user_id, r.contact_method_id::text AS contact_method_id, r.after_minutes, r.created_at`;

export interface NotificationRuleRow {
  id: string;
  user_id: string;
  contact_method_id: string;
  after_minutes: number;
  created_at: Date;
}

export function notificationRule(row: NotificationRuleRow): NotificationRule {
  return { id: row.id, contactMethodId: row.contact_method_id, afterMinutes: row.after_minutes };
}
