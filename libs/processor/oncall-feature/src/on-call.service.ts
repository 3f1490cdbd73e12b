import { OnCallQueryDto, ShiftsQueryDto } from '@alert-ingestion/alerts-api';
import { OncallGapView, OncallShiftView, OnCallView } from '@alert-ingestion/contracts';
import { BadRequestError } from '@alert-ingestion/http';
import { OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import { DAY_MS, EpochMs, finalShifts, gapsIn, gapView, onCallAt, onCallView, parseScheduleTime, shiftView, StoredSchedule } from '@alert-ingestion/oncall-domain';
import { Injectable } from '@nestjs/common';
import { OncallTimelines } from './oncall-timelines';

/** The longest range of the shift list. */
export const MAX_SHIFTS_RANGE_MS = 35 * DAY_MS;
/** How far ahead gaps are looked for. */
export const GAPS_AHEAD_MS = 7 * DAY_MS;

/**
 * Who is on call (docs/api-guide.md "Who is on call"): at an instant, over a range (the final
 * shifts), across a project's schedules, and the gaps of the week ahead. All read the same final
 * shifts (oncall-domain finalShifts), so they agree with each other, the console and the calendar.
 */
@Injectable()
export class OnCallService {
  constructor(
    private readonly repository: OncallSchedulesRepository,
    private readonly timelines: OncallTimelines,
  ) {}

  /** Who is on call now in each schedule of the project, by name. */
  async projectOnCall(projectId: string, now = Date.now()): Promise<OnCallView[]> {
    const schedules = await this.repository.all(projectId);
    const readings = await this.timelines.read(projectId, schedules.map((schedule) => schedule.id), { start: now, end: now + 1 }, now);
    return schedules.flatMap((schedule) => {
      const reading = readings.get(schedule.id);
      return reading ? [onCallView(schedule, now, onCallAt(reading.timeline, now, reading.eligibility), reading.names)] : [];
    });
  }

  /** Who is on call in a schedule at `at` (now when absent), and why. */
  async scheduleOnCall(projectId: string, scheduleId: string, query: OnCallQueryDto, now = Date.now()): Promise<OnCallView> {
    const schedule = await this.timelines.schedule(projectId, scheduleId);
    const at = query.at === undefined ? now : instantParameter(query.at, schedule, 'at');
    const { timeline, names, eligibility } = await this.timelines.readOne(projectId, scheduleId, { start: at, end: at + 1 }, now);
    return onCallView(schedule, at, onCallAt(timeline, at, eligibility), names);
  }

  /** The final shifts overlapping a range (at most five weeks; two weeks from now by default), cut to it. */
  async shifts(projectId: string, scheduleId: string, query: ShiftsQueryDto, now = Date.now()): Promise<OncallShiftView[]> {
    const schedule = await this.timelines.schedule(projectId, scheduleId);
    const start = query.starts_at === undefined ? now : instantParameter(query.starts_at, schedule, 'starts_at');
    const end = query.ends_at === undefined ? start + 14 * DAY_MS : instantParameter(query.ends_at, schedule, 'ends_at');
    if (end <= start) throw new BadRequestError('validation_failed', 'ends_at must be after starts_at.', 'ends_at');
    if (end - start > MAX_SHIFTS_RANGE_MS) throw new BadRequestError('validation_failed', 'The range of shifts is at most five weeks (35 days).', 'ends_at');
    const { timeline, names, eligibility } = await this.timelines.readOne(projectId, scheduleId, { start, end }, now);
    const userId = query.user_id === undefined ? undefined : String(query.user_id);
    return finalShifts(timeline, { start, end }, eligibility)
      .filter((shift) => userId === undefined || shift.user.userId === userId)
      .map((shift) => shiftView(shift, names));
  }

  /** The gaps (nobody on call) in the next 7 days. */
  async gaps(projectId: string, scheduleId: string, now = Date.now()): Promise<OncallGapView[]> {
    await this.timelines.schedule(projectId, scheduleId);
    const window = { start: now, end: now + GAPS_AHEAD_MS };
    const { timeline, eligibility } = await this.timelines.readOne(projectId, scheduleId, window, now);
    return gapsIn(finalShifts(timeline, window, eligibility), window).map(gapView);
  }
}

/** A time of a query (an instant with an offset, or a local time in the schedule's zone), or its 400. */
function instantParameter(text: string, schedule: StoredSchedule, field: string): EpochMs {
  const instant = parseScheduleTime(text, schedule.timeZone);
  if (instant === undefined) {
    throw new BadRequestError('validation_failed', `${field} must be an instant with an offset (2026-03-30T07:00:00Z) or a local date and time in the schedule's time zone.`, field);
  }
  return instant;
}
