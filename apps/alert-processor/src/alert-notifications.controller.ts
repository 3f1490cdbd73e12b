import { CurrentProject, ProjectAccess } from '@alert-ingestion/access';
import { ALERTS_API, ALERTS_API_BASE, AlertNotificationDto, AlertsApiRoute, ListAlertNotificationsQueryDto } from '@alert-ingestion/alerts-api';
import { AlertEmailsService } from '@alert-ingestion/workflow-feature';
import { pageInfo, paginationHeaders, pageRequest } from '@alert-ingestion/http';
import { Controller, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/** The alert emails of a project (docs/api-guide.md "Email on new alerts"; developer+), newest first. */
@ApiTags('alert notifications')
@Controller(ALERTS_API_BASE)
export class AlertNotificationsController {
  constructor(private readonly emails: AlertEmailsService) {}

  @AlertsApiRoute(ALERTS_API.listAlertNotifications)
  async list(
    @CurrentProject() project: ProjectAccess,
    @Query() query: ListAlertNotificationsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AlertNotificationDto[]> {
    const { page, perPage, offset } = pageRequest(query);
    const result = await this.emails.list(project.projectId, { alertIid: query.alert_iid, status: query.status }, perPage, offset);
    response.set(paginationHeaders(pageInfo(result.total, page, perPage)));
    return result.notifications;
  }
}
