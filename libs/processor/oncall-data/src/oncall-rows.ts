import { Participant, RotationRules, StoredOverride, StoredRotation, StoredRotationVersion, StoredSchedule } from '@alert-ingestion/oncall-domain';
import { ShiftLengthUnit } from '@alert-ingestion/contracts';

// The rows of the on-call tables and how they read as the domain's stored shapes. bigint columns
// arrive as decimal strings, timestamptz as Date; local times are read as text (node-postgres would
// read a timestamp without zone in the process's own zone).

export const SCHEDULE_COLUMNS = `s.id, s.project_id, s.name, s.description, s.time_zone, s.calendar_token_created_at, s.created_at, s.updated_at`;

export interface ScheduleRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  time_zone: string;
  calendar_token_created_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function storedSchedule(row: ScheduleRow): StoredSchedule {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    description: row.description,
    timeZone: row.time_zone,
    calendarTokenCreatedAt: row.calendar_token_created_at?.getTime() ?? null,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

export const ROTATION_COLUMNS = `r.id, r.schedule_id, r.name, r.position, r.created_at, r.updated_at, r.deleted_at`;

export interface RotationRow {
  id: string;
  schedule_id: string;
  name: string;
  position: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const LOCAL = `'YYYY-MM-DD"T"HH24:MI:SS'`;

export const VERSION_COLUMNS = `v.id, v.rotation_id, v.effective_from, v.effective_until, v.time_zone,
  to_char(v.starts_at, ${LOCAL}) AS starts_at, to_char(v.ends_at, ${LOCAL}) AS ends_at, v.shift_length, v.shift_length_unit,
  to_char(v.active_period_start, 'HH24:MI') AS active_period_start, to_char(v.active_period_end, 'HH24:MI') AS active_period_end, v.participants`;

export interface VersionRow {
  id: string;
  rotation_id: string;
  effective_from: Date;
  effective_until: Date | null;
  time_zone: string;
  starts_at: string;
  ends_at: string | null;
  shift_length: number;
  shift_length_unit: ShiftLengthUnit;
  active_period_start: string | null;
  active_period_end: string | null;
  participants: Array<{ id: string; username: string }>;
}

export function storedVersion(row: VersionRow): StoredRotationVersion {
  return {
    id: row.id,
    effectiveFrom: row.effective_from.getTime(),
    effectiveUntil: row.effective_until?.getTime() ?? null,
    timeZone: row.time_zone,
    startsAt: Temporal.PlainDateTime.from(row.starts_at),
    endsAt: row.ends_at === null ? null : Temporal.PlainDateTime.from(row.ends_at),
    shiftLength: { length: row.shift_length, unit: row.shift_length_unit },
    activePeriod:
      row.active_period_start === null || row.active_period_end === null
        ? null
        : { start: Temporal.PlainTime.from(row.active_period_start), end: Temporal.PlainTime.from(row.active_period_end) },
    participants: row.participants.map((participant) => ({ userId: String(participant.id), username: participant.username })),
  };
}

/** A version's columns as written, in the order of versionValues' placeholders after rotation_id and effective_from. */
export function versionValues(rules: RotationRules): unknown[] {
  return [
    rules.timeZone,
    rules.startsAt.toString(),
    rules.endsAt?.toString() ?? null,
    rules.shiftLength.length,
    rules.shiftLength.unit,
    rules.activePeriod?.start.toString() ?? null,
    rules.activePeriod?.end.toString() ?? null,
    JSON.stringify(rules.participants.map(participantJson)),
  ];
}

export function participantJson(user: Participant): { id: string; username: string } {
  return { id: user.userId, username: user.username };
}

export interface RemovalRow {
  rotation_id: string;
  user_id: string;
  username: string;
  removed_at: Date;
}

/** Rotations with their versions and removals, each list as read. */
export function storedRotations(rotations: RotationRow[], versions: VersionRow[], removals: RemovalRow[]): StoredRotation[] {
  return rotations.map((row) => ({
    id: row.id,
    name: row.name,
    position: row.position,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    deletedAt: row.deleted_at?.getTime() ?? null,
    versions: versions.filter((version) => version.rotation_id === row.id).map(storedVersion),
    removedParticipants: removals
      .filter((removal) => removal.rotation_id === row.id)
      .map((removal) => ({ user: { userId: removal.user_id, username: removal.username }, removedAt: removal.removed_at.getTime() })),
  }));
}

export const OVERRIDE_COLUMNS = `o.id, o.schedule_id, o.rotation_id, o.user_id, o.username, o.starts_at, o.ends_at, o.created_by_id, o.created_by_username, o.created_at`;

export interface OverrideRow {
  id: string;
  schedule_id: string;
  rotation_id: string | null;
  user_id: string;
  username: string;
  starts_at: Date;
  ends_at: Date;
  created_by_id: string | null;
  created_by_username: string | null;
  created_at: Date;
}

export function storedOverride(row: OverrideRow): StoredOverride {
  return {
    id: row.id,
    rotationId: row.rotation_id,
    user: { userId: row.user_id, username: row.username },
    start: row.starts_at.getTime(),
    end: row.ends_at.getTime(),
    createdBy: row.created_by_id === null ? null : { userId: row.created_by_id, username: row.created_by_username ?? '' },
    createdAt: row.created_at.getTime(),
  };
}
