import { loadDeprecationCatalogue } from '../catalogue-loader';
import { DeprecationCatalogue } from '../deprecation-catalogue';
import { InvalidDeprecationQueryError } from '../deprecation.errors';
import { buildFindingReport, effectiveCheckTarget, findingFingerprint, parseReportPath } from './finding-report';
import { EVERY_RULE } from './pipeline-configuration.fixture';
import { createPipelineChecker, PIPELINE_RULES } from './pipeline-checker';

const catalogue = loadDeprecationCatalogue();

const reportOf = (yaml: string, path = '.gitlab-ci.yml', target = '16.0', checked: DeprecationCatalogue = catalogue) =>
  buildFindingReport(createPipelineChecker(checked).checkWithSubjects(yaml), path, target);

const byFinding = (yaml: string, path?: string) =>
  reportOf(yaml, path).findings.map((finding) => ({ rule: finding.rule, line: finding.line, subject: finding.subject, fingerprint: finding.fingerprint }));

describe('finding fingerprints', () => {
  it('covers every rule with a subject naming the job or keyword and what is found', () => {
    const findings = byFinding(EVERY_RULE);
    expect(new Set(findings.map((finding) => finding.rule))).toEqual(new Set(PIPELINE_RULES.map((rule) => rule.rule)));
    expect(findings.map((finding) => [finding.rule, finding.subject])).toEqual(
      expect.arrayContaining([
        ['type_keywords', 'types'],
        ['type_keywords', 'build / type'],
        ['container_scanning_variables', 'variables / DOCKER_IMAGE'],
        ['container_scanning_variables', 'container_scanning / DOCKER_USER'],
        ['secret_detection_variables', 'variables / SECRET_DETECTION_COMMIT_FROM'],
        ['retired_dependency_scanning_analyzers', 'variables / DS_EXCLUDED_ANALYZERS / Retire-JS'],
        ['retired_dependency_scanning_analyzers', 'bundler-audit-dependency_scanning'],
        ['ds_java_version_default', 'include / Dependency-Scanning.gitlab-ci.yml'],
        ['ci_build_variables', 'build / CI_BUILD_REF'],
        ['ci_build_variables', 'deploy / CI_BUILD_REF'],
        ['cobertura_report', 'build / artifacts:reports:cobertura'],
        ['analyzer_major_versions', 'sast / semgrep'],
        ['job_name_length', 'j'.repeat(256)],
        ['starboard_directive', 'starboard'],
      ]),
    );
  });

  it('are the same in every run', () => {
    expect(byFinding(EVERY_RULE)).toEqual(byFinding(EVERY_RULE));
    expect(findingFingerprint('ci_build_variables', '.gitlab-ci.yml', 'build / CI_BUILD_REF', 0)).toBe(
      findingFingerprint('ci_build_variables', '.gitlab-ci.yml', 'build / CI_BUILD_REF', 0),
    );
  });

  it('do not change when lines are inserted above (comments, a new job, more script lines)', () => {
    const before = byFinding(EVERY_RULE);
    const shifted = `# Upgrade notes\n\nlint:\n  script: npm run lint\n\n${EVERY_RULE.replace('  script:\n    - echo $CI_BUILD_REF', '  script:\n    - npm ci\n    - echo $CI_BUILD_REF')}`;
    const after = byFinding(shifted);
    expect(after.map((finding) => finding.fingerprint)).toEqual(before.map((finding) => finding.fingerprint));
    expect(after[0].line).toBe(before[0].line + 5);
    expect(after.at(-1)!.line).toBe(before.at(-1)!.line + 6);
  });

  it('do not change when a removal milestone slips, which rewords the message', () => {
    const slipped: DeprecationCatalogue = {
      ...catalogue,
      entries: catalogue.entries.map((entry) => (entry.id === 'ci-build-predefined-variables' ? { ...entry, removal_milestone: '16.1' } : entry)),
    };
    const yaml = 'build:\n  script: echo $CI_BUILD_REF\n';
    const [original] = reportOf(yaml).findings;
    const [later] = reportOf(yaml, '.gitlab-ci.yml', '16.0', slipped).findings;
    expect(later.message).not.toBe(original.message);
    expect(later.removed_by_target).toBe(false);
    expect(later.fingerprint).toBe(original.fingerprint);
  });

  it('tell duplicates apart by occurrence, and the same variable in two jobs by its job', () => {
    const ciBuild = byFinding(EVERY_RULE).filter((finding) => finding.rule === 'ci_build_variables');
    expect(ciBuild).toHaveLength(3);
    expect(new Set(ciBuild.map((finding) => finding.fingerprint)).size).toBe(3);
    expect(new Set(byFinding(EVERY_RULE).map((finding) => finding.fingerprint)).size).toBe(byFinding(EVERY_RULE).length);
    // Fixing the first of two uses leaves one: it takes over occurrence 0.
    const once = byFinding(EVERY_RULE.replace('    - echo $CI_BUILD_REF\n', '    - echo $CI_COMMIT_SHA\n')).filter((finding) => finding.rule === 'ci_build_variables');
    expect(once.map((finding) => finding.fingerprint)).toEqual([ciBuild[0].fingerprint, ciBuild[2].fingerprint]);
  });

  it('depend on the file, however its path is spelt', () => {
    const yaml = 'build:\n  script: echo $CI_BUILD_REF\n';
    const [root] = byFinding(yaml, parseReportPath('path', '.gitlab-ci.yml'));
    const [dotted] = byFinding(yaml, parseReportPath('path', './.gitlab-ci.yml'));
    const [included] = byFinding(yaml, parseReportPath('path', 'ci/build.yml'));
    expect(dotted.fingerprint).toBe(root.fingerprint);
    expect(included.fingerprint).not.toBe(root.fingerprint);
  });
});

describe('classification against the target', () => {
  const MIXED = 'types: [build]\nbuild:\n  script: echo $CI_BUILD_REF\n';
  const removed = (target: string) => reportOf(MIXED, '.gitlab-ci.yml', target).findings.map((finding) => [finding.rule, finding.removed_by_target]);

  it('marks what is removed by the target (inclusive) apart from what is only deprecated', () => {
    expect(removed('14.10')).toEqual([
      ['type_keywords', false],
      ['ci_build_variables', false],
    ]);
    expect(removed('15.0')).toEqual([
      ['type_keywords', true],
      ['ci_build_variables', false],
    ]);
    expect(removed('16.0')).toEqual([
      ['type_keywords', true],
      ['ci_build_variables', true],
    ]);
  });

  it('measures against the end of the schedule when no target is given', () => {
    expect(effectiveCheckTarget(catalogue, null)).toBe('17.0');
    expect(effectiveCheckTarget(catalogue, '15.0')).toBe('15.0');
  });
});

describe('parseReportPath', () => {
  it.each([
    ['.gitlab-ci.yml', '.gitlab-ci.yml'],
    ['./.gitlab-ci.yml', '.gitlab-ci.yml'],
    ['ci\\deploy.yml', 'ci/deploy.yml'],
    ['ci/./jobs//build.yml', 'ci/jobs/build.yml'],
  ])('names %s as %s', (given, path) => {
    expect(parseReportPath('path', given)).toBe(path);
  });

  it.each(['', ' ', '/builds/group/project/.gitlab-ci.yml', 'C:\\ci.yml', '../.gitlab-ci.yml', 'ci/../../x.yml', '.', 'a\nb'])('refuses %j', (given) => {
    expect(() => parseReportPath('path', given)).toThrow(InvalidDeprecationQueryError);
  });
});
