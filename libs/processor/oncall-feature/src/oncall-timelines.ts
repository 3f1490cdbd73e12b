import { AccessReader } from '@alert-ingestion/access';
import { OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import { DAY_MS, Eligibility, EpochMs, Interval, rotationNames, RotationNames, scheduleNotFound, ScheduleTimeline, scheduleTimeline, StoredSchedule } from '@alert-ingestion/oncall-domain';
import { DomainError } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { refusalError } from '@alert-ingestion/alerts-feature';

/** How far beyond a window its timeline is read: shifts are read whole up to 400 days either way (wholeShifts). */
const WHOLE_SHIFT_REACH_MS = 401 * DAY_MS;

/** A schedule's timeline as every view reads it: its rotations and overrides, their names, and who may be on call. */
export interface ScheduleReading {
  timeline: ScheduleTimeline;
  names: RotationNames;
  eligibility: Eligibility;
}

/**
 * The reads every on-call view starts from: a schedule's rotations and overrides around a window,
 * and the project's members (from now on, only members are on call: access control's reader).
 */
@Injectable()
export class OncallTimelines {
  constructor(
    private readonly repository: OncallSchedulesRepository,
    private readonly access: AccessReader,
  ) {}

  /** The schedule, or its 404 (also for text that is no id). */
  async schedule(projectId: string, scheduleId: string): Promise<StoredSchedule> {
    const schedule = await this.repository.find(projectId, scheduleId);
    if (!schedule) throw scheduleNotFoundError(scheduleId);
    return schedule;
  }

  /** The project's members, id to username. */
  async members(projectId: string): Promise<Map<string, string>> {
    const members = await this.access.projectMembers(BigInt(projectId), 'guest');
    return new Map(members.map((member) => [member.id, member.username]));
  }

  /** Each schedule's reading for shifts within `window` (read whole), with `now` for who may be on call. */
  async read(projectId: string, scheduleIds: readonly string[], window: Interval, now: EpochMs): Promise<Map<string, ScheduleReading>> {
    const [timelines, members] = await Promise.all([
      this.repository.timelines(scheduleIds, { start: window.start - WHOLE_SHIFT_REACH_MS, end: window.end + WHOLE_SHIFT_REACH_MS }),
      this.members(projectId),
    ]);
    const eligibility: Eligibility = { now, isMember: (userId) => members.has(userId) };
    return new Map(
      scheduleIds.map((id) => {
        const { rotations, overrides } = timelines.get(id) ?? { rotations: [], overrides: [] };
        return [id, { timeline: scheduleTimeline(rotations, overrides), names: rotationNames(rotations), eligibility }];
      }),
    );
  }

  async readOne(projectId: string, scheduleId: string, window: Interval, now: EpochMs): Promise<ScheduleReading> {
    return (await this.read(projectId, [scheduleId], window, now)).get(scheduleId) as ScheduleReading;
  }
}

export function scheduleNotFoundError(scheduleId: string): DomainError {
  return refusalError(scheduleNotFound(scheduleId));
}
