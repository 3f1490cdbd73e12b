import { ShiftLengthUnit } from '@alert-ingestion/contracts';
import { DAY_MS, EpochMs, HOUR_MS, instantOf, Interval } from './zoned-time';

// Rotations (docs/api-guide.md "On-call schedules"): ordered participants taking shifts of N hours,
// days or weeks in turn from a local start, optionally only within a daily active period.

export interface ShiftLength {
  length: number;
  unit: ShiftLengthUnit;
}

/** A daily window of local time; an end before the start runs past midnight (22:00-06:00). */
export interface ActivePeriod {
  start: Temporal.PlainTime;
  end: Temporal.PlainTime;
}

/** A project member taking part in a rotation (usernames never change, so they are kept with the id). */
export interface Participant {
  userId: string;
  username: string;
}

/** What a rotation is while one version of it is in force. */
export interface RotationRules {
  timeZone: string;
  /** The first handoff, in local time; every handoff of days and weeks is at its clock time. */
  startsAt: Temporal.PlainDateTime;
  /** No shift after this local time; null: the rotation goes on. */
  endsAt: Temporal.PlainDateTime | null;
  shiftLength: ShiftLength;
  /** Null: on call around the clock. Never on an hourly rotation. */
  activePeriod: ActivePeriod | null;
  /** In turn: shift k belongs to participants[k mod n]. None: the rotation puts nobody on call. */
  participants: readonly Participant[];
}

/**
 * A version of a rotation: its rules from `effectiveFrom` until `effectiveUntil` (null: still in
 * force). A change to a rotation takes effect from when it is made, as in GitLab: the shifts before
 * it stay as they were, so what was on call in the past never changes.
 */
export interface RotationVersion extends RotationRules {
  effectiveFrom: EpochMs;
  effectiveUntil: EpochMs | null;
}

/** A shift of a rotation as its rules alone make it (before overrides): who, when, and the handoff that began it. */
export interface BaseShift extends Interval {
  participant: Participant;
  /** The instant of the handoff that began the shift (a shift cut by an active period keeps it). */
  handoffAt: EpochMs;
}

/** Handoffs of a version's rules: handoff(k) is when shift k begins; k counts from 0 at the rotation's start. */
export class Handoffs {
  private readonly first: EpochMs;
  private readonly nominalMs: number;

  constructor(private readonly rules: RotationRules) {
    this.first = instantOf(rules.startsAt, rules.timeZone);
    const { length, unit } = rules.shiftLength;
    this.nominalMs = length * { hours: HOUR_MS, days: DAY_MS, weeks: 7 * DAY_MS }[unit];
  }

  /** When shift k begins: hours count elapsed time; days and weeks hand over at the start's local clock time. */
  at(k: number): EpochMs {
    const { length, unit } = this.rules.shiftLength;
    if (unit === 'hours') return this.first + k * this.nominalMs;
    const days = k * length * (unit === 'weeks' ? 7 : 1);
    return instantOf(this.rules.startsAt.add({ days }), this.rules.timeZone);
  }

  /** The shift under way at `instant`: the largest k whose handoff is at or before it (negative before the start). */
  indexAt(instant: EpochMs): number {
    // A daylight-saving change moves a local handoff by an hour or so: the estimate is off by one at most.
    let k = Math.floor((instant - this.first) / this.nominalMs);
    while (this.at(k) > instant) k--;
    while (this.at(k + 1) <= instant) k++;
    return k;
  }

  get start(): EpochMs {
    return this.first;
  }
}

/** When a version's rules stop putting anyone on call: its end time, or never. */
function rulesEnd(rules: RotationRules): EpochMs {
  return rules.endsAt === null ? Infinity : instantOf(rules.endsAt, rules.timeZone);
}

/**
 * The shifts of one version of a rotation within `window`, in order: each shift of its rules, cut to
 * the version's time in force, the rotation's start and end, the window and the active period.
 */
export function versionShifts(version: RotationVersion, window: Interval): BaseShift[] {
  if (version.participants.length === 0) return [];
  const handoffs = new Handoffs(version);
  const from = Math.max(window.start, version.effectiveFrom, handoffs.start);
  const to = Math.min(window.end, version.effectiveUntil ?? Infinity, rulesEnd(version));
  const shifts: BaseShift[] = [];
  if (from >= to) return shifts;
  for (let k = handoffs.indexAt(from); ; k++) {
    const handoffAt = handoffs.at(k);
    if (handoffAt >= to) break;
    const participant = version.participants[k % version.participants.length];
    const shift = { start: Math.max(handoffAt, from), end: Math.min(handoffs.at(k + 1), to) };
    for (const piece of version.activePeriod ? withinActivePeriod(shift, version.activePeriod, version.timeZone) : [shift]) {
      if (piece.end > piece.start) shifts.push({ ...piece, participant, handoffAt });
    }
  }
  return shifts;
}

/** The parts of `interval` within the daily active period, in order. */
export function withinActivePeriod(interval: Interval, period: ActivePeriod, timeZone: string): Interval[] {
  const overnight = Temporal.PlainTime.compare(period.end, period.start) <= 0;
  const firstDay = Temporal.Instant.fromEpochMilliseconds(interval.start).toZonedDateTimeISO(timeZone).toPlainDate().subtract({ days: 1 });
  const pieces: Interval[] = [];
  for (let day = firstDay; ; day = day.add({ days: 1 })) {
    const start = instantOf(day.toPlainDateTime(period.start), timeZone);
    if (start >= interval.end) break;
    const end = instantOf((overnight ? day.add({ days: 1 }) : day).toPlainDateTime(period.end), timeZone);
    const piece = { start: Math.max(start, interval.start), end: Math.min(end, interval.end) };
    if (piece.end > piece.start) pieces.push(piece);
  }
  return pieces;
}

/** A rotation with every version that may matter to a window (a deleted rotation keeps its past). */
export interface RotationTimeline {
  id: string;
  name: string;
  versions: readonly RotationVersion[];
}

/** The shifts of a rotation within `window`, in order, over all its versions. */
export function rotationShifts(rotation: RotationTimeline, window: Interval): BaseShift[] {
  return [...rotation.versions]
    .sort((a, b) => a.effectiveFrom - b.effectiveFrom)
    .flatMap((version) => versionShifts(version, window));
}

/**
 * The first `count` shifts of a rotation's rules from the one under way at `from` (or from its
 * start, if later), whole, as its form previews them: a daylight-saving change shows as a shift of
 * 23 or 25 hours, or as a moved local handoff.
 */
export function upcomingShifts(rules: RotationRules, from: EpochMs, count: number): BaseShift[] {
  const handoffs = new Handoffs(rules);
  const first = Math.max(0, handoffs.indexAt(from));
  const window = { start: handoffs.at(first), end: handoffs.at(first + count) };
  return versionShifts({ ...rules, effectiveFrom: -Infinity, effectiveUntil: null }, window).slice(0, count);
}
