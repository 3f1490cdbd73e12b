import { CommandPlan, CommandRefusal, refusal, refuse, unchanged } from '@alert-ingestion/alerts-domain';
import { SHIFT_LENGTH_UNITS, ShiftLengthUnit } from '@alert-ingestion/contracts';
import { ActivePeriod, Participant, RotationRules, ShiftLength } from './rotation';
import { currentVersion, StoredOverride, StoredRotation, StoredRotationVersion, StoredSchedule } from './stored-schedule';
import { DAY_MS, EpochMs, instantOf, parseLocalDateTime, parseLocalTime, parseTimeZone } from './zoned-time';

// Every change to on-call schedules, rotations and overrides, decided by one pure plan over the
// stored state (libs/processor/README.md "Every change is a pure plan over the stored state").
// A change takes effect from `now`, the instant (a whole second) the data layer read with the state:
// shifts before it stay as they were.

/** The most participants a rotation takes. */
export const MAX_ROTATION_PARTICIPANTS = 100;
/** The longest shift of each unit: a year. */
export const MAX_SHIFT_LENGTH: Readonly<Record<ShiftLengthUnit, number>> = { hours: 8760, days: 365, weeks: 52 };
/** The longest override. */
export const MAX_OVERRIDE_MS = 366 * DAY_MS;

/** A rotation as the API asks for it: local times in the schedule's zone, not yet checked. */
export interface RotationRequest {
  name: string;
  starts_at: unknown;
  ends_at?: unknown;
  shift_length: number;
  shift_length_unit: ShiftLengthUnit;
  active_period?: { start_time: unknown; end_time: unknown } | null;
  participant_ids: readonly string[];
}

export type OncallEdit =
  | { kind: 'create_schedule'; projectId: string; name: string; description?: string | null; time_zone: unknown }
  | { kind: 'update_schedule'; name?: string; description?: string | null; time_zone?: unknown }
  | { kind: 'delete_schedule' }
  /** `members`: the project's members, id to username (participants must be members). */
  | { kind: 'create_rotation'; rotation: RotationRequest; members: ReadonlyMap<string, string> }
  | { kind: 'update_rotation'; rotationId: string; rotation: Partial<RotationRequest>; members: ReadonlyMap<string, string> }
  | { kind: 'delete_rotation'; rotationId: string }
  /** `userId` must be a member; times: an instant with an offset, or a local date and time in the schedule's zone. */
  | {
      kind: 'create_override';
      userId: string;
      rotationId: string | null;
      starts_at?: unknown;
      ends_at: unknown;
      createdBy: Participant | null;
      members: ReadonlyMap<string, string>;
    }
  | { kind: 'delete_override'; overrideId: string }
  | { kind: 'reset_calendar'; tokenSha256: string }
  /** Members who left the project leave every rotation (noted on it) and their overrides end. */
  | { kind: 'remove_departed'; members: ReadonlySet<string> };

/** What a command reads (the schedule locked) before its plan decides. */
export interface OncallState {
  /** The instant the change takes effect (the database's clock, read under the schedule's lock). */
  now: EpochMs;
  /** Undefined for a create, or when the project has no such schedule. */
  schedule?: StoredSchedule;
  /** The schedule's rotations that are not deleted, each with all its versions. */
  rotations: StoredRotation[];
  /** The schedule's overrides that have not ended (and the one a deletion names, ended or not). */
  overrides: StoredOverride[];
  /** Whether another schedule of the project has the name the edit asks for. */
  nameTaken: boolean;
}

export interface NewSchedule {
  projectId: string;
  name: string;
  description: string | null;
  timeZone: string;
}

export interface NewRotationVersion extends RotationRules {
  /** Null: the rotation this command inserts. */
  rotationId: string | null;
  effectiveFrom: EpochMs;
}

/** The rows a command writes, each list possibly empty. */
export interface OncallChanges {
  schedule?: { insert: NewSchedule } | { update: Partial<Pick<StoredSchedule, 'name' | 'description' | 'timeZone'>> } | { delete: true };
  rotationInsert?: { name: string; position: number };
  rotationUpdates: Array<{ id: string; name?: string; deletedAt?: EpochMs }>;
  /** Versions that stop at `at`; versions that begin at `now` or later are dropped instead (never in force). */
  versionEnds: Array<{ id: string; at: EpochMs }>;
  versionDrops: string[];
  versionInserts: NewRotationVersion[];
  overrideInsert?: Omit<StoredOverride, 'id'>;
  overrideEnds: Array<{ id: string; at: EpochMs }>;
  overrideDrops: string[];
  removals: Array<{ rotationId: string; user: Participant; removedAt: EpochMs }>;
  calendarTokenSha256?: string;
}

function changes(parts: Partial<OncallChanges>): OncallChanges {
  return { rotationUpdates: [], versionEnds: [], versionDrops: [], versionInserts: [], overrideEnds: [], overrideDrops: [], removals: [], ...parts };
}

const accepted = (parts: Partial<OncallChanges>): CommandPlan<OncallChanges> => ({ changes: changes(parts), events: [] });

function invalid(message: string, field?: string): { refused: CommandRefusal } {
  return refuse('invalid', 'validation_failed', message, field);
}

export function scheduleNotFound(id: string): CommandRefusal {
  return refusal('not_found', 'schedule_not_found', `On-call schedule ${id} not found.`);
}

export function rotationNotFound(id: string): CommandRefusal {
  return refusal('not_found', 'rotation_not_found', `Rotation ${id} not found in this schedule.`);
}

export function overrideNotFound(id: string): CommandRefusal {
  return refusal('not_found', 'override_not_found', `Override ${id} not found in this schedule.`);
}

/**
 * Decides an on-call edit over the stored state. The request is checked before the state is looked
 * at where it can be, so a bad request is a 400 whatever is stored.
 */
export function planOncallEdit(state: OncallState, edit: OncallEdit, scheduleId: string | null): CommandPlan<OncallChanges> {
  if (edit.kind === 'create_schedule') return planScheduleCreate(state, edit);
  const schedule = state.schedule;
  if (!schedule) return { refused: scheduleNotFound(scheduleId ?? '') };
  switch (edit.kind) {
    case 'update_schedule':
      return planScheduleUpdate(state, schedule, edit);
    case 'delete_schedule':
      return accepted({ schedule: { delete: true } });
    case 'create_rotation':
    case 'update_rotation':
      return planRotationEdit(state, schedule, edit);
    case 'delete_rotation':
      return planRotationDelete(state, edit.rotationId);
    case 'create_override':
      return planOverrideCreate(state, schedule, edit);
    case 'delete_override':
      return planOverrideDelete(state, edit.overrideId);
    case 'reset_calendar':
      return accepted({ calendarTokenSha256: edit.tokenSha256 });
    case 'remove_departed':
      return planDepartures(state, edit.members);
  }
}

function scheduleName(name: string): { ok: true; value: string } | { refused: CommandRefusal } {
  const trimmed = name.trim();
  return trimmed === '' ? invalid('name must not be blank.', 'name') : { ok: true, value: trimmed };
}

function planScheduleCreate(state: OncallState, edit: Extract<OncallEdit, { kind: 'create_schedule' }>): CommandPlan<OncallChanges> {
  const name = scheduleName(edit.name);
  if ('refused' in name) return name;
  const zone = parseTimeZone(edit.time_zone);
  if (!zone.ok) return invalid(zone.message, 'time_zone');
  if (state.nameTaken) return nameTaken(name.value);
  return accepted({ schedule: { insert: { projectId: edit.projectId, name: name.value, description: edit.description ?? null, timeZone: zone.value } } });
}

function nameTaken(name: string): { refused: CommandRefusal } {
  return refuse('conflict', 'schedule_name_taken', `The project already has an on-call schedule named ${JSON.stringify(name)}.`, 'name');
}

/** A schedule's name and description change alone; a new zone is a new version of every rotation, from now (their local times now read in it). */
function planScheduleUpdate(state: OncallState, schedule: StoredSchedule, edit: Extract<OncallEdit, { kind: 'update_schedule' }>): CommandPlan<OncallChanges> {
  const name = edit.name === undefined ? undefined : scheduleName(edit.name);
  if (name && 'refused' in name) return name;
  const zone = edit.time_zone === undefined ? undefined : parseTimeZone(edit.time_zone);
  if (zone && !zone.ok) return invalid(zone.message, 'time_zone');
  const update: Partial<Pick<StoredSchedule, 'name' | 'description' | 'timeZone'>> = {};
  if (name && name.value !== schedule.name) {
    if (state.nameTaken) return nameTaken(name.value);
    update.name = name.value;
  }
  if (edit.description !== undefined && edit.description !== schedule.description) update.description = edit.description;
  const parts: Partial<OncallChanges> = {};
  if (zone && zone.value !== schedule.timeZone) {
    update.timeZone = zone.value;
    const versions = state.rotations.flatMap((rotation) => {
      const current = currentVersion(rotation);
      return current && current.effectiveUntil === null ? [{ rotationId: rotation.id, current }] : [];
    });
    Object.assign(parts, newVersions(versions.map(({ rotationId, current }) => ({ rotationId, current, rules: { ...current, timeZone: zone.value } })), state.now));
  }
  if (Object.keys(update).length === 0) return unchanged();
  return accepted({ ...parts, schedule: { update } });
}

/** New versions of rotations from `now`: the current one ends (or is dropped, if it begins no earlier). */
function newVersions(replacing: Array<{ rotationId: string; current: StoredRotationVersion | undefined; rules: RotationRules }>, now: EpochMs): Partial<OncallChanges> {
  const versionEnds: OncallChanges['versionEnds'] = [];
  const versionDrops: string[] = [];
  const versionInserts: NewRotationVersion[] = [];
  for (const { rotationId, current, rules } of replacing) {
    if (current && current.effectiveFrom >= now) versionDrops.push(current.id);
    else if (current && current.effectiveUntil === null) versionEnds.push({ id: current.id, at: now });
    versionInserts.push({ ...rulesOnly(rules), rotationId, effectiveFrom: now });
  }
  return { versionEnds, versionDrops, versionInserts };
}

function rulesOnly(rules: RotationRules): RotationRules {
  const { timeZone, startsAt, endsAt, shiftLength, activePeriod, participants } = rules;
  return { timeZone, startsAt, endsAt, shiftLength, activePeriod, participants };
}

/** The rules a rotation request gives, checked: local times, shift length, active period, participants. */
export function rotationRules(request: RotationRequest, timeZone: string, members: ReadonlyMap<string, string>): { ok: true; rules: RotationRules } | { refused: CommandRefusal } {
  const startsAt = parseLocalDateTime(request.starts_at);
  const localFormat = "a local date and time in the schedule's time zone, without an offset, such as 2026-03-30T09:00";
  if (!startsAt) return invalid(`starts_at must be ${localFormat}.`, 'starts_at');
  const endsAt = request.ends_at === undefined || request.ends_at === null ? null : parseLocalDateTime(request.ends_at);
  if (endsAt === undefined) return invalid(`ends_at must be ${localFormat}, or null.`, 'ends_at');
  if (endsAt && Temporal.PlainDateTime.compare(endsAt, startsAt) <= 0) return invalid('ends_at must be after starts_at.', 'ends_at');
  if (!SHIFT_LENGTH_UNITS.includes(request.shift_length_unit)) return invalid(`shift_length_unit must be one of ${SHIFT_LENGTH_UNITS.join(', ')}.`, 'shift_length_unit');
  const shiftLength: ShiftLength = { length: request.shift_length, unit: request.shift_length_unit };
  const longest = MAX_SHIFT_LENGTH[shiftLength.unit];
  if (!Number.isInteger(shiftLength.length) || shiftLength.length < 1 || shiftLength.length > longest) {
    return invalid(`shift_length must be a whole number of ${shiftLength.unit} from 1 to ${longest}.`, 'shift_length');
  }
  const activePeriod = checkedActivePeriod(request.active_period, shiftLength.unit);
  if ('refused' in activePeriod) return activePeriod;
  const participants = checkedParticipants(request.participant_ids, members);
  if ('refused' in participants) return participants;
  return { ok: true, rules: { timeZone, startsAt, endsAt, shiftLength, activePeriod: activePeriod.value, participants: participants.value } };
}

function checkedActivePeriod(period: RotationRequest['active_period'], unit: ShiftLengthUnit): { value: ActivePeriod | null } | { refused: CommandRefusal } {
  if (period === undefined || period === null) return { value: null };
  if (unit === 'hours') return invalid('An hourly rotation has no active period: shifts of hours count elapsed time around the clock.', 'active_period');
  const start = parseLocalTime(period.start_time);
  if (!start) return invalid('active_period.start_time must be a local time such as 09:00.', 'active_period.start_time');
  const end = parseLocalTime(period.end_time);
  if (!end) return invalid('active_period.end_time must be a local time such as 17:00.', 'active_period.end_time');
  if (Temporal.PlainTime.compare(start, end) === 0) return invalid('active_period.end_time must differ from start_time (no active period: on call around the clock).', 'active_period.end_time');
  return { value: { start, end } };
}

function checkedParticipants(ids: readonly string[], members: ReadonlyMap<string, string>): { value: Participant[] } | { refused: CommandRefusal } {
  if (ids.length === 0 || ids.length > MAX_ROTATION_PARTICIPANTS) {
    return invalid(`participant_ids must name from 1 to ${MAX_ROTATION_PARTICIPANTS} project members.`, 'participant_ids');
  }
  const seen = new Set<string>();
  const participants: Participant[] = [];
  for (const [index, userId] of ids.entries()) {
    if (seen.has(userId)) return invalid(`participant_ids names user ${userId} twice.`, `participant_ids[${index}]`);
    seen.add(userId);
    const username = members.get(userId);
    if (username === undefined) return invalid(`User ${userId} is not a member of the project.`, `participant_ids[${index}]`);
    participants.push({ userId, username });
  }
  return { value: participants };
}

/** The rules as a request would give them: what an update starts from. */
function asRequest(rules: RotationRules): Omit<RotationRequest, 'name'> {
  return {
    starts_at: rules.startsAt.toString(),
    ends_at: rules.endsAt?.toString() ?? null,
    shift_length: rules.shiftLength.length,
    shift_length_unit: rules.shiftLength.unit,
    active_period: rules.activePeriod && { start_time: rules.activePeriod.start.toString({ smallestUnit: 'minute' }), end_time: rules.activePeriod.end.toString({ smallestUnit: 'minute' }) },
    participant_ids: rules.participants.map((participant) => participant.userId),
  };
}

function sameRules(a: RotationRules, b: RotationRules): boolean {
  return JSON.stringify(asRequest(a)) === JSON.stringify(asRequest(b)) && a.timeZone === b.timeZone;
}

/**
 * A new rotation (its first version in force from now), or a change to one: a new name alone
 * changes the rotation; new rules are a new version from now.
 */
function planRotationEdit(
  state: OncallState,
  schedule: StoredSchedule,
  edit: Extract<OncallEdit, { kind: 'create_rotation' | 'update_rotation' }>,
): CommandPlan<OncallChanges> {
  const stored = edit.kind === 'update_rotation' ? state.rotations.find((rotation) => rotation.id === edit.rotationId) : undefined;
  const current = stored && currentVersion(stored);
  // What the update leaves out stays as it is (null is a value: no end, no active period).
  const given = Object.fromEntries(Object.entries(edit.rotation).filter(([, value]) => value !== undefined));
  const request = { ...(current ? asRequest(current) : {}), name: stored?.name ?? '', ...given } as RotationRequest;
  const name = request.name.trim();
  if (name === '') return invalid('name must not be blank.', 'name');
  const checked = rotationRules(request, schedule.timeZone, edit.members);
  if ('refused' in checked) return checked;
  if (edit.kind === 'update_rotation' && !stored) return { refused: rotationNotFound(edit.rotationId) };
  if (state.rotations.some((rotation) => rotation.id !== stored?.id && rotation.name === name)) {
    return refuse('conflict', 'rotation_name_taken', `The schedule already has a rotation named ${JSON.stringify(name)}.`, 'name');
  }
  if (!stored) {
    const position = Math.max(0, ...state.rotations.map((rotation) => rotation.position + 1));
    return accepted({ rotationInsert: { name, position }, versionInserts: [{ ...checked.rules, rotationId: null, effectiveFrom: state.now }] });
  }
  const renamed = name !== stored.name;
  const rulesChanged = !current || current.effectiveUntil !== null || !sameRules(current, checked.rules);
  if (!renamed && !rulesChanged) return unchanged();
  return accepted({
    rotationUpdates: [{ id: stored.id, ...(renamed && { name }) }],
    ...(rulesChanged ? newVersions([{ rotationId: stored.id, current, rules: checked.rules }], state.now) : {}),
  });
}

/** The rotation stops now (its past shifts stay); its overrides under way end now, later ones go. */
function planRotationDelete(state: OncallState, rotationId: string): CommandPlan<OncallChanges> {
  const rotation = state.rotations.find((candidate) => candidate.id === rotationId);
  if (!rotation) return { refused: rotationNotFound(rotationId) };
  const current = currentVersion(rotation);
  const ending = current ? stopVersions([current], state.now) : {};
  return accepted({
    rotationUpdates: [{ id: rotation.id, deletedAt: state.now }],
    ...ending,
    ...stopOverrides(state.overrides.filter((override) => override.rotationId === rotation.id), state.now),
  });
}

function stopVersions(versions: StoredRotationVersion[], now: EpochMs): Pick<OncallChanges, 'versionEnds' | 'versionDrops'> {
  const live = versions.filter((version) => version.effectiveUntil === null || version.effectiveUntil > now);
  return {
    versionEnds: live.filter((version) => version.effectiveFrom < now).map((version) => ({ id: version.id, at: now })),
    versionDrops: live.filter((version) => version.effectiveFrom >= now).map((version) => version.id),
  };
}

/** Overrides under way end now; those yet to start are dropped. */
function stopOverrides(overrides: StoredOverride[], now: EpochMs): Pick<OncallChanges, 'overrideEnds' | 'overrideDrops'> {
  const live = overrides.filter((override) => override.end > now);
  return {
    overrideEnds: live.filter((override) => override.start < now).map((override) => ({ id: override.id, at: now })),
    overrideDrops: live.filter((override) => override.start >= now).map((override) => override.id),
  };
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A time as the API takes it for overrides and queries: an instant with an offset
 * (`2026-03-29T01:00:00Z`), or a local date and time in the schedule's zone (`2026-03-29T03:00`).
 */
export function parseScheduleTime(text: unknown, timeZone: string): EpochMs | undefined {
  if (typeof text !== 'string') return undefined;
  const local = parseLocalDateTime(text);
  if (local) return instantOf(local, timeZone);
  if (!INSTANT.test(text)) return undefined;
  try {
    return Temporal.Instant.from(text).epochMilliseconds;
  } catch {
    return undefined;
  }
}

/**
 * A member takes over a rotation's (or the schedule's) on-call from `starts_at` (now when absent
 * or past) to `ends_at`, which is in the future, after the start and at most 366 days later.
 */
function planOverrideCreate(state: OncallState, schedule: StoredSchedule, edit: Extract<OncallEdit, { kind: 'create_override' }>): CommandPlan<OncallChanges> {
  const timeFormat = "an instant with an offset (2026-03-30T07:00:00Z) or a local date and time in the schedule's time zone (2026-03-30T09:00)";
  const requestedStart = edit.starts_at === undefined || edit.starts_at === null ? state.now : parseScheduleTime(edit.starts_at, schedule.timeZone);
  if (requestedStart === undefined) return invalid(`starts_at must be ${timeFormat}.`, 'starts_at');
  const givenEnd = parseScheduleTime(edit.ends_at, schedule.timeZone);
  if (givenEnd === undefined) return invalid(`ends_at must be ${timeFormat}.`, 'ends_at');
  const end = wholeSecond(givenEnd);
  // Whole seconds, as every instant of a schedule (the calendar feed's precision).
  const start = Math.max(wholeSecond(requestedStart), state.now);
  if (end <= state.now) return invalid('ends_at must be in the future.', 'ends_at');
  if (end <= start) return invalid('ends_at must be after starts_at.', 'ends_at');
  if (end - start > MAX_OVERRIDE_MS) return invalid('An override lasts at most 366 days.', 'ends_at');
  const username = edit.members.get(edit.userId);
  if (username === undefined) return invalid(`User ${edit.userId} is not a member of the project.`, 'user_id');
  if (edit.rotationId !== null && !state.rotations.some((rotation) => rotation.id === edit.rotationId)) {
    return invalid(`The schedule has no rotation ${edit.rotationId}.`, 'rotation_id');
  }
  const user = { userId: edit.userId, username };
  return accepted({ overrideInsert: { rotationId: edit.rotationId, user, start, end, createdBy: edit.createdBy, createdAt: state.now } });
}

function wholeSecond(instant: EpochMs): EpochMs {
  return Math.floor(instant / 1000) * 1000;
}

/** Deleting an override gives the rotation back: one under way ends now, one yet to start goes; an ended one is history. */
function planOverrideDelete(state: OncallState, overrideId: string): CommandPlan<OncallChanges> {
  const override = state.overrides.find((candidate) => candidate.id === overrideId);
  if (!override) return { refused: overrideNotFound(overrideId) };
  if (override.end <= state.now) return refuse('conflict', 'override_ended', `Override ${overrideId} has ended: it stays in the schedule's history.`);
  return accepted(stopOverrides([override], state.now));
}

/** Members no longer in the project leave every rotation from now (a new version, and a note on it) and their overrides stop. */
function planDepartures(state: OncallState, members: ReadonlySet<string>): CommandPlan<OncallChanges> {
  const removals: OncallChanges['removals'] = [];
  const replacing: Parameters<typeof newVersions>[0] = [];
  for (const rotation of state.rotations) {
    const current = currentVersion(rotation);
    if (!current || current.effectiveUntil !== null) continue;
    const departed = current.participants.filter((participant) => !members.has(participant.userId));
    if (departed.length === 0) continue;
    removals.push(...departed.map((user) => ({ rotationId: rotation.id, user, removedAt: state.now })));
    replacing.push({ rotationId: rotation.id, current, rules: { ...current, participants: current.participants.filter((participant) => members.has(participant.userId)) } });
  }
  const overrides = stopOverrides(
    state.overrides.filter((override) => !members.has(override.user.userId)),
    state.now,
  );
  if (removals.length === 0 && overrides.overrideEnds.length === 0 && overrides.overrideDrops.length === 0) return unchanged();
  return accepted({ ...newVersions(replacing, state.now), removals, ...overrides });
}

/** Who asks for an override: a user (null: the administrator) and whether they manage schedules (maintainer+). */
export interface OverrideActor {
  userId: string | null;
  managesSchedules: boolean;
}

/** Developers create and delete overrides that put themselves on call; maintainers (and the administrator) any member's. */
export function mayOverrideFor(actor: OverrideActor, userId: string): boolean {
  return actor.managesSchedules || actor.userId === userId;
}
