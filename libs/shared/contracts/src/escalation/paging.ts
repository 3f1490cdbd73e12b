import { OncallUser } from '../oncall';
import { EscalationRuleView } from './escalation-policy';

// Paging (docs/api-guide.md "Paging"): each user's contact methods and notification rules, and an
// alert's escalation as the API shows it.

/** How a user is paged: an email (through the service's SMTP server) or a signed webhook. */
export const CONTACT_METHOD_TYPES = ['email', 'webhook'] as const;
export type ContactMethodType = (typeof CONTACT_METHOD_TYPES)[number];

/** `GET/POST /user/contact_methods`. */
export interface ContactMethodView {
  id: number;
  type: ContactMethodType;
  /** The user's name for it ("Work email", "Phone bridge"). */
  name: string;
  /** The email address, or the webhook's URL. */
  address: string;
  /** A webhook's signing secret: in the answer that creates it only, null afterwards. */
  secret: string | null;
  created_at: string;
}

/** A notification rule: page by this contact method this many minutes after the page (0: at once). */
export interface NotificationRuleView {
  id: number;
  contact_method_id: number;
  after_minutes: number;
  created_at: string;
}

/** `GET/PUT /user/paging_settings`. */
export interface PagingSettingsView {
  /** A notice, by every contact method that paged them, when an alert they were paged for is acknowledged or resolved, and by whom. */
  status_notices: boolean;
}

/** The outcome of `POST /user/contact_methods/:id/test`: the test page went, or why not. */
export interface TestPageView {
  sent: boolean;
  error: string | null;
}

/** Where an alert's escalation stands. `none`: no policy when it was triggered; `skipped`: a silence covered it, nobody is paged. */
export const ESCALATION_STATES = ['none', 'skipped', 'running', 'acknowledged', 'ended'] as const;
export type EscalationState = (typeof ESCALATION_STATES)[number];

/** A page (a rule reaching someone) or a notice (of an acknowledgement or resolution, to those paged). */
export const PAGE_KINDS = ['page', 'notice'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

export const PAGE_METHODS = ['email', 'webhook'] as const;
export type PageMethod = (typeof PAGE_METHODS)[number];

/** `pending`: waiting for its notification rule's minutes, being sent or retried; `cancelled`: the alert was acknowledged or resolved before it went. */
export const PAGE_STATUSES = ['pending', 'sent', 'failed', 'cancelled'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

export interface EscalationPageView {
  id: number;
  kind: PageKind;
  /** The loop (from 1) and the rule (from 1) that paged; the rule is null for a notice. */
  loop: number;
  rule: number | null;
  method: PageMethod;
  /** The member paged; null for a rule's webhook target. */
  user: OncallUser | null;
  /** The email address or webhook URL. */
  address: string;
  status: PageStatus;
  attempts: number;
  /** The last refusal (SMTP answer, HTTP status, timeout) while retried and once failed, or why it was cancelled. */
  error: string | null;
  /** When it is (or was) due. */
  due_at: string;
  sent_at: string | null;
}

/** The next step of a running escalation. */
export interface EscalationStepView {
  loop: number;
  rule: number;
  due_at: string;
  description: string;
}

/** `GET /projects/:id/alerts/:iid/escalation`. */
export interface AlertEscalationView {
  state: EscalationState;
  /** How many times the escalation started over (re-triggered after resolution): 1 for the first. */
  run: number;
  started_at: string | null;
  ended_at: string | null;
  /** Why it ended or stopped paging (`acknowledged`, `resolved`, `ignored`, `completed`, `retriggered`), or the silence that skipped it. */
  ended_reason: string | null;
  /** The policy as it was when the escalation started (editing the policy changes no running escalation). */
  rules: EscalationRuleView[];
  repeat: number;
  loop_minutes: number;
  next_step: EscalationStepView | null;
  /** Every page and notice of the current run, oldest first. */
  pages: EscalationPageView[];
}
