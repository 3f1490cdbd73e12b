import { LinkedPipelineFinding } from '@alert-ingestion/contracts';
import { BadRequestError } from '@alert-ingestion/http';
import { Inject, Injectable } from '@nestjs/common';
import { DeprecationCatalogue, DeprecationEntry, ReceiverFeature } from './deprecation-catalogue';
import { findDeprecations, parseCheckRequest, parseDeprecationQuery } from './deprecation-query';
import { DeprecationInputError } from './deprecation.errors';
import { CodeQualityIssue, codeQualityReport } from './pipeline-check/codequality-report';
import { buildFindingReport, effectiveCheckTarget } from './pipeline-check/finding-report';
import { createPipelineChecker, PipelineChecker, withoutSubject } from './pipeline-check/pipeline-checker';
import { buildUpgradeReport, parseUpgradeRange, UpgradeReport } from './upgrade-report';

export type { LinkedPipelineFinding } from '@alert-ingestion/contracts';

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
  private readonly entryIdOfRule: ReadonlyMap<string, string>;

  constructor(@Inject(DEPRECATION_CATALOGUE) private readonly catalogue: DeprecationCatalogue) {
    // Binding the checker's rules to their entries here makes a rule/catalogue mismatch a start-up failure.
    this.checker = createPipelineChecker(catalogue);
    this.entryIdOfRule = new Map(this.checker.rules.map(({ rule, entry }) => [rule, entry.id]));
  }

  list(parameters: Readonly<Record<string, unknown>>): DeprecationEntry[] {
    return asBadRequest(() => findDeprecations(this.catalogue, parseDeprecationQuery(parameters)));
  }

  upgradeReport(parameters: Readonly<Record<string, unknown>>): UpgradeReport {
    return asBadRequest(() => buildUpgradeReport(this.catalogue, parseUpgradeRange(parameters)));
  }

  /**
   * `{findings}`, or with format=codequality a Code Quality report of the same findings. `target`
   * filters in both, so every reported finding is removed by the target; without one the target is
   * the end of the schedule, as in the CLI.
   */
  check(content: string, parameters: Readonly<Record<string, unknown>>): { findings: LinkedPipelineFinding[] } | CodeQualityIssue[] {
    return asBadRequest(() => {
      const request = parseCheckRequest(parameters);
      const findings = this.checker.checkWithSubjects(content, request.target);
      if (request.format === 'json') {
        return { findings: findings.map((finding) => ({ ...withoutSubject(finding), deprecation_id: this.entryIdOfRule.get(finding.rule) ?? '' })) };
      }
      return codeQualityReport(buildFindingReport(findings, request.path, effectiveCheckTarget(this.catalogue, request.target)));
    });
  }

  featureHistory(): readonly ReceiverFeature[] {
    return this.catalogue.feature_history;
  }
}
