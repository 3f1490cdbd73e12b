import { Module } from '@nestjs/common';
import { DeprecationsModule } from '@alert-ingestion/deprecations';
import { DeprecationsController } from './deprecations.controller';
import { FeatureHistoryController } from './feature-history.controller';

/**
 * Everything integration-config needs for the deprecation catalogue: import this one module, and
 * call usePipelineConfigurationBodyParser(app) in bootstrap so the check endpoint can take raw YAML.
 */
@Module({
  imports: [DeprecationsModule.forRoot()],
  controllers: [DeprecationsController, FeatureHistoryController],
})
export class DeprecationsHttpModule {}
