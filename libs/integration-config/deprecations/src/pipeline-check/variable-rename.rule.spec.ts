import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findingsOf = (rule: string, yaml: string) => checker.check(yaml).filter((finding) => finding.rule === rule);

describe('rule ci_build_variables (spec 9.5)', () => {
  // The spec's table, in its order: each CI_BUILD_* variable and its exact replacement.
  const RENAMES: [string, string][] = [
    ['CI_BUILD_BEFORE_SHA', 'CI_COMMIT_BEFORE_SHA'],
    ['CI_BUILD_ID', 'CI_JOB_ID'],
    ['CI_BUILD_MANUAL', 'CI_JOB_MANUAL'],
    ['CI_BUILD_NAME', 'CI_JOB_NAME'],
    ['CI_BUILD_REF', 'CI_COMMIT_SHA'],
    ['CI_BUILD_REF_NAME', 'CI_COMMIT_REF_NAME'],
    ['CI_BUILD_REF_SLUG', 'CI_COMMIT_REF_SLUG'],
    ['CI_BUILD_REPO', 'CI_REPOSITORY_URL'],
    ['CI_BUILD_STAGE', 'CI_JOB_STAGE'],
    ['CI_BUILD_TAG', 'CI_COMMIT_TAG'],
    ['CI_BUILD_TOKEN', 'CI_JOB_TOKEN'],
    ['CI_BUILD_TRIGGERED', 'CI_PIPELINE_TRIGGERED'],
  ];

  it.each(RENAMES)('reports %s with its replacement %s', (variable, replacement) => {
    expect(findingsOf('ci_build_variables', `job:\n  script:\n    - echo "\${${variable}}"\n`)).toEqual([
      {
        rule: 'ci_build_variables',
        line: 3,
        message: `${variable} is removed in 16.0 (spec 9.5); use ${replacement}.`,
        removal_milestone: '16.0',
        replacement,
      },
    ]);
  });

  it('reports every use, in rules:if, variables and multi-line scripts, each at its line', () => {
    const yaml = 'variables:\n  CI_BUILD_TAG: v1\njob:\n  rules:\n    - if: $CI_BUILD_REF_NAME == "main"\n  script: |\n    echo start\n    echo $CI_BUILD_REF $CI_BUILD_ID\n';
    expect(findingsOf('ci_build_variables', yaml).map((finding) => [finding.line, finding.replacement])).toEqual([
      [2, 'CI_COMMIT_TAG'],
      [5, 'CI_COMMIT_REF_NAME'],
      [8, 'CI_COMMIT_SHA'],
      [8, 'CI_JOB_ID'],
    ]);
  });

  it('accepts the replacements, longer names that merely contain a CI_BUILD_ name, and comments', () => {
    expect(findingsOf('ci_build_variables', '# was $CI_BUILD_REF\njob:\n  script: echo $CI_COMMIT_SHA $MY_CI_BUILD_REF $CI_BUILD_REFERENCE\n')).toEqual([]);
  });
});

describe('rule secret_detection_variables (spec 9.4)', () => {
  it.each(['SECRET_DETECTION_COMMIT_FROM', 'SECRET_DETECTION_COMMIT_TO', 'SECRET_DETECTION_COMMITS', 'SECRET_DETECTION_COMMITS_FILE', 'SECRET_DETECTION_ENTROPY_LEVEL'])(
    'reports %s, pointing to SECRET_DETECTION_HISTORIC_SCAN',
    (variable) => {
      expect(findingsOf('secret_detection_variables', `secret_detection:\n  variables:\n    ${variable}: "x"\n`)).toEqual([
        {
          rule: 'secret_detection_variables',
          line: 3,
          message: `${variable} is ignored from 15.0 (spec 9.4); use SECRET_DETECTION_HISTORIC_SCAN.`,
          removal_milestone: '15.0',
          replacement: 'SECRET_DETECTION_HISTORIC_SCAN',
        },
      ]);
    },
  );

  it('accepts SECRET_DETECTION_HISTORIC_SCAN and other secret detection variables', () => {
    expect(findingsOf('secret_detection_variables', 'secret_detection:\n  variables:\n    SECRET_DETECTION_HISTORIC_SCAN: "true"\n    SECRET_DETECTION_EXCLUDED_PATHS: docs\n')).toEqual([]);
  });
});
