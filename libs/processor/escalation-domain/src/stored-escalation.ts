import { AlertStatus, ContactMethodType, EscalationCondition, PageKind, PageMethod, PageStatus } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { EscalationPolicy } from './escalation-policy';
import { StepRef } from './escalation-steps';

// Escalations and pages as stored: what the data layer reads for a plan, and what a plan writes.

/** `skipped`: a silence covered the alert when it was triggered, so nothing pages. */
export type StoredEscalationState = 'running' | 'acknowledged' | 'ended' | 'skipped';

/** Why an escalation stopped paging: the alert's new status, every loop done, or a new run after a re-trigger. */
export type EscalationEnd = 'acknowledged' | 'resolved' | 'ignored' | 'completed' | 'retriggered';

/** One run of an alert's escalation (a re-trigger after resolution starts the next). */
export interface StoredEscalation {
  id: string;
  projectId: string;
  alertId: string;
  alertIid: number;
  run: number;
  startedAt: number;
  /** The alert event that started the run (a redelivered event starts nothing). */
  startedByEvent: string;
  /** The policy as it was when the run started: editing the policy changes no run. */
  policy: EscalationPolicy;
  state: StoredEscalationState;
  /** The next step to take and when it is due; null once nothing is left to page. */
  nextStep: StepRef | null;
  nextDueAt: number | null;
  endedAt: number | null;
  /** An EscalationEnd, or a skipped run's silence in words. */
  endedReason: string | null;
}

/** A user's contact method. */
export interface ContactMethod {
  id: string;
  userId: string;
  type: ContactMethodType;
  name: string;
  address: string;
}

/** A user's notification rule: page by a contact method this many minutes after the page. */
export interface NotificationRule {
  id: string;
  contactMethodId: string;
  afterMinutes: number;
}

/** How a user is paged: their contact methods and notification rules. */
export interface UserPaging {
  userId: string;
  methods: ContactMethod[];
  rules: NotificationRule[];
}

/** What a notice tells: the alert was acknowledged or resolved, and by whom (in words). */
export interface PageNotice {
  of: 'acknowledged' | 'resolved';
  by: string;
}

/** A page or a notice to write. */
export interface NewPage {
  escalationId: string;
  projectId: string;
  alertId: string;
  kind: PageKind;
  loop: number;
  /** The rule (from 0) that paged; null for a notice. */
  rule: number | null;
  /** The rule's condition: checked again when the page goes (a notice has none). */
  condition: EscalationCondition | null;
  method: PageMethod;
  userId: string | null;
  username: string | null;
  address: string;
  /** The user's contact method it goes by (a webhook's secret is the method's); null for a rule's webhook target. */
  contactMethodId: string | null;
  dueAt: number;
  notice: PageNotice | null;
  /** The same on every attempt of the page: its webhook Idempotency-Key and, in its email's Message-ID. */
  idempotencyKey: string;
}

/** A page as stored. */
export interface StoredPage extends NewPage {
  id: string;
  status: PageStatus;
  attempts: number;
  error: string | null;
  sentAt: number | null;
}

/** An alert as the engine checks it, locked, before a page goes. */
export interface PagedAlert {
  id: string;
  projectId: string;
  iid: number;
  status: AlertStatus;
}

/**
 * The key that names a page on every attempt, the same whichever processor sends it: a digest of
 * what the page is (its escalation run, loop, rule, recipient and method, or the event a notice is
 * about), shaped as a UUID.
 */
export function pageIdempotencyKey(...parts: ReadonlyArray<string | number | null>): string {
  const hex = sha256Hex(parts.map((part) => String(part)).join('\n'));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
