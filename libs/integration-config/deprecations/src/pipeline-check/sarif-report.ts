import type { Log, ReportingDescriptor, Result } from 'sarif';
import { NO_REPLACEMENT } from '../upgrade-report';
import { FindingReport } from './finding-report';
import { CheckerRule } from './pipeline-checker';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const SARIF_TOOL_NAME = 'alert-ingestion-deprecations';
/** partialFingerprints key of findingFingerprint; the version suffix changes if the fingerprint's inputs ever do. */
export const SARIF_FINGERPRINT_KEY = 'deprecationFinding/v1';

/** Removed by the target fails the upgrade (`error`, as exit code 3); only deprecated is a `warning` (exit code 2). */
export const SARIF_LEVEL = { removed_by_target: 'error', deprecated: 'warning' } as const satisfies Record<string, Result.level>;

export interface SarifTool {
  /** The version of the package that ran the check (package.json). */
  readonly version: string;
  /**
   * Absolute URL where docs/deprecations.md is published. SARIF requires helpUri and informationUri
   * to be absolute, and where the repository is hosted is not known here, so without it rules carry
   * their help as text only.
   */
  readonly documentationUrl?: string;
}

function describeRule({ rule, entry }: CheckerRule, documentationUrl: string | undefined): ReportingDescriptor {
  const section = entry.spec_section.split(' ')[0];
  return {
    id: rule,
    shortDescription: { text: entry.title },
    fullDescription: { text: entry.change },
    help: {
      text: `${entry.replacement ?? NO_REPLACEMENT} Scheduled for ${entry.removal_milestone} (spec ${section}); catalogue entry ${entry.id} in docs/deprecations.md.`,
    },
    // docs/deprecations.md gives every entry an anchor named by its id.
    ...(documentationUrl === undefined ? {} : { helpUri: `${documentationUrl}#${entry.id}` }),
    properties: { deprecation_id: entry.id, removal_milestone: entry.removal_milestone, breaking: entry.breaking },
  };
}

/** A relative path as a URI reference: each segment percent-encoded, so spaces, `#` and `?` stay part of the path. */
function pathUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The report as a SARIF 2.1.0 log (GitHub code scanning, other SARIF viewers): one run, every rule
 * the checker runs described from its catalogue entry, one result per finding with the same
 * fingerprint as the Code Quality report.
 */
export function sarifReport(report: FindingReport, rules: readonly CheckerRule[], tool: SarifTool): Log {
  const ruleIndex = new Map(rules.map(({ rule }, index) => [rule, index]));
  const results: Result[] = report.findings.map((finding) => ({
    ruleId: finding.rule,
    ...(ruleIndex.has(finding.rule) ? { ruleIndex: ruleIndex.get(finding.rule) } : {}),
    level: finding.removed_by_target ? SARIF_LEVEL.removed_by_target : SARIF_LEVEL.deprecated,
    message: { text: finding.message },
    locations: [{ physicalLocation: { artifactLocation: { uri: pathUri(report.path) }, region: { startLine: finding.line } } }],
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: finding.fingerprint },
    properties: { removal_milestone: finding.removal_milestone, replacement: finding.replacement, removed_by_target: finding.removed_by_target },
  }));
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: SARIF_TOOL_NAME,
            version: tool.version,
            ...(tool.documentationUrl === undefined ? {} : { informationUri: tool.documentationUrl }),
            rules: rules.map((rule) => describeRule(rule, tool.documentationUrl)),
          },
        },
        results,
        properties: { target: report.target },
      },
    ],
  };
}
