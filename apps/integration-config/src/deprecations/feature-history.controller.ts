import { Controller, Get } from '@nestjs/common';
import { DeprecationsService, ReceiverFeature } from '@alert-ingestion/deprecations';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReceiverFeatureDto } from './deprecations.responses';

/** Spec 9.1: the receiver's feature history, from the catalogue's receiver-feature-history.yaml; open to anyone. */
@ApiTags('deprecations')
@Controller('api/v4/alert_integrations')
export class FeatureHistoryController {
  constructor(private readonly deprecations: DeprecationsService) {}

  @Get('feature_history')
  @ApiOperation({ summary: "The receiver's feature history (spec 9.1)" })
  @ApiOkResponse({ type: [ReceiverFeatureDto] })
  featureHistory(): readonly ReceiverFeature[] {
    return this.deprecations.featureHistory();
  }
}
