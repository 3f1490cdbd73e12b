import { CurrentPrincipal, CurrentProject, Principal, ProjectAccess } from '@alert-ingestion/access';
import {
  ALERTS_API,
  ALERTS_API_BASE,
  AlertsApiRoute,
  AlertSettingsDto,
  CreateIncidentDto,
  IncidentAlertDto,
  IncidentDto,
  IncidentStatusCountsDto,
  LinkIncidentAlertDto,
  ListIncidentsQueryDto,
  UpdateAlertSettingsDto,
  UpdateIncidentDto,
} from '@alert-ingestion/alerts-api';
import { AlertSettingsService, IncidentsService } from '@alert-ingestion/workflow-feature';
import { paginationHeaders } from '@alert-ingestion/http';
import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/**
 * Incidents of a project and its alert settings (docs/api-guide.md "Incidents", "Alert settings"):
 * developer+ reads, opens, links, edits, owns, closes and reopens incidents; maintainer+ changes the settings (ALERTS_API).
 */
@ApiTags('incidents')
@Controller(ALERTS_API_BASE)
export class IncidentsController {
  constructor(
    private readonly incidents: IncidentsService,
    private readonly settings: AlertSettingsService,
  ) {}

  @AlertsApiRoute(ALERTS_API.createIncidentFromAlert)
  createFromAlert(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Param('iid') iid: string): Promise<IncidentDto> {
    return this.incidents.createFromAlert(project.projectId.toString(), iid, principal);
  }

  /** Newest first, with GitLab's pagination headers. */
  @AlertsApiRoute(ALERTS_API.listIncidents)
  async list(@CurrentProject() project: ProjectAccess, @Query() query: ListIncidentsQueryDto, @Res({ passthrough: true }) response: Response): Promise<IncidentDto[]> {
    const result = await this.incidents.list(project.projectId.toString(), query);
    response.set(paginationHeaders(result.page));
    return result.incidents;
  }

  /** Declared before `:iid`, which would otherwise take the path. */
  @AlertsApiRoute(ALERTS_API.incidentStatusCounts)
  statusCounts(@CurrentProject() project: ProjectAccess): Promise<IncidentStatusCountsDto> {
    return this.incidents.statusCounts(project.projectId.toString());
  }

  @AlertsApiRoute(ALERTS_API.createIncident)
  create(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Body() body: CreateIncidentDto): Promise<IncidentDto> {
    return this.incidents.create(project.projectId.toString(), body, principal);
  }

  @AlertsApiRoute(ALERTS_API.getIncident)
  find(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string): Promise<IncidentDto> {
    return this.incidents.find(project.projectId.toString(), iid);
  }

  @AlertsApiRoute(ALERTS_API.updateIncident)
  update(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Param('iid') iid: string, @Body() body: UpdateIncidentDto): Promise<IncidentDto> {
    return this.incidents.update(project.projectId.toString(), iid, body, principal);
  }

  @AlertsApiRoute(ALERTS_API.incidentAlerts)
  alerts(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string): Promise<IncidentAlertDto[]> {
    return this.incidents.alerts(project.projectId.toString(), iid);
  }

  @AlertsApiRoute(ALERTS_API.linkIncidentAlert)
  linkAlert(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Param('iid') iid: string, @Body() body: LinkIncidentAlertDto): Promise<IncidentDto> {
    return this.incidents.linkAlert(project.projectId.toString(), iid, body.alert_iid, principal);
  }

  @AlertsApiRoute(ALERTS_API.getAlertSettings)
  alertSettings(@CurrentProject() project: ProjectAccess): Promise<AlertSettingsDto> {
    return this.settings.find(project.projectId.toString());
  }

  @AlertsApiRoute(ALERTS_API.updateAlertSettings)
  updateAlertSettings(@CurrentProject() project: ProjectAccess, @Body() body: UpdateAlertSettingsDto): Promise<AlertSettingsDto> {
    return this.settings.update(project.projectId.toString(), body);
  }
}
