import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'analyzer_major_versions');
const pinned = (image: string) => findings(`scan:\n  image: ${image}\n  script: x\n`);

describe('rule analyzer_major_versions (spec 9.4)', () => {
  // The spec's list: the last major that stops being updated, per analyzer.
  it.each([
    ['$SECURE_ANALYZERS_PREFIX/api-security:1', 'API Security'],
    ['$SECURE_ANALYZERS_PREFIX/container-scanning:4', 'Container Scanning'],
    ['$SECURE_ANALYZERS_PREFIX/coverage-fuzzing:2', 'Coverage-guided fuzz testing'],
    ['$SECURE_ANALYZERS_PREFIX/gemnasium-maven:2', 'Dependency Scanning'],
    ['$SECURE_ANALYZERS_PREFIX/dast:2', 'DAST'],
    ['$SECURE_ANALYZERS_PREFIX/kics:1', 'IaC Scanning'],
    ['$SECURE_ANALYZERS_PREFIX/license-finder:3', 'License Scanning'],
    ['$SECURE_ANALYZERS_PREFIX/secrets:3', 'Secret Detection'],
    ['${SECURE_ANALYZERS_PREFIX}/gosec:3', 'SAST analyzer gosec'],
    ['registry.gitlab.com/security-products/semgrep:2', 'SAST analyzer semgrep'],
    ['registry.gitlab.com/gitlab-org/security-products/analyzers/spotbugs:2.28.1', 'SAST analyzer spotbugs'],
    ['$SECURE_ANALYZERS_PREFIX/eslint:1', 'SAST analyzer eslint'],
  ])('reports %s (%s)', (image, analyzer) => {
    expect(pinned(image)).toEqual([expect.objectContaining({ line: 2, removal_milestone: '15.0', message: expect.stringContaining(analyzer) })]);
  });

  it('reads image: {name: ...} too', () => {
    expect(findings('scan:\n  image:\n    name: $SECURE_ANALYZERS_PREFIX/bandit:2\n    entrypoint: [""]\n')).toEqual([expect.objectContaining({ line: 3 })]);
  });

  it.each([
    ['$SECURE_ANALYZERS_PREFIX/semgrep:3', 'a newer SAST major'],
    ['$SECURE_ANALYZERS_PREFIX/gosec:4', 'gosec above its major 3'],
    ['$SECURE_ANALYZERS_PREFIX/container-scanning:5', 'a newer container scanning major'],
    ['$SECURE_ANALYZERS_PREFIX/semgrep', 'no tag'],
    ['$SECURE_ANALYZERS_PREFIX/semgrep:latest', 'a non-numeric tag'],
    ['eslint:2', 'an image of the same name outside the analyzer registry'],
    ['node:2', 'an unrelated image'],
  ])('accepts %s (%s)', (image) => {
    expect(pinned(image)).toEqual([]);
  });
});
