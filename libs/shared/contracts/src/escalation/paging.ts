import type { HttpSchemas } from '../http';

// Paging (docs/api-guide.md "Paging"): each user's contact methods and notification rules, and an
// alert's escalation as the API shows it.

/** How a user is paged: an email (through the service's SMTP server) or a signed webhook. */
export const CONTACT_METHOD_TYPES = ['email', 'webhook'] as const;
export type ContactMethodType = (typeof CONTACT_METHOD_TYPES)[number];

/** `GET/POST /user/contact_methods`. */
export type ContactMethodView = HttpSchemas['ContactMethodDto'];

/** A notification rule: page by this contact method this many minutes after the page (0: at once). */
export type NotificationRuleView = HttpSchemas['NotificationRuleDto'];

/** `GET/PUT /user/paging_settings`. */
export type PagingSettingsView = HttpSchemas['PagingSettingsDto'];

/** The outcome of `POST /user/contact_methods/:id/test`: the test page went, or why not. */
export type TestPageView = HttpSchemas['TestPageDto'];

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

export type EscalationPageView = HttpSchemas['EscalationPageDto'];

/** The next step of a running escalation. */
export type EscalationStepView = HttpSchemas['EscalationStepDto'];

/** `GET /projects/:id/alerts/:iid/escalation`. */
export type AlertEscalationView = HttpSchemas['AlertEscalationDto'];
