import { CurrentPrincipal, CurrentProject, PathId, Principal, ProjectAccess } from '@alert-ingestion/access';
import {
  ALERTS_API,
  ALERTS_API_BASE,
  AlertsApiRoute,
  CalendarFeedQueryDto,
  CreateOncallScheduleDto,
  CreateOverrideDto,
  CreateRotationDto,
  ListOverridesQueryDto,
  OncallCalendarUrlDto,
  OncallGapDto,
  OncallOverrideDto,
  OncallRotationDto,
  OncallScheduleDto,
  OncallShiftDto,
  OnCallDto,
  OnCallQueryDto,
  PreviewRotationDto,
  RotationPreviewShiftDto,
  ShiftsQueryDto,
  UpdateOncallScheduleDto,
  UpdateRotationDto,
} from '@alert-ingestion/alerts-api';
import { refusalError } from '@alert-ingestion/alerts-feature';
import { paginationHeaders, PaginationQueryDto } from '@alert-ingestion/http';
import { overrideNotFound, rotationNotFound, scheduleNotFound } from '@alert-ingestion/oncall-domain';
import { OncallCalendarService, OncallOverridesService, OncallSchedulesService, OnCallService } from '@alert-ingestion/oncall-feature';
import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/** `:schedule_id`, `:rotation_id`, `:override_id`: anything that is not an id names none (404). */
const ScheduleId = () => PathId('schedule_id', (text) => refusalError(scheduleNotFound(text)));
const RotationId = () => PathId('rotation_id', (text) => refusalError(rotationNotFound(text)));
const OverrideId = () => PathId('override_id', (text) => refusalError(overrideNotFound(text)));
/** The calendar feed's project, checked by no guard (the feed takes no token). */
const FeedProjectId = () => PathId('id', (text) => refusalError(scheduleNotFound(text)));

const projectOf = (project: ProjectAccess) => project.projectId.toString();

/**
 * On-call schedules of a project (docs/api-guide.md "On-call schedules", "Who is on call",
 * "Overrides", "Calendar feed"): everyone sees who is on call, developers see schedules and put
 * themselves on call by overrides, maintainers make and change schedules and rotations (ALERTS_API).
 */
@ApiTags('oncall_schedules')
@Controller(ALERTS_API_BASE)
export class OncallSchedulesController {
  constructor(
    private readonly schedules: OncallSchedulesService,
    private readonly onCall: OnCallService,
    private readonly overrides: OncallOverridesService,
    private readonly calendar: OncallCalendarService,
  ) {}

  /** Declared before `:schedule_id`, which would otherwise take the path. */
  @AlertsApiRoute(ALERTS_API.projectOnCall)
  projectOnCall(@CurrentProject() project: ProjectAccess): Promise<OnCallDto[]> {
    return this.onCall.projectOnCall(projectOf(project));
  }

  @AlertsApiRoute(ALERTS_API.listOncallSchedules)
  async list(@CurrentProject() project: ProjectAccess, @Query() query: PaginationQueryDto, @Res({ passthrough: true }) response: Response): Promise<OncallScheduleDto[]> {
    const result = await this.schedules.list(projectOf(project), query);
    response.set(paginationHeaders(result.page));
    return result.schedules;
  }

  @AlertsApiRoute(ALERTS_API.createOncallSchedule)
  create(@CurrentProject() project: ProjectAccess, @Body() body: CreateOncallScheduleDto): Promise<OncallScheduleDto> {
    return this.schedules.create(projectOf(project), body);
  }

  @AlertsApiRoute(ALERTS_API.getOncallSchedule)
  find(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint): Promise<OncallScheduleDto> {
    return this.schedules.find(projectOf(project), scheduleId.toString());
  }

  @AlertsApiRoute(ALERTS_API.updateOncallSchedule)
  update(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint, @Body() body: UpdateOncallScheduleDto): Promise<OncallScheduleDto> {
    return this.schedules.update(projectOf(project), scheduleId.toString(), body);
  }

  @AlertsApiRoute(ALERTS_API.deleteOncallSchedule)
  remove(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint): Promise<void> {
    return this.schedules.remove(projectOf(project), scheduleId.toString());
  }

  @AlertsApiRoute(ALERTS_API.scheduleOnCall)
  scheduleOnCall(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint, @Query() query: OnCallQueryDto): Promise<OnCallDto> {
    return this.onCall.scheduleOnCall(projectOf(project), scheduleId.toString(), query);
  }

  @AlertsApiRoute(ALERTS_API.scheduleShifts)
  shifts(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint, @Query() query: ShiftsQueryDto): Promise<OncallShiftDto[]> {
    return this.onCall.shifts(projectOf(project), scheduleId.toString(), query);
  }

  @AlertsApiRoute(ALERTS_API.scheduleGaps)
  gaps(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint): Promise<OncallGapDto[]> {
    return this.onCall.gaps(projectOf(project), scheduleId.toString());
  }

  @AlertsApiRoute(ALERTS_API.createRotation)
  createRotation(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint, @Body() body: CreateRotationDto): Promise<OncallRotationDto> {
    return this.schedules.createRotation(projectOf(project), scheduleId.toString(), body);
  }

  /** Declared before `:rotation_id`. */
  @AlertsApiRoute(ALERTS_API.previewRotation)
  previewRotation(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint, @Body() body: PreviewRotationDto): Promise<RotationPreviewShiftDto[]> {
    return this.schedules.preview(projectOf(project), scheduleId.toString(), body);
  }

  @AlertsApiRoute(ALERTS_API.updateRotation)
  updateRotation(
    @CurrentProject() project: ProjectAccess,
    @ScheduleId() scheduleId: bigint,
    @RotationId() rotationId: bigint,
    @Body() body: UpdateRotationDto,
  ): Promise<OncallRotationDto> {
    return this.schedules.updateRotation(projectOf(project), scheduleId.toString(), rotationId.toString(), body);
  }

  @AlertsApiRoute(ALERTS_API.deleteRotation)
  deleteRotation(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint, @RotationId() rotationId: bigint): Promise<void> {
    return this.schedules.deleteRotation(projectOf(project), scheduleId.toString(), rotationId.toString());
  }

  /** Newest first, with GitLab's pagination headers. */
  @AlertsApiRoute(ALERTS_API.listOverrides)
  async listOverrides(
    @CurrentProject() project: ProjectAccess,
    @ScheduleId() scheduleId: bigint,
    @Query() query: ListOverridesQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OncallOverrideDto[]> {
    const result = await this.overrides.list(projectOf(project), scheduleId.toString(), query);
    response.set(paginationHeaders(result.page));
    return result.overrides;
  }

  @AlertsApiRoute(ALERTS_API.createOverride)
  createOverride(
    @CurrentProject() project: ProjectAccess,
    @CurrentPrincipal() principal: Principal,
    @ScheduleId() scheduleId: bigint,
    @Body() body: CreateOverrideDto,
  ): Promise<OncallOverrideDto> {
    return this.overrides.create(projectOf(project), scheduleId.toString(), body, principal, project);
  }

  @AlertsApiRoute(ALERTS_API.deleteOverride)
  deleteOverride(
    @CurrentProject() project: ProjectAccess,
    @CurrentPrincipal() principal: Principal,
    @ScheduleId() scheduleId: bigint,
    @OverrideId() overrideId: bigint,
  ): Promise<void> {
    return this.overrides.remove(projectOf(project), scheduleId.toString(), overrideId.toString(), principal, project);
  }

  @AlertsApiRoute(ALERTS_API.resetCalendarUrl)
  resetCalendarUrl(@CurrentProject() project: ProjectAccess, @ScheduleId() scheduleId: bigint): Promise<OncallCalendarUrlDto> {
    return this.calendar.reset(projectOf(project), scheduleId.toString());
  }

  /** No token: the secret in the URL is the credential; a wrong one is the 404 of a schedule that does not exist. */
  @AlertsApiRoute(ALERTS_API.oncallCalendar)
  calendarFeed(@FeedProjectId() projectId: bigint, @ScheduleId() scheduleId: bigint, @Query() query: CalendarFeedQueryDto): Promise<string> {
    return this.calendar.feed(projectId.toString(), scheduleId.toString(), query);
  }
}
