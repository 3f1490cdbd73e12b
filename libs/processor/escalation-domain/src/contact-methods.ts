import { CommandPlan, CommandRefusal, refuse, refusal, unchanged } from '@alert-ingestion/alerts-domain';
import { CONTACT_METHOD_TYPES, ContactMethodType } from '@alert-ingestion/contracts';
import { MAX_AFTER_MINUTES, webhookUrlProblem, wholeNumber } from './escalation-policy';
import { ContactMethod, NotificationRule, UserPaging } from './stored-escalation';

// Each user's contact methods and notification rules (docs/api-guide.md "Paging"), as GoAlert's and
// PagerDuty's: where a page reaches them (an email address, a webhook URL) and how long after the
// page each method is used. Without notification rules, every contact method is used at once. Pure.

export const MAX_CONTACT_METHODS = 10;
export const MAX_NOTIFICATION_RULES = 20;
const NAME_MAX = 100;
const EMAIL_MAX = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The contact methods a page of this user uses and after how many minutes: their notification rules, or (none) every method at once. */
export function userPageMethods(paging: UserPaging | undefined): Array<{ method: ContactMethod; afterMinutes: number }> {
  if (!paging) return [];
  const byId = new Map(paging.methods.map((method) => [method.id, method]));
  if (paging.rules.length === 0) return paging.methods.map((method) => ({ method, afterMinutes: 0 }));
  return [...paging.rules]
    .sort((a, b) => a.afterMinutes - b.afterMinutes || Number(a.id) - Number(b.id))
    .flatMap((rule) => {
      const method = byId.get(rule.contactMethodId);
      return method ? [{ method, afterMinutes: rule.afterMinutes }] : [];
    });
}

/** A user's paging as an edit reads it (locked): their methods, rules and whether they want notices. */
export interface PagingState extends UserPaging {
  statusNotices: boolean;
}

export type PagingEdit =
  /** `secret`: a webhook's signing secret, made by the caller. */
  | { kind: 'create_method'; type: unknown; name: unknown; address: unknown; secret: string }
  | { kind: 'delete_method'; id: string }
  | { kind: 'create_rule'; contactMethodId: unknown; afterMinutes: unknown }
  | { kind: 'delete_rule'; id: string }
  | { kind: 'settings'; statusNotices: boolean };

export interface PagingChanges {
  methodInsert?: Omit<ContactMethod, 'id'> & { secret: string | null };
  methodDelete?: string;
  ruleInsert?: Omit<NotificationRule, 'id'>;
  ruleDelete?: string;
  statusNotices?: boolean;
}

function invalid(message: string, field: string): { refused: CommandRefusal } {
  return refuse('invalid', 'validation_failed', message, field);
}

export function contactMethodNotFound(id: string): CommandRefusal {
  return refusal('not_found', 'contact_method_not_found', `Contact method ${id} not found.`);
}

export function notificationRuleNotFound(id: string): CommandRefusal {
  return refusal('not_found', 'notification_rule_not_found', `Notification rule ${id} not found.`);
}

/** The address of a contact method, checked and as stored (an email address lower-case, a URL normalised), or its problem. */
export function contactAddress(type: ContactMethodType, address: unknown): { address: string } | { problem: string } {
  if (type === 'email') {
    if (typeof address !== 'string' || address.length > EMAIL_MAX || !EMAIL.test(address.trim())) return { problem: 'address must be an email address.' };
    return { address: address.trim().toLowerCase() };
  }
  const problem = webhookUrlProblem(address);
  return problem ? { problem: `address ${problem}` } : { address: new URL(address as string).toString() };
}

/** Decides an edit of a user's paging over their paging as it is. */
export function planPagingEdit(state: PagingState, edit: PagingEdit): CommandPlan<PagingChanges> {
  switch (edit.kind) {
    case 'create_method': {
      if (!CONTACT_METHOD_TYPES.includes(edit.type as ContactMethodType)) return invalid(`type must be one of ${CONTACT_METHOD_TYPES.join(', ')}.`, 'type');
      const type = edit.type as ContactMethodType;
      const name = typeof edit.name === 'string' ? edit.name.trim() : '';
      if (name === '' || name.length > NAME_MAX) return invalid(`name must be 1 to ${NAME_MAX} characters.`, 'name');
      const checked = contactAddress(type, edit.address);
      if ('problem' in checked) return invalid(checked.problem, 'address');
      if (state.methods.length >= MAX_CONTACT_METHODS) return refuse('conflict', 'too_many_contact_methods', `A user has at most ${MAX_CONTACT_METHODS} contact methods.`);
      if (state.methods.some((method) => method.name === name)) return refuse('conflict', 'contact_method_name_taken', `You already have a contact method named ${JSON.stringify(name)}.`, 'name');
      if (state.methods.some((method) => method.type === type && method.address === checked.address)) {
        return refuse('conflict', 'contact_method_exists', `You already have this ${type === 'email' ? 'email address' : 'webhook URL'} as a contact method.`, 'address');
      }
      return { changes: { methodInsert: { userId: state.userId, type, name, address: checked.address, secret: type === 'webhook' ? edit.secret : null } }, events: [] };
    }
    case 'delete_method':
      if (!state.methods.some((method) => method.id === edit.id)) return { refused: contactMethodNotFound(edit.id) };
      return { changes: { methodDelete: edit.id }, events: [] };
    case 'create_rule': {
      const methodId = typeof edit.contactMethodId === 'number' || typeof edit.contactMethodId === 'string' ? String(edit.contactMethodId) : '';
      if (!state.methods.some((method) => method.id === methodId)) return invalid(`You have no contact method ${String(edit.contactMethodId)}.`, 'contact_method_id');
      const afterMinutes = wholeNumber(edit.afterMinutes, 0, MAX_AFTER_MINUTES);
      if (afterMinutes === undefined) return invalid(`after_minutes must be a whole number of minutes from 0 to ${MAX_AFTER_MINUTES}.`, 'after_minutes');
      if (state.rules.some((rule) => rule.contactMethodId === methodId && rule.afterMinutes === afterMinutes)) {
        return refuse('conflict', 'notification_rule_exists', 'You already have this notification rule.', 'after_minutes');
      }
      if (state.rules.length >= MAX_NOTIFICATION_RULES) return refuse('conflict', 'too_many_notification_rules', `A user has at most ${MAX_NOTIFICATION_RULES} notification rules.`);
      return { changes: { ruleInsert: { contactMethodId: methodId, afterMinutes } }, events: [] };
    }
    case 'delete_rule':
      if (!state.rules.some((rule) => rule.id === edit.id)) return { refused: notificationRuleNotFound(edit.id) };
      return { changes: { ruleDelete: edit.id }, events: [] };
    case 'settings':
      return edit.statusNotices === state.statusNotices ? unchanged() : { changes: { statusNotices: edit.statusNotices }, events: [] };
  }
}
