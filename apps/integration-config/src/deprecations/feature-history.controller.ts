import { Controller, Get } from '@nestjs/common';
import { DeprecationsService, ReceiverFeature } from '@alert-ingestion/deprecations';

/** Spec 9.1: the receiver's feature history, from the catalogue's receiver-feature-history.yaml. */
@Controller('api/v4/alert_integrations')
export class FeatureHistoryController {
  constructor(private readonly deprecations: DeprecationsService) {}

  @Get('feature_history')
  featureHistory(): readonly ReceiverFeature[] {
    return this.deprecations.featureHistory();
  }
}
