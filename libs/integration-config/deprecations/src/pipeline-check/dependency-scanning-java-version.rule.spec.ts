import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'ds_java_version_default');

describe('rule ds_java_version_default (spec 9.4)', () => {
  it('reports a dependency scanning template include that leaves the Java version to the default', () => {
    expect(findings('include:\n  - template: Security/Dependency-Scanning.gitlab-ci.yml\n')).toEqual([
      {
        rule: 'ds_java_version_default',
        line: 2,
        message:
          "Dependency scanning's default Java version changes from 11 to 17 in 15.0 (spec 9.4) and DS_Java_Version is not set; set it to 11 to keep Java 11.",
        removal_milestone: '15.0',
        replacement: 'Set DS_Java_Version: 11 to keep Java 11 (supported: 8, 11, 13, 14, 15, 16, 17).',
      },
    ]);
  });

  it('reports a dependency scanning job (by name or extends) without the variable', () => {
    expect(findings('gemnasium-maven-dependency_scanning:\n  script: scan\njava deps:\n  extends: .dependency_scanning\n').map((finding) => finding.line)).toEqual([1, 3]);
  });

  it('accepts a configuration that sets DS_Java_Version (in any case) globally or in a dependency scanning job', () => {
    expect(findings('include:\n  - template: Dependency-Scanning.gitlab-ci.yml\nvariables:\n  DS_Java_Version: "11"\n')).toEqual([]);
    expect(findings('include:\n  - template: Dependency-Scanning.gitlab-ci.yml\ngemnasium-maven-dependency_scanning:\n  variables:\n    DS_JAVA_VERSION: "17"\n')).toEqual([]);
  });

  it('accepts a file without dependency scanning', () => {
    expect(findings('build:\n  script: mvn package\n')).toEqual([]);
  });
});
