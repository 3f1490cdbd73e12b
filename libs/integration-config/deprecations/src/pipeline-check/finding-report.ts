import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { DeprecationCatalogue } from '../deprecation-catalogue';
import { InvalidDeprecationQueryError } from '../deprecation.errors';
import { compareMilestones } from '../milestone';
import { scheduledChanges } from '../upgrade-report';
import { CheckedFinding } from './pipeline-checker';

/**
 * The findings of one checked file, ready for a report format (Code Quality, SARIF): each one
 * classified against the target and given a stable fingerprint.
 */
export interface FindingReport {
  /** The file, relative to the repository root, with `/` separators (parseReportPath). */
  readonly path: string;
  /** The milestone the findings are measured against (effectiveCheckTarget). */
  readonly target: string;
  readonly findings: readonly ReportedFinding[];
}

export interface ReportedFinding extends CheckedFinding {
  /** Removed or changed by the target (removal milestone <= target), rather than only deprecated. */
  readonly removed_by_target: boolean;
  readonly fingerprint: string;
}

/**
 * The target of a check: the given milestone, or else the last milestone anything is scheduled for,
 * so that every scheduled removal counts as removed.
 */
export function effectiveCheckTarget(catalogue: DeprecationCatalogue, target: string | null): string {
  if (target !== null) return target;
  return scheduledChanges(catalogue)
    .map((change) => change.milestone)
    .reduce((latest, milestone) => (compareMilestones(milestone, latest) > 0 ? milestone : latest));
}

export function isRemovedByTarget(finding: Pick<CheckedFinding, 'removal_milestone'>, target: string): boolean {
  return compareMilestones(finding.removal_milestone, target) <= 0;
}

/**
 * A finding's fingerprint: the same finding in the same file gives the same value in every run and
 * on every branch. Merge requests compare the fingerprints of the source and target branches to
 * tell new findings from fixed ones, so the line number is left out: a line inserted above would
 * otherwise make every finding below it look new (and its old self fixed). Nor is the message in
 * it, whose wording carries the removal milestone, which may slip (spec 9.2). What identifies a
 * finding is its rule, its file, its subject (job or global keyword, and the variable, keyword,
 * image or template it names) and, when that subject occurs more than once, which occurrence it is.
 */
export function findingFingerprint(rule: string, path: string, subject: string, occurrence: number): string {
  return createHash('sha256').update(JSON.stringify([rule, path, subject, occurrence])).digest('hex');
}

/** Classifies and fingerprints a file's findings; the occurrence of a repeated subject counts in line order. */
export function buildFindingReport(findings: readonly CheckedFinding[], path: string, target: string): FindingReport {
  const seen = new Map<string, number>();
  const ordered = [...findings].sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  return {
    path,
    target,
    findings: ordered.map((finding) => {
      const key = JSON.stringify([finding.rule, finding.subject]);
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      return {
        ...finding,
        removed_by_target: isRemovedByTarget(finding, target),
        fingerprint: findingFingerprint(finding.rule, path, finding.subject, occurrence),
      };
    }),
  };
}

/**
 * A file path as reports name it: relative to the repository root with `/` separators, without a
 * leading `./`, so `./ci\\deploy.yml` and `ci/deploy.yml` give the same location and fingerprints.
 * Absolute paths and paths leaving the repository (`../x.yml`) are refused: Code Quality and code
 * scanning resolve report paths against the repository.
 */
export function parseReportPath(parameter: string, value: string): string {
  const path = posix.normalize(value.replace(/\\/g, '/'));
  if (value.trim() === '' || /[\0\r\n]/.test(value)) throw new InvalidDeprecationQueryError(`${parameter} must name a file, got ${JSON.stringify(value)}`);
  if (path.startsWith('/') || /^[A-Za-z]:\//.test(path) || path === '..' || path.startsWith('../') || path === '.') {
    throw new InvalidDeprecationQueryError(`${parameter} must be a file path relative to the repository root (such as .gitlab-ci.yml), got ${JSON.stringify(value)}`);
  }
  return path;
}
