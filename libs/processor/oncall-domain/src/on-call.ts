import { ShiftSource } from '@alert-ingestion/contracts';
import { Eligibility, finalShifts, FinalShift, ScheduleTimeline } from './final-shifts';
import { Participant } from './rotation';
import { DAY_MS, EpochMs, Interval } from './zoned-time';

/** Why someone is on call: the final shift that puts them there. */
export interface OnCallReason {
  source: ShiftSource;
  rotationId: string | null;
  overrideId: string | null;
  /** The whole shift (not only its part around the instant asked about). */
  shift: Interval;
}

/** A member on call at an instant, with every reason (they may be on call in two rotations at once). */
export interface OnCallMember {
  user: Participant;
  reasons: OnCallReason[];
}

/** Who the final shifts put on call at `instant`, in the order of the shifts (each member once). */
export function membersOnCall(shifts: readonly FinalShift[], instant: EpochMs): OnCallMember[] {
  const members = new Map<string, OnCallMember>();
  for (const shift of shifts) {
    if (shift.start > instant || shift.end <= instant) continue;
    const member = members.get(shift.user.userId) ?? { user: shift.user, reasons: [] };
    member.reasons.push({ source: shift.source, rotationId: shift.rotationId, overrideId: shift.overrideId, shift: { start: shift.start, end: shift.end } });
    members.set(shift.user.userId, member);
  }
  return [...members.values()];
}

/** Half-widths of the windows looked at around an instant or a range, until its shifts fit in one. */
const REACH_MS = [7 * DAY_MS, 35 * DAY_MS, 400 * DAY_MS];

/**
 * The final shifts that overlap `window`, whole: computed over a wider window, widened until every
 * shift found there starts and ends inside it (up to 400 days either way), so that a shift reads the
 * same whatever window asks for it (the calendar feed's moving window, a reason's shift).
 */
export function wholeShifts(timeline: ScheduleTimeline, window: Interval, eligibility?: Eligibility): FinalShift[] {
  let overlapping: FinalShift[] = [];
  for (const reach of REACH_MS) {
    const wider = { start: window.start - reach, end: window.end + reach };
    overlapping = finalShifts(timeline, wider, eligibility).filter((shift) => shift.start < window.end && shift.end > window.start);
    if (!overlapping.some((shift) => shift.start <= wider.start || shift.end >= wider.end)) break;
  }
  return overlapping;
}

/** Who is on call in a schedule at `instant` (past or future) and why, each reason with its whole shift. */
export function onCallAt(timeline: ScheduleTimeline, instant: EpochMs, eligibility?: Eligibility): OnCallMember[] {
  return membersOnCall(wholeShifts(timeline, { start: instant, end: instant + 1 }, eligibility), instant);
}

/** A change of who is on call in a schedule: a handoff, or an override starting or ending. */
export interface OnCallChange {
  at: EpochMs;
  onCall: OnCallMember[];
  /** Who was on call just before. */
  previous: Participant[];
}

/**
 * The changes of who is on call after `from` up to and including `to`, given who was on call at
 * `from` (`previous`): at every instant where a final shift starts or ends and the set of members on
 * call differs from the one before it. A handoff from a member to the same member is no change.
 */
export function onCallChanges(timeline: ScheduleTimeline, from: EpochMs, to: EpochMs, previous: readonly Participant[], eligibility?: Eligibility): OnCallChange[] {
  if (to <= from) return [];
  const window = { start: from - REACH_MS[0], end: to + REACH_MS[0] };
  const shifts = finalShifts(timeline, window, eligibility);
  const instants = [...new Set(shifts.flatMap((shift) => [shift.start, shift.end]))].filter((instant) => instant > from && instant <= to).sort((a, b) => a - b);
  const changes: OnCallChange[] = [];
  let current = [...previous];
  for (const at of instants) {
    let onCall = membersOnCall(shifts, at);
    if (sameMembers(onCall.map((member) => member.user), current)) continue;
    // Shifts that reach past the window are read again whole.
    if (onCall.some(({ reasons }) => reasons.some(({ shift }) => shift.start <= window.start || shift.end >= window.end))) onCall = onCallAt(timeline, at, eligibility);
    changes.push({ at, onCall, previous: current });
    current = onCall.map((member) => member.user);
  }
  return changes;
}

function sameMembers(a: readonly Participant[], b: readonly Participant[]): boolean {
  const ids = new Set(a.map((user) => user.userId));
  return ids.size === new Set(b.map((user) => user.userId)).size && b.every((user) => ids.has(user.userId));
}
