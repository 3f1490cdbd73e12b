import { parsePathId } from '@alert-ingestion/access';
import { DeliveriesRepository } from '@alert-ingestion/alerts-data';
import { DELIVERIES_PER_PAGE, DeliveriesQueryDto } from '@alert-ingestion/alerts-api';
import { Delivery } from '@alert-ingestion/contracts';
import { NotFoundError, PageInfo, pageInfo, pageRequest } from '@alert-ingestion/http';
import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATION_LOOKUP, IntegrationLookup } from './integration-lookup';

/** The deliveries of an integration (CONTRACT.md "deliveries"), newest first. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly repository: DeliveriesRepository,
    @Inject(INTEGRATION_LOOKUP) private readonly integrations: IntegrationLookup,
  ) {}

  async list(projectId: bigint, integrationIdText: string, query: DeliveriesQueryDto): Promise<{ deliveries: Delivery[]; page: PageInfo }> {
    const integrationId = parsePathId(integrationIdText);
    const integration = integrationId === undefined ? undefined : this.integrations.findById(integrationId.toString());
    if (!integration || integration.project_id !== projectId.toString() || integration.type !== 'http') {
      throw new NotFoundError('Integration not found.', 'integration_not_found');
    }
    const { page, perPage, offset } = pageRequest({ ...query, per_page: query.per_page ?? DELIVERIES_PER_PAGE });
    const result = await this.repository.list(integration.id, perPage, offset);
    return { deliveries: result.deliveries, page: pageInfo(result.total, page, perPage) };
  }
}
