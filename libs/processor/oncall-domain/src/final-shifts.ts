import { compareIds } from '@alert-ingestion/alerts-domain';
import { ShiftSource } from '@alert-ingestion/contracts';
import { BaseShift, Participant, rotationShifts, RotationTimeline } from './rotation';
import { EpochMs, Interval } from './zoned-time';

// The final shifts of a schedule: its rotations' shifts with the overrides applied. Every view of
// who is on call (the API's "who is on call" and shift list, the console, the calendar feed, the
// events) is made of these, so they always agree.

/**
 * A member taking over the on-call of one rotation (`rotationId`) or of the whole schedule (null)
 * from `start` to `end`, whoever the rotation would have put on call: across handoffs, before the
 * rotation starts, in an inactive period. Ids grow with creation: the higher id is the newer.
 */
export interface Override extends Interval {
  id: string;
  rotationId: string | null;
  user: Participant;
}

/** Someone on call for an interval, and why: a rotation's shift, or an override (of a rotation, or of the schedule when rotationId is null). */
export interface FinalShift extends Interval {
  user: Participant;
  source: ShiftSource;
  rotationId: string | null;
  overrideId: string | null;
}

/** What a schedule's final shifts are made of. */
export interface ScheduleTimeline {
  /** In the schedule's order; deleted rotations too, for the time they were in force. */
  rotations: readonly RotationTimeline[];
  overrides: readonly Override[];
}

/**
 * Who may be on call from `now` on: members only. Before `now` the shifts stand as they were (a
 * member removed since was on call then); from `now` on, a shift or an override of someone who is
 * no longer a project member counts for nothing, and what it covered falls through to the next
 * rule (a rotation override to the rotation's shift, a shift to nobody).
 */
export interface Eligibility {
  now: EpochMs;
  isMember(userId: string): boolean;
}

/** One rule's pick for one rotation (or the whole schedule) over an elementary interval. */
interface Pick {
  /** The rotation the pick is for; null: the whole schedule (a schedule override). */
  slot: string | null;
  user: Participant;
  source: ShiftSource;
  overrideId: string | null;
  /** Same key on both sides of a boundary: the same shift goes on (a version change that changed nothing for it). */
  key: string;
}

/**
 * The final shifts of a schedule within `window`, ordered by start (then by rotation order, a
 * schedule override first). The rules, at every instant:
 * - a schedule override in effect takes over the whole schedule: its member alone is on call (the
 *   newest one where several overlap);
 * - otherwise each rotation puts on call the member of its newest override in effect, or else the
 *   participant whose shift it is (none outside its shifts and active period);
 * - several rotations at once put all their members on call.
 * Consecutive instants with the same pick make one shift; a handoff to the same member starts a new one.
 */
export function finalShifts(timeline: ScheduleTimeline, window: Interval, eligibility?: Eligibility): FinalShift[] {
  if (window.end <= window.start) return [];
  const base = new Map(timeline.rotations.map((rotation) => [rotation.id, rotationShifts(rotation, window)]));
  const overrides = timeline.overrides
    .filter((override) => override.start < window.end && override.end > window.start && override.end > override.start)
    .sort((a, b) => compareIds(b.id, a.id));
  const boundaries = new Set<EpochMs>([window.start, window.end]);
  for (const shifts of base.values()) for (const shift of shifts) boundaries.add(shift.start).add(shift.end);
  for (const override of overrides) boundaries.add(Math.max(override.start, window.start)).add(Math.min(override.end, window.end));
  if (eligibility && eligibility.now > window.start && eligibility.now < window.end) boundaries.add(eligibility.now);
  const instants = [...boundaries].sort((a, b) => a - b);

  const cursors = new Map<string, number>([...base.keys()].map((id) => [id, 0]));
  const open = new Map<string | null, FinalShift & { key: string }>();
  const done: Array<FinalShift & { order: number }> = [];
  const order = new Map<string | null, number>([[null, -1], ...timeline.rotations.map((rotation, index): [string, number] => [rotation.id, index])]);
  const close = (slot: string | null) => {
    const shift = open.get(slot);
    if (!shift) return;
    const { key: _key, ...finished } = shift;
    done.push({ ...finished, order: order.get(slot) ?? 0 });
    open.delete(slot);
  };

  for (let i = 0; i + 1 < instants.length; i++) {
    const start = instants[i];
    const end = instants[i + 1];
    const eligible = (user: Participant) => !eligibility || start < eligibility.now || eligibility.isMember(user.userId);
    const inEffect = (override: Override) => override.start <= start && override.end > start && eligible(override.user);
    const picks: Pick[] = [];
    const scheduleOverride = overrides.find((override) => override.rotationId === null && inEffect(override));
    if (scheduleOverride) {
      picks.push(overridePick(null, scheduleOverride));
    } else {
      for (const rotation of timeline.rotations) {
        const override = overrides.find((candidate) => candidate.rotationId === rotation.id && inEffect(candidate));
        if (override) {
          picks.push(overridePick(rotation.id, override));
          continue;
        }
        const shift = shiftAt(base.get(rotation.id) ?? [], cursors, rotation.id, start);
        if (shift && eligible(shift.participant)) {
          picks.push({ slot: rotation.id, user: shift.participant, source: 'rotation', overrideId: null, key: `shift:${shift.participant.userId}:${shift.handoffAt}` });
        }
      }
    }
    const picked = new Set(picks.map((pick) => pick.slot));
    for (const slot of [...open.keys()]) if (!picked.has(slot)) close(slot);
    for (const pick of picks) {
      const current = open.get(pick.slot);
      if (current && current.key === pick.key && current.end === start) {
        current.end = end;
        continue;
      }
      close(pick.slot);
      open.set(pick.slot, { start, end, user: pick.user, source: pick.source, rotationId: pick.slot, overrideId: pick.overrideId, key: pick.key });
    }
  }
  for (const slot of [...open.keys()]) close(slot);
  return done.sort((a, b) => a.start - b.start || a.order - b.order).map(({ order: _order, ...shift }) => shift);
}

function overridePick(slot: string | null, override: Override): Pick {
  return { slot, user: override.user, source: 'override', overrideId: override.id, key: `override:${override.id}` };
}

/** The base shift of a rotation covering `instant` (shifts in order, visited once: the cursor only moves forward). */
function shiftAt(shifts: readonly BaseShift[], cursors: Map<string, number>, rotationId: string, instant: EpochMs): BaseShift | undefined {
  let index = cursors.get(rotationId) ?? 0;
  while (index < shifts.length && shifts[index].end <= instant) index++;
  cursors.set(rotationId, index);
  const shift = shifts[index];
  return shift && shift.start <= instant ? shift : undefined;
}

/** The parts of `window` where nobody is on call, in order. */
export function gapsIn(shifts: readonly FinalShift[], window: Interval): Interval[] {
  const gaps: Interval[] = [];
  let covered = window.start;
  for (const shift of [...shifts].sort((a, b) => a.start - b.start)) {
    if (shift.start > covered) gaps.push({ start: covered, end: Math.min(shift.start, window.end) });
    covered = Math.max(covered, shift.end);
    if (covered >= window.end) break;
  }
  if (covered < window.end) gaps.push({ start: covered, end: window.end });
  return gaps.filter((gap) => gap.end > gap.start);
}
