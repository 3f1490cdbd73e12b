import { Body, Controller, Get, Param, Put, Query, Res, UseGuards } from '@nestjs/common';
import { AlertView } from '@alert-ingestion/contracts';
import { AlertsQueryService, ListAlertsQueryDto, ProjectAccessGuard, UpdateAlertStatusDto } from '@alert-ingestion/alerts-feature';
import type { Response } from 'express';

/** Alerts query API (CONTRACT.md "Alerts query API"): developer+ of the project. */
@Controller('api/v4/projects/:id/alerts')
@UseGuards(ProjectAccessGuard)
export class AlertsController {
  constructor(private readonly alerts: AlertsQueryService) {}

  /** Newest first, with GitLab's pagination headers (X-Total, X-Next-Page empty on the last page). */
  @Get()
  async list(@Param('id') projectId: string, @Query() query: ListAlertsQueryDto, @Res({ passthrough: true }) response: Response): Promise<AlertView[]> {
    const page = await this.alerts.list(projectId, query);
    response.setHeader('X-Total', String(page.total));
    response.setHeader('X-Total-Pages', String(page.totalPages));
    response.setHeader('X-Page', String(page.page));
    response.setHeader('X-Per-Page', String(page.perPage));
    response.setHeader('X-Next-Page', page.nextPage === null ? '' : String(page.nextPage));
    response.setHeader('X-Prev-Page', page.previousPage === null ? '' : String(page.previousPage));
    return page.alerts;
  }

  @Get(':iid')
  find(@Param('id') projectId: string, @Param('iid') iid: string): Promise<AlertView> {
    return this.alerts.find(projectId, iid);
  }

  @Put(':iid')
  updateStatus(@Param('id') projectId: string, @Param('iid') iid: string, @Body() body: UpdateAlertStatusDto): Promise<AlertView> {
    return this.alerts.updateStatus(projectId, iid, body.status);
  }
}
