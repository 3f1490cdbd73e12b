import { loadDeprecationCatalogue } from '../catalogue-loader';
import { codeQualityReport } from './codequality-report';
import { buildFindingReport } from './finding-report';
import { createPipelineChecker } from './pipeline-checker';
import { EVERY_RULE } from './pipeline-configuration.fixture';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const MIXED = 'types: [build]\nbuild:\n  script: echo $CI_BUILD_REF\n';
const issuesOf = (yaml: string, target: string, path = '.gitlab-ci.yml') => codeQualityReport(buildFindingReport(checker.checkWithSubjects(yaml), path, target));

describe('codeQualityReport', () => {
  it('writes one issue per finding with exactly the fields GitLab reads', () => {
    const issues = issuesOf(MIXED, '15.0', 'ci/pipeline.yml');
    expect(issues).toEqual([
      {
        description: 'The types keyword is removed in 15.0 (spec 9.4); use stages.',
        check_name: 'type_keywords',
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        severity: 'critical',
        location: { path: 'ci/pipeline.yml', lines: { begin: 1 } },
      },
      {
        description: 'CI_BUILD_REF is removed in 16.0 (spec 9.5); use CI_COMMIT_SHA.',
        check_name: 'ci_build_variables',
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        severity: 'minor',
        location: { path: 'ci/pipeline.yml', lines: { begin: 3 } },
      },
    ]);
  });

  it('rates removed by the target critical and only deprecated minor, by the target given', () => {
    const severities = (target: string) => issuesOf(MIXED, target).map((issue) => [issue.check_name, issue.severity]);
    expect(severities('14.10')).toEqual([
      ['type_keywords', 'minor'],
      ['ci_build_variables', 'minor'],
    ]);
    expect(severities('15.0')).toEqual([
      ['type_keywords', 'critical'],
      ['ci_build_variables', 'minor'],
    ]);
    expect(severities('16.0')).toEqual([
      ['type_keywords', 'critical'],
      ['ci_build_variables', 'critical'],
    ]);
  });

  it('keeps the fingerprint of an issue whatever its severity, and gives every issue its own', () => {
    expect(issuesOf(MIXED, '14.10').map((issue) => issue.fingerprint)).toEqual(issuesOf(MIXED, '16.0').map((issue) => issue.fingerprint));
    const issues = issuesOf(EVERY_RULE, '16.0');
    expect(new Set(issues.map((issue) => issue.fingerprint)).size).toBe(issues.length);
  });

  it('is an empty array for a clean file', () => {
    expect(issuesOf('build:\n  script: echo $CI_COMMIT_SHA\n', '16.0')).toEqual([]);
  });
});
