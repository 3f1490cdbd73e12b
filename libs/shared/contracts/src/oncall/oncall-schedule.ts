// On-call schedules of a project (docs/api-guide.md "On-call schedules"): the API's shapes, shared
// by the processor, the alerts proxy, on-call events and the console. Instants are ISO 8601 in UTC;
// a rotation's start and end are local date-times in the schedule's time zone (`2026-03-30T09:00`).
// They are the OpenAPI document's schemas (../http), except those on-call events carry (OncallUser,
// OncallRotationRef, OnCallReasonView, OnCallMemberView, OncallScheduleRef), written out for the
// event schemas as AlertView is (alert/alert-view.ts).

import type { HttpSchemas } from '../http';
import { Integer, Timestamp } from '../json-types';

export const SHIFT_LENGTH_UNITS = ['hours', 'days', 'weeks'] as const;
export type ShiftLengthUnit = (typeof SHIFT_LENGTH_UNITS)[number];

/** Why someone is on call: a rotation's shift, or an override. */
export const SHIFT_SOURCES = ['rotation', 'override'] as const;
export type ShiftSource = (typeof SHIFT_SOURCES)[number];

/** A project member, as schedules name them. */
export interface OncallUser {
  id: Integer;
  username: string;
}

export interface OncallRotationRef {
  id: Integer;
  name: string;
}

/** A daily window of local time (`09:00`-`17:00`); an end before the start runs past midnight. */
export type ActivePeriodView = HttpSchemas['ActivePeriodDto'];

export type RemovedParticipantView = HttpSchemas['RemovedParticipantDto'];

export type OncallRotationView = HttpSchemas['OncallRotationDto'];

/** Someone on call at an instant, and every reason why. */
export interface OnCallReasonView {
  source: ShiftSource;
  /** The rotation; null for an override of the whole schedule. */
  rotation: OncallRotationRef | null;
  override_id: Integer | null;
  shift_starts_at: Timestamp;
  shift_ends_at: Timestamp;
}

export interface OnCallMemberView {
  user: OncallUser;
  reasons: OnCallReasonView[];
}

export interface OncallScheduleRef {
  id: Integer;
  name: string;
  time_zone: string;
}

export type OncallScheduleView = HttpSchemas['OncallScheduleDto'];

/** `GET .../oncall_schedules/:schedule_id/on_call?at=`, and one per schedule in `GET .../oncall_schedules/on_call`. */
export type OnCallView = HttpSchemas['OnCallDto'];

/** A final shift: someone on call from `starts_at` to `ends_at`, and why. */
export type OncallShiftView = HttpSchemas['OncallShiftDto'];

/** A stretch of time with nobody on call. */
export type OncallGapView = HttpSchemas['OncallGapDto'];

export const OVERRIDE_STATES = ['upcoming', 'active', 'ended'] as const;
export type OverrideState = (typeof OVERRIDE_STATES)[number];

export type OncallOverrideView = HttpSchemas['OncallOverrideDto'];

/** A shift of a rotation's preview, with its local times and offsets in the schedule's zone. */
export type RotationPreviewShiftView = HttpSchemas['RotationPreviewShiftDto'];

/** `POST .../oncall_schedules/:schedule_id/reset_calendar_url`: shown once, as a token is. */
export type OncallCalendarUrlView = HttpSchemas['OncallCalendarUrlDto'];
