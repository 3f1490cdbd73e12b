import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'container_scanning_variables');

describe('rule container_scanning_variables (spec 9.5)', () => {
  it.each([
    ['DOCKER_IMAGE', 'CS_IMAGE'],
    ['DOCKER_PASSWORD', 'CS_REGISTRY_PASSWORD'],
    ['DOCKER_USER', 'CS_REGISTRY_USER'],
    ['DOCKERFILE_PATH', 'CS_DOCKERFILE_PATH'],
  ])('reports %s of a container scanning job with its replacement %s', (variable, replacement) => {
    expect(findings(`container_scanning:\n  variables:\n    ${variable}: x\n`)).toEqual([
      {
        rule: 'container_scanning_variables',
        line: 3,
        message: `Container Scanning stops reading ${variable} in 16.0 (spec 9.5); use ${replacement}.`,
        removal_milestone: '16.0',
        replacement,
      },
    ]);
  });

  it('reports any other DOCKER_ prefixed variable of a container scanning job, also one found by extends', () => {
    expect(findings('scan images:\n  extends: container_scanning\n  variables:\n    DOCKER_REGISTRY_MIRROR: m\n')).toEqual([
      expect.objectContaining({ line: 4, replacement: 'CS_ prefixed variable' }),
    ]);
  });

  it('reports the named variables in global variables when the file includes the container scanning template', () => {
    const yaml = 'include:\n  - template: Security/Container-Scanning.gitlab-ci.yml\nvariables:\n  DOCKER_IMAGE: app\n  DOCKER_HOST: tcp://docker:2375\n';
    expect(findings(yaml).map((finding) => [finding.line, finding.replacement])).toEqual([[4, 'CS_IMAGE']]);
  });

  it('accepts CS_ variables, and DOCKER_ variables in files or jobs that do not configure container scanning', () => {
    expect(findings('container_scanning:\n  variables:\n    CS_IMAGE: app\n    CS_REGISTRY_USER: me\n')).toEqual([]);
    expect(findings('variables:\n  DOCKER_IMAGE: app\n  DOCKER_TLS_CERTDIR: ""\nbuild:\n  variables:\n    DOCKER_USER: me\n  script: docker build .\n')).toEqual([]);
  });
});
