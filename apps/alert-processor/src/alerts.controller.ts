import { CurrentPrincipal, CurrentProject, Principal, ProjectAccess } from '@alert-ingestion/access';
import {
  AlertBulkUpdateDto,
  AlertBulkUpdateResultDto,
  AlertDto,
  AssigneeCandidateDto,
  ALERTS_API,
  ALERTS_API_BASE,
  AlertsApiRoute,
  AlertStatusCountsDto,
  ListAlertsQueryDto,
  UpdateAlertAssigneesDto,
  UpdateAlertStatusDto,
} from '@alert-ingestion/alerts-api';
import { AlertsQueryService } from '@alert-ingestion/alerts-feature';
import { paginationHeaders } from '@alert-ingestion/http';
import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/**
 * Alerts query API (CONTRACT.md "Alerts query API"). Each route, its access level and its OpenAPI
 * description are its entry in ALERTS_API; the handlers are here.
 */
@ApiTags('alerts')
@Controller(ALERTS_API_BASE)
export class AlertsController {
  constructor(private readonly alerts: AlertsQueryService) {}

  /** Newest first, with GitLab's pagination headers (X-Total, X-Next-Page empty on the last page). */
  @AlertsApiRoute(ALERTS_API.listAlerts)
  async list(
    @CurrentProject() project: ProjectAccess,
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListAlertsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AlertDto[]> {
    const result = await this.alerts.list(project.projectId.toString(), query, principal);
    response.set(paginationHeaders(result.page));
    return result.alerts;
  }

  /** Declared before `:iid`, which would otherwise take the path. */
  @AlertsApiRoute(ALERTS_API.statusCounts)
  statusCounts(@CurrentProject() project: ProjectAccess): Promise<AlertStatusCountsDto> {
    return this.alerts.statusCounts(project.projectId.toString());
  }

  /** Declared before `:iid`, which would otherwise take the path. */
  @AlertsApiRoute(ALERTS_API.assigneeCandidates)
  assigneeCandidates(@CurrentProject() project: ProjectAccess): Promise<AssigneeCandidateDto[]> {
    return this.alerts.assigneeCandidates(project.projectId.toString());
  }

  @AlertsApiRoute(ALERTS_API.bulkUpdateAlerts)
  bulkUpdate(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Body() body: AlertBulkUpdateDto): Promise<AlertBulkUpdateResultDto> {
    return this.alerts.bulkUpdate(project.projectId.toString(), body, principal);
  }

  @AlertsApiRoute(ALERTS_API.getAlert)
  find(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string): Promise<AlertDto> {
    return this.alerts.find(project.projectId.toString(), iid);
  }

  @AlertsApiRoute(ALERTS_API.updateAlert)
  updateStatus(
    @CurrentProject() project: ProjectAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('iid') iid: string,
    @Body() body: UpdateAlertStatusDto,
  ): Promise<AlertDto> {
    return this.alerts.updateStatus(project.projectId.toString(), iid, body.status, principal);
  }

  @AlertsApiRoute(ALERTS_API.updateAlertAssignees)
  assign(
    @CurrentProject() project: ProjectAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('iid') iid: string,
    @Body() body: UpdateAlertAssigneesDto,
  ): Promise<AlertDto> {
    return this.alerts.assign(project.projectId.toString(), iid, body.assignee_ids, principal);
  }
}
