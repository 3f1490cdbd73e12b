import type { HttpSchemas } from '@alert-ingestion/contracts/http';
import { FindingReport } from './finding-report';

/** GitLab's Code Quality severities, lowest first. */
export const CODE_QUALITY_SEVERITIES = ['info', 'minor', 'major', 'critical', 'blocker'] as const;
export type CodeQualitySeverity = (typeof CODE_QUALITY_SEVERITIES)[number];

/** One issue of a GitLab Code Quality report (`artifacts:reports:codequality`), as CONTRACT.md lists its fields. */
export type CodeQualityIssue = HttpSchemas['CodeQualityIssueDto'];

/**
 * Usage removed by the target stops working, is ignored or behaves differently once the instance
 * runs the target: `critical`, the level for what must be fixed before that upgrade (it is also what
 * makes the CLI exit 3). Usage that is only deprecated still works at the target and needs a change
 * later: `minor`, so it shows in the merge request without ranking with what breaks. `blocker` is not
 * used: whether the upgrade is imminent is not the checker's to know; `info` would undersell work
 * that has a date.
 */
export const CODE_QUALITY_SEVERITY = { removed_by_target: 'critical', deprecated: 'minor' } as const satisfies Record<string, CodeQualitySeverity>;

/** The report's findings as a GitLab Code Quality report: one issue per finding, fingerprinted as in SARIF. */
export function codeQualityReport(report: FindingReport): CodeQualityIssue[] {
  return report.findings.map((finding) => ({
    description: finding.message,
    check_name: finding.rule,
    fingerprint: finding.fingerprint,
    severity: finding.removed_by_target ? CODE_QUALITY_SEVERITY.removed_by_target : CODE_QUALITY_SEVERITY.deprecated,
    location: { path: report.path, lines: { begin: finding.line } },
  }));
}
