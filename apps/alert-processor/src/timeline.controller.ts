import { CurrentPrincipal, CurrentProject, Principal, ProjectAccess } from '@alert-ingestion/access';
import { ActivityEntryDto, ALERTS_API, ALERTS_API_BASE, AlertsApiRoute, CreateNoteDto } from '@alert-ingestion/alerts-api';
import { paginationHeaders, PaginationQueryDto } from '@alert-ingestion/http';
import { TimelineOf, TimelinePage, TimelineService } from '@alert-ingestion/workflow-feature';
import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/**
 * The activity timelines of alerts and incidents (docs/api-guide.md "Alert workflow"): a page,
 * oldest first, with GitLab's pagination headers, and notes (developer+, ALERTS_API).
 */
@ApiTags('timeline')
@Controller(ALERTS_API_BASE)
export class TimelineController {
  constructor(private readonly timeline: TimelineService) {}

  @AlertsApiRoute(ALERTS_API.alertActivity)
  alertActivity(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string, @Query() query: PaginationQueryDto, @Res({ passthrough: true }) response: Response): Promise<ActivityEntryDto[]> {
    return this.page(project, { alertIid: iid }, query, response);
  }

  @AlertsApiRoute(ALERTS_API.incidentActivity)
  incidentActivity(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string, @Query() query: PaginationQueryDto, @Res({ passthrough: true }) response: Response): Promise<ActivityEntryDto[]> {
    return this.page(project, { incidentIid: iid }, query, response);
  }

  @AlertsApiRoute(ALERTS_API.addAlertNote)
  addAlertNote(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() by: Principal, @Param('iid') iid: string, @Body() body: CreateNoteDto): Promise<ActivityEntryDto> {
    return this.timeline.addNote(project.projectId.toString(), { alertIid: iid }, body.body, by);
  }

  @AlertsApiRoute(ALERTS_API.addIncidentNote)
  addIncidentNote(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() by: Principal, @Param('iid') iid: string, @Body() body: CreateNoteDto): Promise<ActivityEntryDto> {
    return this.timeline.addNote(project.projectId.toString(), { incidentIid: iid }, body.body, by);
  }

  private async page(project: ProjectAccess, of: TimelineOf, query: PaginationQueryDto, response: Response): Promise<ActivityEntryDto[]> {
    const result: TimelinePage = await this.timeline.page(project.projectId.toString(), of, query);
    response.set(paginationHeaders(result.page));
    return result.entries;
  }
}
