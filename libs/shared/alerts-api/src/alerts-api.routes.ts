import { AccessLevel, REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import type { Type } from '@nestjs/common';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { AlertNotificationDto, ListAlertNotificationsQueryDto } from './alert-notifications.dto';
import { DeliveriesQueryDto, ListAlertsQueryDto, UpdateAlertStatusDto } from './alerts-query.dto';
import { ActivityEntryDto, CreateNoteDto } from './activity.dto';
import { AlertBulkUpdateDto, AlertBulkUpdateResultDto, AssigneeCandidateDto, UpdateAlertAssigneesDto } from './alert-workflow.dto';
import { AlertDto, AlertStatusCountsDto, DeliveryDto } from './alerts-responses.dto';
import { AlertSettingsDto, CreateIncidentDto, IncidentAlertDto, IncidentDto, IncidentStatusCountsDto, LinkIncidentAlertDto, ListIncidentsQueryDto, UpdateAlertSettingsDto, UpdateIncidentDto } from './incidents.dto';
import { CreateSilenceDto, ListSilencesQueryDto, SilenceDto, UpdateSilenceDto } from './silences.dto';
import {
  CalendarFeedQueryDto,
  CreateOncallScheduleDto,
  CreateOverrideDto,
  CreateRotationDto,
  ListOverridesQueryDto,
  OncallCalendarUrlDto,
  OncallGapDto,
  OncallOverrideDto,
  OncallRotationDto,
  OncallScheduleDto,
  OncallShiftDto,
  OnCallDto,
  OnCallQueryDto,
  PreviewRotationDto,
  RotationPreviewShiftDto,
  ShiftsQueryDto,
  UpdateOncallScheduleDto,
  UpdateRotationDto,
} from './oncall.dto';
import {
  AlertEscalationDto,
  ContactMethodDto,
  CreateContactMethodDto,
  CreateNotificationRuleDto,
  EscalationPolicyDto,
  NotificationRuleDto,
  OncallConfigDocumentDto,
  OncallConfigQueryDto,
  OncallConfigResultDto,
  PagingSettingsDto,
  ResetWebhookSecretDto,
  TestPageDto,
  UpdateEscalationPolicyDto,
  UpdatePagingSettingsDto,
  WebhookSecretDto,
} from './escalation.dto';

// The alerts API (CONTRACT.md "Alerts query API", "deliveries"; docs/api-guide.md "Silences"; on-call
// schedules) as one table:
// alert-processor answers each route (its controllers take their route, access level and OpenAPI
// description from here through AlertsApiRoute), integration-config forwards every route under
// ALERTS_API_PREFIXES to it and documents them from here too. A new endpoint is an entry here, a
// handler in the processor's controller, and its test.

/** Where every route of a project lives: their paths are relative to it. */
export const ALERTS_API_BASE = 'api/v4/projects/:id';

/** Where the caller's own routes live (`scope: 'user'`: their contact methods, notification rules, paging settings). */
export const USER_API_BASE = 'api/v4/user';

export type AlertsApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A 2xx answer: one DTO, or one page of them with GitLab's pagination headers; none for a 204; or a
 * document of another media type (`contentType`, as text).
 */
export interface AlertsApiResponse {
  readonly type?: Type<unknown>;
  readonly page?: true;
  /** A JSON array of the DTO, whole (not paged). */
  readonly array?: true;
  /** 200 unless said otherwise (a POST that creates is a 201, a DELETE a 204 with no body). */
  readonly status?: 200 | 201 | 204;
  /** The answer is a document of this type (`text/calendar`), not JSON. */
  readonly contentType?: string;
  readonly description?: string;
}

export interface AlertsApiRouteDefinition {
  readonly method: AlertsApiMethod;
  /** Relative to ALERTS_API_BASE, with Express-style `:param`s. */
  readonly path: string;
  /**
   * The lowest role in the project that may use the route (the administrator always may). Null: no
   * token; the route checks a secret of its own (a calendar feed's), and a wrong one is a 404.
   */
  readonly access: AccessLevel | null;
  /**
   * `user`: a route of the caller's own, under USER_API_BASE, for any user's token (the
   * administrator's has no user: 403); `access` is then null. Otherwise under ALERTS_API_BASE.
   */
  readonly scope?: 'user';
  readonly summary: string;
  /** The path parameters besides the project `:id`, with what each names (all are positive integers). */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Type<unknown>;
  readonly body?: Type<unknown>;
  readonly response: AlertsApiResponse;
  /** The route's own error answers, besides the token and role ones every route has (401, 403, 404). */
  readonly errors?: ReadonlyArray<number | readonly [number, string]>;
}

const ALERT_IID = { iid: 'The alert iid (counts from 1 per project).' } as const;
const SILENCE_ID = { silence_id: 'The silence id.' } as const;
const INCIDENT_IID = { iid: 'The incident iid (counts from 1 per project).' } as const;
const SCHEDULE_ID = { schedule_id: 'The on-call schedule id.' } as const;
const ROTATION_ID = { ...SCHEDULE_ID, rotation_id: 'The rotation id.' } as const;
const OVERRIDE_ID = { ...SCHEDULE_ID, override_id: 'The override id.' } as const;
const CONTACT_METHOD_ID = { contact_method_id: 'The contact method id.' } as const;
const NOTIFICATION_RULE_ID = { notification_rule_id: 'The notification rule id.' } as const;

/**
 * Every route of the alerts API. Order matters where paths overlap: Express tries routes in the order
 * the controller declares its handlers, so `alerts/status_counts` comes before `alerts/:iid`.
 */
export const ALERTS_API = {
  listAlerts: {
    method: 'GET',
    path: 'alerts',
    access: REQUIRED_ACCESS_LEVEL.readAlerts,
    summary: 'List the alerts of a project, newest first',
    query: ListAlertsQueryDto,
    response: { type: AlertDto, page: true, description: 'One page of alerts.' },
    errors: [400],
  },
  statusCounts: {
    method: 'GET',
    path: 'alerts/status_counts',
    access: REQUIRED_ACCESS_LEVEL.readAlerts,
    summary: 'Count the alerts of a project by status',
    response: { type: AlertStatusCountsDto },
  },
  assigneeCandidates: {
    method: 'GET',
    path: 'alerts/assignee_candidates',
    access: REQUIRED_ACCESS_LEVEL.assignAlerts,
    summary: 'List the members an alert may be assigned to (developer+), by username',
    response: { type: AssigneeCandidateDto, array: true, description: 'Every candidate (not paged).' },
  },
  bulkUpdateAlerts: {
    method: 'POST',
    path: 'alerts/bulk_update',
    access: REQUIRED_ACCESS_LEVEL.changeAlertStatus,
    summary: 'Change the status and/or the assignees of several alerts at once; resolved alerts are skipped, never reopened',
    body: AlertBulkUpdateDto,
    response: { type: AlertBulkUpdateResultDto, description: 'The iids changed, and the others with the reason.' },
    errors: [400],
  },
  getAlert: {
    method: 'GET',
    path: 'alerts/:iid',
    access: REQUIRED_ACCESS_LEVEL.readAlerts,
    summary: 'Get an alert',
    params: ALERT_IID,
    response: { type: AlertDto },
  },
  updateAlert: {
    method: 'PUT',
    path: 'alerts/:iid',
    access: REQUIRED_ACCESS_LEVEL.changeAlertStatus,
    summary: 'Change the status of an alert (acknowledging an unassigned alert assigns the caller; a resolved alert reopens only to triggered)',
    params: ALERT_IID,
    body: UpdateAlertStatusDto,
    response: { type: AlertDto, description: 'The alert with its new status.' },
    errors: [400, [409, 'A resolved alert asked for acknowledged or ignored, or a reopening that would give its fingerprint two not-resolved alerts.']],
  },
  updateAlertAssignees: {
    method: 'PUT',
    path: 'alerts/:iid/assignees',
    access: REQUIRED_ACCESS_LEVEL.assignAlerts,
    summary: 'Set the assignees of an alert (developer+ members; empty: nobody)',
    params: ALERT_IID,
    body: UpdateAlertAssigneesDto,
    response: { type: AlertDto, description: 'The alert with its assignees.' },
    errors: [400],
  },
  alertActivity: {
    method: 'GET',
    path: 'alerts/:iid/activity',
    access: REQUIRED_ACCESS_LEVEL.readAlerts,
    summary: "The alert's timeline, oldest first: its creation, grouped events, status changes (who or what made them), assignments, notes",
    params: ALERT_IID,
    query: PaginationQueryDto,
    response: { type: ActivityEntryDto, page: true, description: 'One page of timeline entries.' },
    errors: [400],
  },
  alertEscalation: {
    method: 'GET',
    path: 'alerts/:iid/escalation',
    access: REQUIRED_ACCESS_LEVEL.readAlertEscalation,
    summary: "The alert's escalation: where it stands, its next step and when, and every page and notice of its current run (webhook URLs as their origin)",
    params: ALERT_IID,
    response: { type: AlertEscalationDto },
  },
  addAlertNote: {
    method: 'POST',
    path: 'alerts/:iid/notes',
    access: REQUIRED_ACCESS_LEVEL.writeNotes,
    summary: "Write a note (Markdown) on the alert's timeline",
    params: ALERT_IID,
    body: CreateNoteDto,
    response: { type: ActivityEntryDto, status: 201, description: 'The note as a timeline entry.' },
    errors: [400],
  },
  createIncidentFromAlert: {
    method: 'POST',
    path: 'alerts/:iid/incident',
    access: REQUIRED_ACCESS_LEVEL.manageIncidents,
    summary: "Open an incident from an alert: its title, severity, fields and payload, linked to it",
    params: ALERT_IID,
    response: { type: IncidentDto, status: 201 },
    errors: [[409, 'The alert already has an incident.']],
  },
  listIncidents: {
    method: 'GET',
    path: 'incidents',
    access: REQUIRED_ACCESS_LEVEL.readIncidents,
    summary: 'List the incidents of a project, newest first',
    query: ListIncidentsQueryDto,
    response: { type: IncidentDto, page: true, description: 'One page of incidents.' },
    errors: [400],
  },
  incidentStatusCounts: {
    method: 'GET',
    path: 'incidents/status_counts',
    access: REQUIRED_ACCESS_LEVEL.readIncidents,
    summary: 'Count the incidents of a project by status',
    response: { type: IncidentStatusCountsDto },
  },
  createIncident: {
    method: 'POST',
    path: 'incidents',
    access: REQUIRED_ACCESS_LEVEL.manageIncidents,
    summary: 'Open an incident',
    body: CreateIncidentDto,
    response: { type: IncidentDto, status: 201 },
    errors: [400],
  },
  getIncident: {
    method: 'GET',
    path: 'incidents/:iid',
    access: REQUIRED_ACCESS_LEVEL.readIncidents,
    summary: 'Get an incident',
    params: INCIDENT_IID,
    response: { type: IncidentDto },
  },
  updateIncident: {
    method: 'PUT',
    path: 'incidents/:iid',
    access: REQUIRED_ACCESS_LEVEL.manageIncidents,
    summary: 'Change an incident: close it (resolving its linked alerts), reopen it, or edit its title, description or severity',
    params: INCIDENT_IID,
    body: UpdateIncidentDto,
    response: { type: IncidentDto },
    errors: [400],
  },
  incidentAlerts: {
    method: 'GET',
    path: 'incidents/:iid/alerts',
    access: REQUIRED_ACCESS_LEVEL.readIncidents,
    summary: "The incident's alerts with their title, severity, status and latest event: open ones (triggered, then acknowledged) first, each group newest event first",
    params: INCIDENT_IID,
    response: { type: IncidentAlertDto, array: true, description: 'Every alert linked to the incident.' },
  },
  linkIncidentAlert: {
    method: 'POST',
    path: 'incidents/:iid/alerts',
    access: REQUIRED_ACCESS_LEVEL.manageIncidents,
    summary: 'Link an alert to an open incident (an alert has at most one incident)',
    params: INCIDENT_IID,
    body: LinkIncidentAlertDto,
    response: { type: IncidentDto, description: 'The incident with the alert linked.' },
    errors: [400, [409, 'The alert belongs to another incident, or the incident is closed.']],
  },
  incidentActivity: {
    method: 'GET',
    path: 'incidents/:iid/activity',
    access: REQUIRED_ACCESS_LEVEL.readIncidents,
    summary: "The incident's timeline, oldest first: its creation, linked alerts, closing and reopening (who or what did them), notes",
    params: INCIDENT_IID,
    query: PaginationQueryDto,
    response: { type: ActivityEntryDto, page: true, description: 'One page of timeline entries.' },
    errors: [400],
  },
  addIncidentNote: {
    method: 'POST',
    path: 'incidents/:iid/notes',
    access: REQUIRED_ACCESS_LEVEL.writeNotes,
    summary: "Write a note (Markdown) on the incident's timeline",
    params: INCIDENT_IID,
    body: CreateNoteDto,
    response: { type: ActivityEntryDto, status: 201, description: 'The note as a timeline entry.' },
    errors: [400],
  },
  getAlertSettings: {
    method: 'GET',
    path: 'alert_settings',
    access: REQUIRED_ACCESS_LEVEL.readAlertSettings,
    summary: "Get the project's alert settings",
    response: { type: AlertSettingsDto },
  },
  updateAlertSettings: {
    method: 'PUT',
    path: 'alert_settings',
    access: REQUIRED_ACCESS_LEVEL.manageAlertSettings,
    summary: "Change the project's alert settings (any of the three switches)",
    body: UpdateAlertSettingsDto,
    response: { type: AlertSettingsDto },
    errors: [400],
  },
  createSilence: {
    method: 'POST',
    path: 'silences',
    access: REQUIRED_ACCESS_LEVEL.manageSilences,
    summary: 'Create a silence: alerts matching all its matchers while it is active carry silenced_by',
    body: CreateSilenceDto,
    response: { type: SilenceDto, status: 201 },
    errors: [400],
  },
  listSilences: {
    method: 'GET',
    path: 'silences',
    access: REQUIRED_ACCESS_LEVEL.readSilences,
    summary: 'List the silences of a project, newest first',
    query: ListSilencesQueryDto,
    response: { type: SilenceDto, page: true, description: 'One page of silences.' },
    errors: [400],
  },
  getSilence: {
    method: 'GET',
    path: 'silences/:silence_id',
    access: REQUIRED_ACCESS_LEVEL.readSilences,
    summary: 'Get a silence',
    params: SILENCE_ID,
    response: { type: SilenceDto },
  },
  updateSilence: {
    method: 'PUT',
    path: 'silences/:silence_id',
    access: REQUIRED_ACCESS_LEVEL.manageSilences,
    summary: 'Change the comment, the end or the matchers of a silence that has not expired',
    params: SILENCE_ID,
    body: UpdateSilenceDto,
    response: { type: SilenceDto },
    errors: [400, [409, 'The silence has expired.']],
  },
  expireSilence: {
    method: 'POST',
    path: 'silences/:silence_id/expire',
    access: REQUIRED_ACCESS_LEVEL.manageSilences,
    summary: 'Expire a silence: it ends now and stays listed',
    params: SILENCE_ID,
    response: { type: SilenceDto, description: 'The silence, expired (an expired one is answered as it is).' },
  },
  deliveries: {
    method: 'GET',
    path: 'alert_integrations/:iid/deliveries',
    access: REQUIRED_ACCESS_LEVEL.manageIntegrations,
    summary: "List the latest deliveries to an integration's URL, newest first",
    params: { iid: 'The integration id.' },
    query: DeliveriesQueryDto,
    response: { type: DeliveryDto, page: true, description: 'One page of deliveries (100 unless per_page says fewer).' },
    errors: [400, [404, 'No such HTTP Endpoint in the project.']],
  },
  listAlertNotifications: {
    method: 'GET',
    path: 'alert_notifications',
    access: REQUIRED_ACCESS_LEVEL.readAlerts,
    summary: 'List the alert emails of a project (sent, pending, failed, suppressed), newest first',
    query: ListAlertNotificationsQueryDto,
    response: { type: AlertNotificationDto, page: true, description: 'One page of alert email records.' },
    errors: [400],
  },
  // On-call schedules (docs/api-guide.md "On-call schedules"): `on_call` before `:schedule_id`.
  projectOnCall: {
    method: 'GET',
    path: 'oncall_schedules/on_call',
    access: REQUIRED_ACCESS_LEVEL.readOnCall,
    summary: 'Who is on call now in each schedule of the project, and why',
    response: { type: OnCallDto, array: true, description: 'One entry per schedule, by name (not paged).' },
  },
  listOncallSchedules: {
    method: 'GET',
    path: 'oncall_schedules',
    access: REQUIRED_ACCESS_LEVEL.readOncallSchedules,
    summary: 'List the on-call schedules of a project, by name, with their rotations and who is on call now',
    query: PaginationQueryDto,
    response: { type: OncallScheduleDto, page: true, description: 'One page of schedules.' },
    errors: [400],
  },
  createOncallSchedule: {
    method: 'POST',
    path: 'oncall_schedules',
    access: REQUIRED_ACCESS_LEVEL.manageOncallSchedules,
    summary: 'Create an on-call schedule in an IANA time zone',
    body: CreateOncallScheduleDto,
    response: { type: OncallScheduleDto, status: 201 },
    errors: [400, [409, 'The project has a schedule of that name.']],
  },
  getOncallSchedule: {
    method: 'GET',
    path: 'oncall_schedules/:schedule_id',
    access: REQUIRED_ACCESS_LEVEL.readOncallSchedules,
    summary: 'Get an on-call schedule, its rotations and who is on call now',
    params: SCHEDULE_ID,
    response: { type: OncallScheduleDto },
  },
  updateOncallSchedule: {
    method: 'PUT',
    path: 'oncall_schedules/:schedule_id',
    access: REQUIRED_ACCESS_LEVEL.manageOncallSchedules,
    summary: "Change a schedule's name, description or time zone (a new zone applies from now on)",
    params: SCHEDULE_ID,
    body: UpdateOncallScheduleDto,
    response: { type: OncallScheduleDto },
    errors: [400, [409, 'The project has a schedule of that name.']],
  },
  deleteOncallSchedule: {
    method: 'DELETE',
    path: 'oncall_schedules/:schedule_id',
    access: REQUIRED_ACCESS_LEVEL.manageOncallSchedules,
    summary: 'Delete an on-call schedule, its rotations, overrides and calendar URL',
    params: SCHEDULE_ID,
    response: { status: 204, description: 'Deleted.' },
  },
  scheduleOnCall: {
    method: 'GET',
    path: 'oncall_schedules/:schedule_id/on_call',
    access: REQUIRED_ACCESS_LEVEL.readOnCall,
    summary: 'Who is on call in a schedule at any instant (past or future), and why (rotation or override)',
    params: SCHEDULE_ID,
    query: OnCallQueryDto,
    response: { type: OnCallDto },
    errors: [400],
  },
  scheduleShifts: {
    method: 'GET',
    path: 'oncall_schedules/:schedule_id/shifts',
    access: REQUIRED_ACCESS_LEVEL.readOncallSchedules,
    summary: "A schedule's final shifts (rotations with overrides applied) over a range of at most five weeks",
    params: SCHEDULE_ID,
    query: ShiftsQueryDto,
    response: { type: OncallShiftDto, array: true, description: 'Every shift overlapping the range, cut to it, by start (not paged).' },
    errors: [400],
  },
  scheduleGaps: {
    method: 'GET',
    path: 'oncall_schedules/:schedule_id/gaps',
    access: REQUIRED_ACCESS_LEVEL.readOncallSchedules,
    summary: 'The gaps (nobody on call) in the next 7 days',
    params: SCHEDULE_ID,
    response: { type: OncallGapDto, array: true, description: 'Empty: someone is on call all the time.' },
  },
  createRotation: {
    method: 'POST',
    path: 'oncall_schedules/:schedule_id/rotations',
    access: REQUIRED_ACCESS_LEVEL.manageOncallSchedules,
    summary: 'Add a rotation to a schedule, in force from now',
    params: SCHEDULE_ID,
    body: CreateRotationDto,
    response: { type: OncallRotationDto, status: 201 },
    errors: [400, [409, 'The schedule has a rotation of that name.']],
  },
  previewRotation: {
    method: 'POST',
    path: 'oncall_schedules/:schedule_id/rotations/preview',
    access: REQUIRED_ACCESS_LEVEL.manageOncallSchedules,
    summary: "The next shifts a rotation's rules would give, with local times and UTC offsets (daylight-saving changes show); stores nothing",
    params: SCHEDULE_ID,
    body: PreviewRotationDto,
    response: { type: RotationPreviewShiftDto, array: true },
    errors: [400],
  },
  updateRotation: {
    method: 'PUT',
    path: 'oncall_schedules/:schedule_id/rotations/:rotation_id',
    access: REQUIRED_ACCESS_LEVEL.manageOncallSchedules,
    summary: "Change a rotation: new rules take effect from now (the shifts before stay)",
    params: ROTATION_ID,
    body: UpdateRotationDto,
    response: { type: OncallRotationDto },
    errors: [400, [409, 'The schedule has a rotation of that name.']],
  },
  deleteRotation: {
    method: 'DELETE',
    path: 'oncall_schedules/:schedule_id/rotations/:rotation_id',
    access: REQUIRED_ACCESS_LEVEL.manageOncallSchedules,
    summary: 'Delete a rotation from now on (its past shifts stay); its overrides under way end, later ones go',
    params: ROTATION_ID,
    response: { status: 204, description: 'Deleted.' },
  },
  listOverrides: {
    method: 'GET',
    path: 'oncall_schedules/:schedule_id/overrides',
    access: REQUIRED_ACCESS_LEVEL.readOncallSchedules,
    summary: "List a schedule's overrides, newest first",
    params: SCHEDULE_ID,
    query: ListOverridesQueryDto,
    response: { type: OncallOverrideDto, page: true, description: 'One page of overrides.' },
    errors: [400],
  },
  createOverride: {
    method: 'POST',
    path: 'oncall_schedules/:schedule_id/overrides',
    access: REQUIRED_ACCESS_LEVEL.overrideOnCall,
    summary: "Put a member on call in place of a rotation's (or the whole schedule's) on-call for a window; developers may put only themselves",
    params: SCHEDULE_ID,
    body: CreateOverrideDto,
    response: { type: OncallOverrideDto, status: 201 },
    errors: [400, [403, 'A developer named another member.']],
  },
  deleteOverride: {
    method: 'DELETE',
    path: 'oncall_schedules/:schedule_id/overrides/:override_id',
    access: REQUIRED_ACCESS_LEVEL.overrideOnCall,
    summary: 'Delete an override, giving the rotation back: one under way ends now; developers may delete only their own',
    params: OVERRIDE_ID,
    response: { status: 204, description: 'Deleted, or ended now.' },
    errors: [[403, "A developer named another member's override."], [409, 'The override has ended: it stays as history.']],
  },
  resetCalendarUrl: {
    method: 'POST',
    path: 'oncall_schedules/:schedule_id/reset_calendar_url',
    access: REQUIRED_ACCESS_LEVEL.resetOncallCalendarUrl,
    summary: "Make a new secret URL of the schedule's calendar feed (shown once); the previous URL stops working at once",
    params: SCHEDULE_ID,
    response: { type: OncallCalendarUrlDto },
  },
  oncallCalendar: {
    method: 'GET',
    path: 'oncall_schedules/:schedule_id/calendar.ics',
    access: null,
    summary: "The schedule's final shifts of the past 7 days and the next 60 as an iCalendar feed, at its secret URL (no token)",
    params: SCHEDULE_ID,
    query: CalendarFeedQueryDto,
    response: { contentType: 'text/calendar', description: 'One event per shift (UTC times, a UID stable across requests).' },
    errors: [400, [404, 'No such schedule, or a token that is not its current one.']],
  },
  // Escalation policies (docs/api-guide.md "Escalation policies"): `preview` and `reset_webhook_secret` under the policy's path.
  getEscalationPolicy: {
    method: 'GET',
    path: 'escalation_policy',
    access: REQUIRED_ACCESS_LEVEL.manageEscalationPolicy,
    summary: "The project's escalation policy, in words too, and the members it can page who have no contact method",
    response: { type: EscalationPolicyDto, description: 'No rules (and null times) while the project has none.' },
  },
  updateEscalationPolicy: {
    method: 'PUT',
    path: 'escalation_policy',
    access: REQUIRED_ACCESS_LEVEL.manageEscalationPolicy,
    summary: 'Set the escalation policy (alerts triggered from now on escalate with it; running escalations keep theirs)',
    body: UpdateEscalationPolicyDto,
    response: { type: EscalationPolicyDto, description: 'The policy, with the secrets of webhook URLs it names for the first time (shown once).' },
    errors: [400],
  },
  previewEscalationPolicy: {
    method: 'POST',
    path: 'escalation_policy/preview',
    access: REQUIRED_ACCESS_LEVEL.manageEscalationPolicy,
    summary: 'What a policy would be, in words, checked as a PUT would be; stores nothing',
    body: UpdateEscalationPolicyDto,
    response: { type: EscalationPolicyDto },
    errors: [400],
  },
  deleteEscalationPolicy: {
    method: 'DELETE',
    path: 'escalation_policy',
    access: REQUIRED_ACCESS_LEVEL.manageEscalationPolicy,
    summary: 'Delete the escalation policy: new alerts escalate no more (running escalations go on)',
    response: { status: 204, description: 'Deleted.' },
  },
  resetEscalationWebhookSecret: {
    method: 'POST',
    path: 'escalation_policy/reset_webhook_secret',
    access: REQUIRED_ACCESS_LEVEL.manageEscalationPolicy,
    summary: 'Make a new signing secret for a webhook URL the policy pages (shown once); the old one signs no more pages',
    body: ResetWebhookSecretDto,
    response: { type: WebhookSecretDto },
    errors: [400],
  },
  // The on-call setup as one document (docs/api-guide.md "On-call setup as code"): `schema` before nothing else overlapping.
  getOncallConfig: {
    method: 'GET',
    path: 'oncall_config',
    access: REQUIRED_ACCESS_LEVEL.manageEscalationPolicy,
    summary: "The project's whole on-call setup (schedules, rotations, the escalation policy, how its members are paged) as one document, JSON or YAML (Accept: text/yaml), with its version as ETag",
    response: { type: OncallConfigDocumentDto, description: 'The document, as its JSON Schema (`oncall_config/schema`) says; YAML with Accept: text/yaml.' },
  },
  putOncallConfig: {
    method: 'PUT',
    path: 'oncall_config',
    access: REQUIRED_ACCESS_LEVEL.manageEscalationPolicy,
    summary: 'Apply a whole on-call setup document atomically (JSON, or YAML with Content-Type: text/yaml): what it leaves out is deleted; dry_run=true answers the plan only; If-Match refuses a document written against an older version',
    query: OncallConfigQueryDto,
    response: { type: OncallConfigResultDto, description: 'The plan (create, update, delete, unchanged per key), whether it was applied, and the new ETag.' },
    errors: [[400, 'The document is invalid (`invalid_document`, with every problem at its JSON pointer in `errors`): nothing was applied.'], [412, 'If-Match names another version.']],
  },
  oncallConfigSchema: {
    method: 'GET',
    path: 'oncall_config/schema',
    access: REQUIRED_ACCESS_LEVEL.readAlertEscalation,
    summary: 'The JSON Schema of the on-call setup document',
    response: { contentType: 'application/schema+json', description: 'JSON Schema draft-07 (docs/oncall-config.schema.json).' },
  },
  // The caller's own paging (docs/api-guide.md "Paging"), under /api/v4/user.
  listContactMethods: {
    method: 'GET',
    path: 'contact_methods',
    scope: 'user',
    access: null,
    summary: 'Your contact methods',
    response: { type: ContactMethodDto, array: true },
  },
  createContactMethod: {
    method: 'POST',
    path: 'contact_methods',
    scope: 'user',
    access: null,
    summary: 'Add a contact method: an email address, or a webhook URL (its signing secret is in this answer only)',
    body: CreateContactMethodDto,
    response: { type: ContactMethodDto, status: 201 },
    errors: [400, [409, 'You have a contact method of that name or address, or ten already.']],
  },
  deleteContactMethod: {
    method: 'DELETE',
    path: 'contact_methods/:contact_method_id',
    scope: 'user',
    access: null,
    summary: 'Delete a contact method and its notification rules',
    params: CONTACT_METHOD_ID,
    response: { status: 204, description: 'Deleted.' },
  },
  testContactMethod: {
    method: 'POST',
    path: 'contact_methods/:contact_method_id/test',
    scope: 'user',
    access: null,
    summary: 'Send yourself a test page by a contact method, now',
    params: CONTACT_METHOD_ID,
    response: { type: TestPageDto, description: 'Whether it went, or why not.' },
  },
  listNotificationRules: {
    method: 'GET',
    path: 'notification_rules',
    scope: 'user',
    access: null,
    summary: 'Your notification rules (none: every contact method at once)',
    response: { type: NotificationRuleDto, array: true },
  },
  createNotificationRule: {
    method: 'POST',
    path: 'notification_rules',
    scope: 'user',
    access: null,
    summary: 'Add a notification rule: page by a contact method N minutes after a page',
    body: CreateNotificationRuleDto,
    response: { type: NotificationRuleDto, status: 201 },
    errors: [400, [409, 'You have this rule already, or twenty.']],
  },
  deleteNotificationRule: {
    method: 'DELETE',
    path: 'notification_rules/:notification_rule_id',
    scope: 'user',
    access: null,
    summary: 'Delete a notification rule',
    params: NOTIFICATION_RULE_ID,
    response: { status: 204, description: 'Deleted.' },
  },
  getPagingSettings: {
    method: 'GET',
    path: 'paging_settings',
    scope: 'user',
    access: null,
    summary: 'Your paging settings',
    response: { type: PagingSettingsDto },
  },
  updatePagingSettings: {
    method: 'PUT',
    path: 'paging_settings',
    scope: 'user',
    access: null,
    summary: 'Ask for (or stop) notices when an alert you were paged for is acknowledged or resolved',
    body: UpdatePagingSettingsDto,
    response: { type: PagingSettingsDto },
    errors: [400],
  },
} as const satisfies Record<string, AlertsApiRouteDefinition>;

export type AlertsApiRouteName = keyof typeof ALERTS_API;

export const ALERTS_API_ROUTES: ReadonlyArray<AlertsApiRouteDefinition> = Object.values(ALERTS_API);

/**
 * The paths, relative to ALERTS_API_BASE, under which every route of the table lies and nothing of
 * integration-config's own API does: integration-config forwards each of them whole to alert-processor.
 */
export const ALERTS_API_PREFIXES = [
  'alerts',
  'silences',
  'alert_integrations/:iid/deliveries',
  'incidents',
  'alert_settings',
  'alert_notifications',
  'oncall_schedules',
  'escalation_policy',
  'oncall_config',
] as const;

/** The same for the caller's own routes, relative to USER_API_BASE. */
export const USER_API_PREFIXES = ['contact_methods', 'notification_rules', 'paging_settings'] as const;

/** A route's full path as Express routes it: `/api/v4/projects/:id/alerts/:iid`, `/api/v4/user/contact_methods`. */
export function alertsApiPath(route: Pick<AlertsApiRouteDefinition, 'path' | 'scope'> | string): string {
  if (typeof route === 'string') return `/${ALERTS_API_BASE}/${route}`;
  return `/${route.scope === 'user' ? USER_API_BASE : ALERTS_API_BASE}/${route.path}`;
}

/** Every path prefix integration-config forwards whole to alert-processor. */
export function forwardedPrefixPaths(): string[] {
  return [...ALERTS_API_PREFIXES.map((prefix) => alertsApiPath(prefix)), ...USER_API_PREFIXES.map((prefix) => `/${USER_API_BASE}/${prefix}`)];
}

/** A route as the OpenAPI document names it: `GET /api/v4/projects/{id}/alerts/{iid}`. */
export function alertsApiOperation(route: AlertsApiRouteDefinition): `${string} ${string}` {
  return `${route.method} ${alertsApiPath(route).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}
