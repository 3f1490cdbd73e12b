import { CurrentProject, ProjectAccess, ProjectRoute } from '@alert-ingestion/access';
import { AlertDto, AlertStatusCountsDto, ApiAlertStatusCounts, ApiGetAlert, ApiListAlerts, ApiUpdateAlertStatus, ListAlertsQueryDto, UpdateAlertStatusDto } from '@alert-ingestion/alerts-api';
import { AlertsQueryService } from '@alert-ingestion/alerts-feature';
import { REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { paginationHeaders } from '@alert-ingestion/http';
import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/**
 * Alerts query API (CONTRACT.md "Alerts query API"): developer+ of the project. ProjectRoute
 * documents the token headers and its 401/403/404; each route adds its own answers.
 */
@ApiTags('alerts')
@Controller('api/v4/projects/:id/alerts')
export class AlertsController {
  constructor(private readonly alerts: AlertsQueryService) {}

  /** Newest first, with GitLab's pagination headers (X-Total, X-Next-Page empty on the last page). */
  @Get()
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readAlerts)
  @ApiListAlerts()
  async list(@CurrentProject() project: ProjectAccess, @Query() query: ListAlertsQueryDto, @Res({ passthrough: true }) response: Response): Promise<AlertDto[]> {
    const result = await this.alerts.list(project.projectId.toString(), query);
    response.set(paginationHeaders(result.page));
    return result.alerts;
  }

  /** Declared before `:iid`, which would otherwise take the path. */
  @Get('status_counts')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readAlerts)
  @ApiAlertStatusCounts()
  statusCounts(@CurrentProject() project: ProjectAccess): Promise<AlertStatusCountsDto> {
    return this.alerts.statusCounts(project.projectId.toString());
  }

  @Get(':iid')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readAlerts)
  @ApiGetAlert()
  find(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string): Promise<AlertDto> {
    return this.alerts.find(project.projectId.toString(), iid);
  }

  @Put(':iid')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.changeAlertStatus)
  @ApiUpdateAlertStatus()
  updateStatus(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string, @Body() body: UpdateAlertStatusDto): Promise<AlertDto> {
    return this.alerts.updateStatus(project.projectId.toString(), iid, body.status);
  }
}
