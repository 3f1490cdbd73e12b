import {
  OncallEvent,
  OncallGapView,
  OncallOverrideView,
  OncallRotationRef,
  OncallRotationView,
  OncallScheduleRef,
  OncallScheduleView,
  OncallShiftView,
  OncallUser,
  OnCallMemberView,
  OnCallView,
  OverrideState,
  RotationPreviewShiftView,
} from '@alert-ingestion/contracts';
import { FinalShift } from './final-shifts';
import { OnCallChange, OnCallMember } from './on-call';
import { BaseShift, Participant } from './rotation';
import { currentVersion, StoredOverride, StoredRotation, StoredSchedule } from './stored-schedule';
import { EpochMs, formatLocalDateTime, formatLocalTime, Interval, isoInstant, localDateTimeOf, utcOffsetOf } from './zoned-time';

// On-call schedules as the API, the console, the calendar feed and on-call events show them: one
// presenter for every view, so they name members, rotations and times alike.

export function userView(user: Participant): OncallUser {
  return { id: Number(user.userId), username: user.username };
}

/** The names of a schedule's rotations, deleted ones too: reasons and shifts name the rotation. */
export type RotationNames = ReadonlyMap<string, string>;

export function rotationNames(rotations: readonly { id: string; name: string }[]): RotationNames {
  return new Map(rotations.map((rotation) => [rotation.id, rotation.name]));
}

function rotationRef(rotationId: string | null, names: RotationNames): OncallRotationRef | null {
  return rotationId === null ? null : { id: Number(rotationId), name: names.get(rotationId) ?? '' };
}

export function scheduleRef(schedule: StoredSchedule): OncallScheduleRef {
  return { id: Number(schedule.id), name: schedule.name, time_zone: schedule.timeZone };
}

export function rotationView(rotation: StoredRotation): OncallRotationView {
  const rules = currentVersion(rotation);
  if (!rules) throw new Error(`Rotation ${rotation.id} has no version`);
  return {
    id: Number(rotation.id),
    name: rotation.name,
    starts_at: formatLocalDateTime(rules.startsAt),
    ends_at: rules.endsAt && formatLocalDateTime(rules.endsAt),
    shift_length: rules.shiftLength.length,
    shift_length_unit: rules.shiftLength.unit,
    active_period: rules.activePeriod && { start_time: formatLocalTime(rules.activePeriod.start), end_time: formatLocalTime(rules.activePeriod.end) },
    participants: rules.participants.map(userView),
    removed_participants: rotation.removedParticipants.map((removal) => ({ user: userView(removal.user), removed_at: isoInstant(removal.removedAt) })),
    created_at: isoInstant(rotation.createdAt),
    updated_at: isoInstant(rotation.updatedAt),
  };
}

export function onCallMemberView(member: OnCallMember, names: RotationNames): OnCallMemberView {
  return {
    user: userView(member.user),
    reasons: member.reasons.map((reason) => ({
      source: reason.source,
      rotation: rotationRef(reason.rotationId, names),
      override_id: reason.overrideId === null ? null : Number(reason.overrideId),
      shift_starts_at: isoInstant(reason.shift.start),
      shift_ends_at: isoInstant(reason.shift.end),
    })),
  };
}

export function onCallView(schedule: StoredSchedule, at: EpochMs, members: readonly OnCallMember[], names: RotationNames): OnCallView {
  return { at: isoInstant(at), schedule: scheduleRef(schedule), on_call: members.map((member) => onCallMemberView(member, names)) };
}

export function scheduleView(schedule: StoredSchedule, rotations: readonly StoredRotation[], onCallNow: readonly OnCallMember[], names: RotationNames): OncallScheduleView {
  return {
    ...scheduleRef(schedule),
    description: schedule.description,
    rotations: [...rotations].sort((a, b) => a.position - b.position).map(rotationView),
    on_call_now: onCallNow.map((member) => onCallMemberView(member, names)),
    calendar_url_created_at: schedule.calendarTokenCreatedAt === null ? null : isoInstant(schedule.calendarTokenCreatedAt),
    created_at: isoInstant(schedule.createdAt),
    updated_at: isoInstant(schedule.updatedAt),
  };
}

export function shiftView(shift: FinalShift, names: RotationNames): OncallShiftView {
  return {
    starts_at: isoInstant(shift.start),
    ends_at: isoInstant(shift.end),
    user: userView(shift.user),
    source: shift.source,
    rotation: rotationRef(shift.rotationId, names),
    override_id: shift.overrideId === null ? null : Number(shift.overrideId),
  };
}

export function gapView(gap: Interval): OncallGapView {
  return { starts_at: isoInstant(gap.start), ends_at: isoInstant(gap.end) };
}

export function overrideState(override: Interval, now: EpochMs): OverrideState {
  if (override.start > now) return 'upcoming';
  return override.end > now ? 'active' : 'ended';
}

export function overrideView(override: StoredOverride, names: RotationNames, now: EpochMs): OncallOverrideView {
  return {
    id: Number(override.id),
    user: userView(override.user),
    rotation: rotationRef(override.rotationId, names),
    starts_at: isoInstant(override.start),
    ends_at: isoInstant(override.end),
    created_by: override.createdBy && userView(override.createdBy),
    created_at: isoInstant(override.createdAt),
    state: overrideState(override, now),
  };
}

export function previewShiftView(shift: BaseShift, timeZone: string): RotationPreviewShiftView {
  return {
    starts_at: isoInstant(shift.start),
    ends_at: isoInstant(shift.end),
    local_starts_at: formatLocalDateTime(localDateTimeOf(shift.start, timeZone)),
    local_ends_at: formatLocalDateTime(localDateTimeOf(shift.end, timeZone)),
    utc_offset_at_start: utcOffsetOf(shift.start, timeZone),
    utc_offset_at_end: utcOffsetOf(shift.end, timeZone),
    user: userView(shift.participant),
  };
}

/** An on-call event as published: `oncall.shift_started` at the instant of the change, keyed by schedule and instant. */
export function oncallEvent(schedule: StoredSchedule, change: OnCallChange, names: RotationNames): { key: OncallEvent.OncallEventKey; value: OncallEvent.OncallEventValue } {
  const occurredAt = isoInstant(change.at);
  return {
    key: OncallEvent.oncallEventKey(schedule.id, occurredAt),
    value: {
      type: 'oncall.shift_started',
      occurred_at: occurredAt,
      project_id: Number(schedule.projectId),
      schedule: scheduleRef(schedule),
      on_call: change.onCall.map((member) => onCallMemberView(member, names)),
      previous: change.previous.map(userView),
    },
  };
}
