import { OncallEvent } from '@alert-ingestion/contracts';
import { finalShifts, ScheduleTimeline } from './final-shifts';
import { onCallChanges } from './on-call';
import { oncallEvent, rotationNames } from './oncall-views';
import { Participant } from './rotation';
import { StoredSchedule } from './stored-schedule';
import { DAY_MS, EpochMs } from './zoned-time';

/** The most time one publishing transaction covers, so a schedule that was not looked at for long catches up in steps. */
export const HANDOFF_CATCH_UP_MS = 7 * DAY_MS;

/** What the handoff publisher reads of a schedule (locked) to publish its changes of who is on call. */
export interface HandoffState {
  /** The database's clock under the schedule's lock. */
  now: EpochMs;
  schedule: StoredSchedule;
  /** Every change up to here is published; `publishedOnCall` was on call then. */
  publishedUntil: EpochMs;
  publishedOnCall: Participant[];
  /** The schedule's rotations (deleted ones too) and overrides around (publishedUntil, now]. */
  timeline: ScheduleTimeline;
  /** The project's members, when known: from `publishedUntil` on, only they are on call. */
  members?: ReadonlySet<string>;
}

export interface HandoffPlan {
  /** One `oncall.shift_started` per change, in order. */
  events: Array<{ key: OncallEvent.OncallEventKey; value: OncallEvent.OncallEventValue }>;
  publishedUntil: EpochMs;
  publishedOnCall: Participant[];
  /** When to look again: at once while catching up, else the next start or end of a shift (at most a week on). */
  nextCheckAt: EpochMs;
}

/**
 * The changes of who is on call in a schedule since it was last published, up to now (or a week
 * further, while catching up): each becomes one event keyed by the schedule and the instant of the
 * change, and the schedule's progress moves to that point in the same commit, so every change is
 * published once, whichever processor publishes it and however often it restarts.
 */
export function planHandoffs(state: HandoffState): HandoffPlan {
  const until = Math.min(state.now, state.publishedUntil + HANDOFF_CATCH_UP_MS);
  const members = state.members;
  const eligibility = members && { now: state.publishedUntil, isMember: (userId: string) => members.has(userId) };
  const changes = onCallChanges(state.timeline, state.publishedUntil, until, state.publishedOnCall, eligibility);
  const names = rotationNames(state.timeline.rotations);
  const publishedOnCall = changes.length > 0 ? changes[changes.length - 1].onCall.map((member) => member.user) : state.publishedOnCall;
  return {
    events: changes.map((change) => oncallEvent(state.schedule, change, names)),
    publishedUntil: until,
    publishedOnCall,
    nextCheckAt: until < state.now ? state.now : nextChange(state.timeline, until, eligibility && { ...eligibility, now: until }),
  };
}

/** The next instant after `from` where a final shift starts or ends, looking a week ahead. */
function nextChange(timeline: ScheduleTimeline, from: EpochMs, eligibility?: { now: EpochMs; isMember(userId: string): boolean }): EpochMs {
  const horizon = from + HANDOFF_CATCH_UP_MS;
  const shifts = finalShifts(timeline, { start: from, end: horizon }, eligibility);
  return Math.min(horizon, ...shifts.flatMap((shift) => [shift.start, shift.end]).filter((instant) => instant > from));
}
