import { PipelineFinding } from '@alert-ingestion/contracts';
import { DeprecationCatalogue, DeprecationEntry } from '../deprecation-catalogue';
import { CatalogueError } from '../deprecation.errors';
import { compareMilestones, parseMilestone } from '../milestone';
import { analyzerMajorVersionsRule } from './analyzer-major-versions.rule';
import { coberturaReportRule } from './cobertura-report.rule';
import { containerScanningVariablesRule } from './container-scanning-variables.rule';
import { dependencyScanningJavaVersionRule } from './dependency-scanning-java-version.rule';
import { jobNameLengthRule } from './job-name-length.rule';
import { parsePipelineConfiguration } from './pipeline-configuration';
import { PipelineRule, PreparedRule } from './pipeline-rule';
import { retiredDependencyScanningAnalyzersRule } from './retired-dependency-scanning-analyzers.rule';
import { starboardDirectiveRule } from './starboard-directive.rule';
import { typeKeywordsRule } from './type-keywords.rule';
import { ciBuildVariablesRule, secretDetectionVariablesRule } from './variable-rename.rule';

export type { PipelineFinding } from '@alert-ingestion/contracts';

/** A finding with what it is about (RuleHit.subject), which the report formats fingerprint it by. */
export interface CheckedFinding extends PipelineFinding {
  readonly subject: string;
}

/** A rule as bound to its catalogue entry: the entry describes the rule in reports. */
export interface CheckerRule {
  readonly rule: string;
  readonly entry: DeprecationEntry;
}

export interface PipelineChecker {
  /** Every rule the checker runs, in PIPELINE_RULES order. */
  readonly rules: readonly CheckerRule[];
  /**
   * Checks a pipeline configuration (YAML text). With a target milestone, only what is removed or
   * changed by then (removal milestone <= target) is reported. Throws InvalidMilestoneError for a
   * malformed target and InvalidPipelineYamlError for invalid YAML.
   */
  check(content: string, target?: string | null): PipelineFinding[];
  /** The same findings, each with its subject, for the report formats (finding-report.ts). */
  checkWithSubjects(content: string, target?: string | null): CheckedFinding[];
}

export const PIPELINE_RULES: readonly PipelineRule[] = [
  typeKeywordsRule,
  jobNameLengthRule,
  coberturaReportRule,
  secretDetectionVariablesRule,
  analyzerMajorVersionsRule,
  dependencyScanningJavaVersionRule,
  retiredDependencyScanningAnalyzersRule,
  containerScanningVariablesRule,
  starboardDirectiveRule,
  ciBuildVariablesRule,
];

/** A finding as the check endpoint returns it: the subject is for fingerprints only. */
export function withoutSubject({ subject: _subject, ...finding }: CheckedFinding): PipelineFinding {
  return finding;
}

/** Binds every rule to its catalogue entry once, at start-up: a rule without its entry is a catalogue error. */
export function createPipelineChecker(catalogue: DeprecationCatalogue, rules: readonly PipelineRule[] = PIPELINE_RULES): PipelineChecker {
  const entriesById = new Map(catalogue.entries.map((entry) => [entry.id, entry]));
  const prepared: { rule: string; entry: DeprecationEntry; run: PreparedRule }[] = rules.map((rule) => {
    const entry = entriesById.get(rule.deprecationId);
    if (entry === undefined) {
      throw new CatalogueError('(catalogue)', 'entries', null, `checker rule ${rule.rule} needs entry ${rule.deprecationId}, which is missing`);
    }
    return { rule: rule.rule, entry, run: rule.prepare(entry) };
  });

  const checkWithSubjects = (content: string, target?: string | null): CheckedFinding[] => {
    const limit = target === undefined || target === null ? null : parseMilestone('target', target);
    const configuration = parsePipelineConfiguration(content);
    return prepared
      .filter(({ entry }) => limit === null || compareMilestones(entry.removal_milestone, limit) <= 0)
      .flatMap(({ rule, entry, run }) =>
        run(configuration).map((hit) => ({
          rule,
          line: hit.line,
          message: hit.message,
          removal_milestone: entry.removal_milestone,
          replacement: hit.replacement,
          subject: hit.subject,
        })),
      )
      .sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  };

  return {
    rules: prepared.map(({ rule, entry }) => ({ rule, entry })),
    checkWithSubjects,
    check: (content, target) => checkWithSubjects(content, target).map(withoutSubject),
  };
}
