import type { HttpSchemas } from '../http';

// The activity timeline of an alert or an incident, and a project's alert settings: the API's
// shapes (docs/api-guide.md "Alert workflow"), shared by the processor, the alerts proxy and the console.

/** What an activity entry records. */
export const ACTIVITY_KINDS = [
  /** The alert was created by a payload (or a missed heartbeat). */
  'alert_created',
  /** Payloads grouped into the alert: one entry, its count and latest time kept up to date. */
  'events_grouped',
  /** The status changed (details: `from`, `to`); `source` and the actor say who or what did it. */
  'status_changed',
  /** Assignees set (details: `added`, `removed`: `[{id, username}]`). */
  'assignees_changed',
  /** The alert was linked to an incident or the incident to an alert (details: `incident_iid`, `alert_iid`). */
  'incident_linked',
  'incident_created',
  'incident_closed',
  'incident_reopened',
  /** The incident's title, description, severity or owner changed (details: `changes: [{field, from, to}]`). */
  'incident_updated',
  /** A recovery payload resolved one of the incident's alerts while others still fire, so auto-close left it open (details: `alert_iid`, `open_alert_iids`). */
  'incident_kept_open',
  /** A silence covered the alert, so create_incident opened no incident for it (details: `silence_id`). */
  'incident_skipped',
  /** An email about the alert was sent, failed, suppressed or cancelled (details: `recipient`, `reason`; `reason` of the entry: why). */
  'notification_sent',
  'notification_failed',
  'notification_suppressed',
  'notification_cancelled',
  /** A silence covered the alert, so nobody was mailed about the change (details: `reason`, `silence_id`). */
  'notification_skipped',
  /** The alert's escalation policy started paging for it (details: `run`, `rules`, `repeat`). */
  'escalation_started',
  /** The escalation stopped paging (details: `run`, `stopped`: `acknowledged`, `resolved`, `ignored`, `completed` or `retriggered`). */
  'escalation_stopped',
  /** A silence covered the alert when it was triggered, so the escalation policy paged nobody (details: `silence_id`). */
  'escalation_skipped',
  /**
   * A page or a notice went out, failed at its last attempt, or a rule reached nobody through a
   * target (details: `kind`, `method`, `loop`, `rule`, `user`, `address`, `page_id`; skipped:
   * `skipped`: `nobody_on_call`, `no_contact_method`, `schedule_deleted` or `email_not_configured`).
   */
  'page_sent',
  'page_failed',
  'page_skipped',
  /** A note a member wrote (details: `body`, Markdown). */
  'note',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/**
 * Where a change came from: a person through the API or the console, a payload from a monitoring
 * tool (a recovery resolves), the heartbeat checker, an incident being closed, the notifier, or the
 * escalation policy.
 */
export const ACTIVITY_SOURCES = ['api', 'payload', 'heartbeat', 'incident', 'notification', 'settings', 'escalation'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

/**
 * Who did it: a user, or the service itself (a payload, a heartbeat, a setting). The services build
 * it as this union; the API's schema (ActivityActorDto) says the same as one object whose `id` and
 * `username` only a user has.
 */
export type ActivityActor = { type: 'user'; id: number; username: string | null } | { type: 'service' };

/** One entry of a timeline (`GET .../alerts/:iid/activity`, `GET .../incidents/:iid/activity`), oldest first. */
export type ActivityEntryView = HttpSchemas['ActivityEntryDto'];

/** A project's alert settings (`GET/PUT /projects/:id/alert_settings`, maintainer+): GitLab's three switches. */
export type AlertSettingsView = HttpSchemas['AlertSettingsDto'];
