import { CurrentProject, ProjectAccess } from '@alert-ingestion/access';
import { ALERTS_API, ALERTS_API_BASE, AlertsApiRoute, DeliveriesQueryDto, DeliveryDto } from '@alert-ingestion/alerts-api';
import { DeliveriesService } from '@alert-ingestion/alerts-feature';
import { paginationHeaders } from '@alert-ingestion/http';
import { Controller, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/**
 * What monitoring tools sent to an integration's URL and what became of it (CONTRACT.md
 * "deliveries"; maintainer+). The processor records deliveries, so it answers them;
 * integration-config passes the same path on to it.
 */
@ApiTags('deliveries')
@Controller(ALERTS_API_BASE)
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  /** The latest first (100 unless per_page says fewer), with GitLab's pagination headers. */
  @AlertsApiRoute(ALERTS_API.deliveries)
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('iid') integrationId: string,
    @Query() query: DeliveriesQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<DeliveryDto[]> {
    const result = await this.deliveries.list(project.projectId, integrationId, query);
    response.set(paginationHeaders(result.page));
    return result.deliveries;
  }
}
