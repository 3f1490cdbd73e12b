import { BadRequestError } from '@alert-ingestion/http';
import { Inject, Injectable } from '@nestjs/common';
import { DeprecationCatalogue, DeprecationEntry, ReceiverFeature } from './deprecation-catalogue';
import { findDeprecations, parseCheckTarget, parseDeprecationQuery } from './deprecation-query';
import { DeprecationInputError } from './deprecation.errors';
import { createPipelineChecker, PipelineChecker, PipelineFinding } from './pipeline-check/pipeline-checker';
import { buildUpgradeReport, parseUpgradeRange, UpgradeReport } from './upgrade-report';

/** Injection token of the catalogue, loaded and validated once when the module starts. */
export const DEPRECATION_CATALOGUE = Symbol('DEPRECATION_CATALOGUE');

/** Bad input becomes the team's 400 domain error, which the shared HttpErrorFilter writes as `{error, message}`. */
function asBadRequest<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof DeprecationInputError) throw new BadRequestError(error.code, error.message);
    throw error;
  }
}

/**
 * The catalogue's use cases for the HTTP edge: each method takes what a request carries (query
 * parameters, the configuration text) and maps bad input to a 400 in one place.
 */
@Injectable()
export class DeprecationsService {
  private readonly checker: PipelineChecker;

  constructor(@Inject(DEPRECATION_CATALOGUE) private readonly catalogue: DeprecationCatalogue) {
    // Binding the checker's rules to their entries here makes a rule/catalogue mismatch a start-up failure.
    this.checker = createPipelineChecker(catalogue);
  }

  list(parameters: Readonly<Record<string, unknown>>): DeprecationEntry[] {
    return asBadRequest(() => findDeprecations(this.catalogue, parseDeprecationQuery(parameters)));
  }

  upgradeReport(parameters: Readonly<Record<string, unknown>>): UpgradeReport {
    return asBadRequest(() => buildUpgradeReport(this.catalogue, parseUpgradeRange(parameters)));
  }

  check(content: string, parameters: Readonly<Record<string, unknown>>): PipelineFinding[] {
    return asBadRequest(() => this.checker.check(content, parseCheckTarget(parameters)));
  }

  featureHistory(): readonly ReceiverFeature[] {
    return this.catalogue.feature_history;
  }
}
