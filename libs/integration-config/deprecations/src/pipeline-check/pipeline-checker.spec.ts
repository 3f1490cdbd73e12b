import { loadDeprecationCatalogue } from '../catalogue-loader';
import { DeprecationCatalogue } from '../deprecation-catalogue';
import { CatalogueError, InvalidMilestoneError, InvalidPipelineYamlError } from '../deprecation.errors';
import { createPipelineChecker } from './pipeline-checker';

const catalogue = loadDeprecationCatalogue();
const checker = createPipelineChecker(catalogue);

const MIXED = `types: [build]
build:
  script: echo $CI_BUILD_REF
`;

describe('pipeline configuration checker', () => {
  it('finds nothing in a clean configuration', () => {
    const clean = `stages: [build, test]
variables:
  DOCKER_HOST: tcp://docker:2375
default:
  image: node:20
build:
  stage: build
  script:
    - npm ci
    - echo "$CI_COMMIT_SHA on $CI_COMMIT_REF_NAME"
  artifacts:
    reports:
      coverage_report: { coverage_format: cobertura, path: coverage.xml }
include:
  - template: Security/Secret-Detection.gitlab-ci.yml
`;
    expect(checker.check(clean)).toEqual([]);
    expect(checker.check('')).toEqual([]);
  });

  it('returns findings in line order with the contract fields only', () => {
    const findings = checker.check(MIXED);
    expect(findings.map((finding) => [finding.line, finding.rule, finding.removal_milestone])).toEqual([
      [1, 'type_keywords', '15.0'],
      [3, 'ci_build_variables', '16.0'],
    ]);
    expect(Object.keys(findings[0]).sort()).toEqual(['line', 'message', 'removal_milestone', 'replacement', 'rule']);
  });

  it('limits findings to what is removed by the target milestone (inclusive)', () => {
    expect(checker.check(MIXED, '14.10')).toEqual([]);
    expect(checker.check(MIXED, '15.0').map((finding) => finding.rule)).toEqual(['type_keywords']);
    expect(checker.check(MIXED, '15.10').map((finding) => finding.rule)).toEqual(['type_keywords']);
    expect(checker.check(MIXED, '16.0').map((finding) => finding.rule)).toEqual(['type_keywords', 'ci_build_variables']);
    expect(checker.check(MIXED, null)).toHaveLength(2);
  });

  it('refuses a malformed target and invalid YAML', () => {
    expect(() => checker.check(MIXED, '16')).toThrow(InvalidMilestoneError);
    expect(() => checker.check('build: [\n')).toThrow(InvalidPipelineYamlError);
  });

  it('refuses to start when a rule has no catalogue entry to read', () => {
    const withoutCiBuild: DeprecationCatalogue = { ...catalogue, entries: catalogue.entries.filter((entry) => entry.id !== 'ci-build-predefined-variables') };
    expect(() => createPipelineChecker(withoutCiBuild)).toThrow(CatalogueError);
    expect(() => createPipelineChecker(withoutCiBuild)).toThrow('ci-build-predefined-variables');
  });

  it('refuses to start when an entry lacks the identifiers its rule reads', () => {
    const withoutKeywords: DeprecationCatalogue = {
      ...catalogue,
      entries: catalogue.entries.map((entry) => (entry.id === 'type-and-types-keywords' ? { ...entry, identifiers: [] } : entry)),
    };
    expect(() => createPipelineChecker(withoutKeywords)).toThrow('needs at least one identifier of kind keyword');
  });
});
