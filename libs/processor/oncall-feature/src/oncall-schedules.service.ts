import { CreateOncallScheduleDto, CreateRotationDto, PreviewRotationDto, UpdateOncallScheduleDto, UpdateRotationDto } from '@alert-ingestion/alerts-api';
import { answered, refusalError } from '@alert-ingestion/alerts-feature';
import { OncallRotationView, OncallScheduleView, RotationPreviewShiftView } from '@alert-ingestion/contracts';
import { PageInfo, pageInfo, pageRequest, PaginationQueryDto } from '@alert-ingestion/http';
import { OncallEditAnswer, OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import {
  onCallAt,
  OncallEdit,
  previewShiftView,
  rotationNotFound,
  RotationRequest,
  rotationRules,
  rotationView,
  scheduleView,
  StoredSchedule,
  upcomingShifts,
} from '@alert-ingestion/oncall-domain';
import { Injectable } from '@nestjs/common';
import { OncallTimelines } from './oncall-timelines';
import { OncallEdits } from './oncall-edits';

export interface OncallSchedulePage {
  schedules: OncallScheduleView[];
  page: PageInfo;
}

/**
 * On-call schedules and their rotations (docs/api-guide.md "On-call schedules"): every change is a
 * command of the schedules repository (planOncallEdit), answered with the schedule or rotation as it
 * is now. Authorisation is the shared access control's (ALERTS_API's levels).
 */
@Injectable()
export class OncallSchedulesService {
  constructor(
    private readonly edits: OncallEdits,
    private readonly repository: OncallSchedulesRepository,
    private readonly timelines: OncallTimelines,
  ) {}

  async create(projectId: string, body: CreateOncallScheduleDto): Promise<OncallScheduleView> {
    const { name, description, time_zone } = body;
    const answer = await this.edit(projectId, null, { kind: 'create_schedule', projectId, name, description, time_zone });
    return this.find(projectId, answer.scheduleId);
  }

  async list(projectId: string, query: PaginationQueryDto, now = Date.now()): Promise<OncallSchedulePage> {
    const { page, perPage } = pageRequest(query);
    const { schedules, total } = await this.repository.list(projectId, page, perPage);
    return { schedules: await this.views(projectId, schedules, now), page: pageInfo(total, page, perPage) };
  }

  async find(projectId: string, scheduleId: string, now = Date.now()): Promise<OncallScheduleView> {
    const [view] = await this.views(projectId, [await this.timelines.schedule(projectId, scheduleId)], now);
    return view;
  }

  async update(projectId: string, scheduleId: string, body: UpdateOncallScheduleDto): Promise<OncallScheduleView> {
    const { name, description, time_zone } = body;
    await this.edit(projectId, scheduleId, { kind: 'update_schedule', name, description, time_zone });
    return this.find(projectId, scheduleId);
  }

  async remove(projectId: string, scheduleId: string): Promise<void> {
    await this.edit(projectId, scheduleId, { kind: 'delete_schedule' });
  }

  async createRotation(projectId: string, scheduleId: string, body: CreateRotationDto): Promise<OncallRotationView> {
    const members = await this.timelines.members(projectId);
    const answer = await this.edit(projectId, scheduleId, { kind: 'create_rotation', rotation: rotationRequest(body), members });
    return this.rotation(scheduleId, answer.rotationId ?? '');
  }

  async updateRotation(projectId: string, scheduleId: string, rotationId: string, body: UpdateRotationDto): Promise<OncallRotationView> {
    const members = await this.timelines.members(projectId);
    const { participant_ids, ...rest } = body;
    const rotation: Partial<RotationRequest> = { ...rest, ...(participant_ids !== undefined && { participant_ids: participant_ids.map(String) }) };
    await this.edit(projectId, scheduleId, { kind: 'update_rotation', rotationId, rotation, members });
    return this.rotation(scheduleId, rotationId);
  }

  async deleteRotation(projectId: string, scheduleId: string, rotationId: string): Promise<void> {
    await this.edit(projectId, scheduleId, { kind: 'delete_rotation', rotationId });
  }

  /** The next shifts the rules would give from now (or their start), in the schedule's zone; nothing is stored. */
  async preview(projectId: string, scheduleId: string, body: PreviewRotationDto, now = Date.now()): Promise<RotationPreviewShiftView[]> {
    const [schedule, members] = await Promise.all([this.timelines.schedule(projectId, scheduleId), this.timelines.members(projectId)]);
    const { count = 10, ...rules } = body;
    const checked = rotationRules(rotationRequest({ ...rules, name: 'preview' }), schedule.timeZone, members);
    if ('refused' in checked) throw refusalError(checked.refused);
    return upcomingShifts(checked.rules, now, count).map((shift) => previewShiftView(shift, schedule.timeZone));
  }

  private edit(projectId: string, scheduleId: string | null, edit: OncallEdit): Promise<OncallEditAnswer> {
    return this.edits.run(projectId, scheduleId, edit).then(answered);
  }

  private async rotation(scheduleId: string, rotationId: string): Promise<OncallRotationView> {
    const rotation = (await this.repository.liveRotations(scheduleId)).find((candidate) => candidate.id === rotationId);
    if (!rotation) throw refusalError(rotationNotFound(rotationId));
    return rotationView(rotation);
  }

  /** Schedules as the API shows them: rotations, and who is on call now. */
  private async views(projectId: string, schedules: StoredSchedule[], now: number): Promise<OncallScheduleView[]> {
    const ids = schedules.map((schedule) => schedule.id);
    const [readings, rotations] = await Promise.all([this.timelines.read(projectId, ids, { start: now, end: now + 1 }, now), this.repository.liveRotationsOf(ids)]);
    return schedules.map((schedule) => {
      const reading = readings.get(schedule.id);
      const onCall = reading ? onCallAt(reading.timeline, now, reading.eligibility) : [];
      return scheduleView(schedule, rotations.get(schedule.id) ?? [], onCall, reading?.names ?? new Map());
    });
  }
}

/** A rotation body as the domain takes it (user ids as decimal strings). */
function rotationRequest(body: CreateRotationDto): RotationRequest {
  return { ...body, participant_ids: body.participant_ids.map(String) };
}
