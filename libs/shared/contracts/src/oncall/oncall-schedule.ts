// On-call schedules of a project (docs/api-guide.md "On-call schedules"): the API's shapes, shared
// by the processor, the alerts proxy, on-call events and the console. Instants are ISO 8601 in UTC;
// a rotation's start and end are local date-times in the schedule's time zone (`2026-03-30T09:00`).

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
export interface ActivePeriodView {
  start_time: string;
  end_time: string;
}

export interface RemovedParticipantView {
  user: OncallUser;
  /** When the processor found the member gone from the project and took them out of the rotation. */
  removed_at: string;
}

export interface OncallRotationView {
  id: number;
  name: string;
  /** Local date and time of the first handoff, in the schedule's zone. */
  starts_at: string;
  /** Local; null: the rotation goes on. */
  ends_at: string | null;
  shift_length: number;
  shift_length_unit: ShiftLengthUnit;
  /** Null: on call around the clock. */
  active_period: ActivePeriodView | null;
  /** In turn, from the start. */
  participants: OncallUser[];
  /** Members removed from the project, who left this rotation then. */
  removed_participants: RemovedParticipantView[];
  created_at: string;
  /** When its rules or name last changed (a change of rules takes effect from then on). */
  updated_at: string;
}

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

export interface OncallScheduleView extends OncallScheduleRef {
  description: string | null;
  rotations: OncallRotationView[];
  /** Who is on call now. */
  on_call_now: OnCallMemberView[];
  /** When the calendar feed's secret URL was made; null: none yet (reset it to get one). */
  calendar_url_created_at: string | null;
  created_at: string;
  updated_at: string;
}

/** `GET .../oncall_schedules/:schedule_id/on_call?at=`, and one per schedule in `GET .../oncall_schedules/on_call`. */
export interface OnCallView {
  at: string;
  schedule: OncallScheduleRef;
  on_call: OnCallMemberView[];
}

/** A final shift: someone on call from `starts_at` to `ends_at`, and why. */
export interface OncallShiftView {
  starts_at: string;
  ends_at: string;
  user: OncallUser;
  source: ShiftSource;
  rotation: OncallRotationRef | null;
  override_id: number | null;
}

/** A stretch of time with nobody on call. */
export interface OncallGapView {
  starts_at: string;
  ends_at: string;
}

export const OVERRIDE_STATES = ['upcoming', 'active', 'ended'] as const;
export type OverrideState = (typeof OVERRIDE_STATES)[number];

export interface OncallOverrideView {
  id: number;
  user: OncallUser;
  /** The rotation it takes over; null: the whole schedule. */
  rotation: OncallRotationRef | null;
  starts_at: string;
  ends_at: string;
  /** Null: created with the administrator token. */
  created_by: OncallUser | null;
  created_at: string;
  state: OverrideState;
}

/** A shift of a rotation's preview, with its local times and offsets in the schedule's zone. */
export interface RotationPreviewShiftView {
  starts_at: string;
  ends_at: string;
  local_starts_at: string;
  local_ends_at: string;
  /** The zone's offset from UTC at the start and at the end (they differ across a daylight-saving change). */
  utc_offset_at_start: string;
  utc_offset_at_end: string;
  user: OncallUser;
}

/** `POST .../oncall_schedules/:schedule_id/reset_calendar_url`: shown once, as a token is. */
export interface OncallCalendarUrlView {
  /** The feed's path with its secret, on the API's host (the processor, or integration-config's console port). */
  calendar_path: string;
  /** The whole URL on the console's address (CONSOLE_URL); null when that is not configured. */
  calendar_url: string | null;
  created_at: string;
}
