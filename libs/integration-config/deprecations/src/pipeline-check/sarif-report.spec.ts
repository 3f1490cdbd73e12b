import '@microsoft/jest-sarif';
import type { Log } from 'sarif';
import { loadDeprecationCatalogue } from '../catalogue-loader';
import { renderScheduleMarkdown } from '../schedule-markdown';
import { codeQualityReport } from './codequality-report';
import { buildFindingReport } from './finding-report';
import { createPipelineChecker, PIPELINE_RULES } from './pipeline-checker';
import { EVERY_RULE } from './pipeline-configuration.fixture';
import { SARIF_FINGERPRINT_KEY, SARIF_TOOL_NAME, sarifReport } from './sarif-report';

const catalogue = loadDeprecationCatalogue();
const checker = createPipelineChecker(catalogue);
const DOCS = 'https://gitlab.example.com/platform/alert-ingestion/-/blob/main/docs/deprecations.md';
const MIXED = 'types: [build]\nbuild:\n  script: echo $CI_BUILD_REF\n';

const reportOf = (yaml: string, target: string, path = '.gitlab-ci.yml') => buildFindingReport(checker.checkWithSubjects(yaml), path, target);
const logOf = (yaml: string, target: string, path?: string, documentationUrl?: string) =>
  sarifReport(reportOf(yaml, target, path), checker.rules, { version: '1.2.3', documentationUrl });

describe('sarifReport', () => {
  it('is a valid SARIF 2.1.0 log (the published JSON schema), with and without documentation links, with and without results', () => {
    expect(logOf(EVERY_RULE, '15.0')).toBeValidSarifLog();
    expect(logOf(EVERY_RULE, '15.0', 'ci/my pipeline.yml', DOCS)).toBeValidSarifLog();
    expect(logOf('build:\n  script: x\n', '16.0')).toBeValidSarifLog();
  });

  it('is checked by a schema validator that catches what SARIF forbids', () => {
    const log = logOf(MIXED, '16.0', undefined, DOCS);
    const rules = log.runs[0].tool.driver.rules!;
    // helpUri must be an absolute URI: the reason a documentation URL is needed at all.
    expect({ ...log, runs: [{ ...log.runs[0], tool: { driver: { ...log.runs[0].tool.driver, rules: [{ ...rules[0], helpUri: 'docs/deprecations.md#x' }] } } }] }).not.toBeValidSarifLog();
    expect({ ...log, runs: [{ ...log.runs[0], results: [{ ruleId: 'type_keywords' }] }] }).not.toBeValidSarifLog();
    expect({ ...log, version: '2.0.0' }).not.toBeValidSarifLog();
  });

  it('has one run whose driver names the tool and version and describes every rule from its catalogue entry', () => {
    const log: Log = logOf(MIXED, '16.0', undefined, DOCS);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.runs).toHaveLength(1);
    const { driver } = log.runs[0].tool;
    expect([driver.name, driver.version, driver.informationUri]).toEqual([SARIF_TOOL_NAME, '1.2.3', DOCS]);
    expect(driver.rules!.map((rule) => rule.id)).toEqual(PIPELINE_RULES.map((rule) => rule.rule));
    const page = renderScheduleMarkdown(catalogue);
    for (const [index, rule] of driver.rules!.entries()) {
      const { entry } = checker.rules[index];
      expect(rule.shortDescription!.text).toBe(entry.title);
      expect(rule.fullDescription!.text).toBe(entry.change);
      expect(rule.help!.text).toContain(`catalogue entry ${entry.id} in docs/deprecations.md`);
      expect(rule.helpUri).toBe(`${DOCS}#${entry.id}`);
      expect(page).toContain(`<a id="${entry.id}"></a>`);
    }
    expect(driver.rules![0]).toEqual(
      expect.objectContaining({ id: 'type_keywords', shortDescription: { text: 'type and types keywords' }, properties: expect.objectContaining({ removal_milestone: '15.0' }) }),
    );
  });

  it('leaves the links out without a documentation URL', () => {
    const { driver } = logOf(MIXED, '16.0').runs[0].tool;
    expect(driver.informationUri).toBeUndefined();
    expect(driver.rules!.every((rule) => rule.helpUri === undefined && rule.help !== undefined)).toBe(true);
  });

  it('writes one result per finding: rule, level by target, message, location and the Code Quality fingerprint', () => {
    const log = logOf(MIXED, '15.0', 'ci/my pipeline.yml');
    const run = log.runs[0];
    const fingerprints = codeQualityReport(reportOf(MIXED, '15.0', 'ci/my pipeline.yml')).map((issue) => issue.fingerprint);
    expect(run.results).toEqual([
      expect.objectContaining({
        ruleId: 'type_keywords',
        ruleIndex: 0,
        level: 'error',
        message: { text: 'The types keyword is removed in 15.0 (spec 9.4); use stages.' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'ci/my%20pipeline.yml' }, region: { startLine: 1 } } }],
        partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprints[0] },
      }),
      expect.objectContaining({
        ruleId: 'ci_build_variables',
        level: 'warning',
        locations: [{ physicalLocation: { artifactLocation: { uri: 'ci/my%20pipeline.yml' }, region: { startLine: 3 } } }],
        partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprints[1] },
      }),
    ]);
    expect(run.tool.driver.rules![run.results![1].ruleIndex!].id).toBe('ci_build_variables');
    expect(run.properties).toEqual({ target: '15.0' });
  });

  it('raises the deprecated-only warning to an error once the target reaches its removal', () => {
    expect(logOf(MIXED, '16.0').runs[0].results!.map((result) => result.level)).toEqual(['error', 'error']);
    expect(logOf(MIXED, '14.10').runs[0].results!.map((result) => result.level)).toEqual(['warning', 'warning']);
  });
});
