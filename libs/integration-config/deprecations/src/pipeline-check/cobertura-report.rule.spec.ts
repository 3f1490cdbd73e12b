import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'cobertura_report');

describe('rule cobertura_report (spec 9.4)', () => {
  it('reports artifacts:reports:cobertura in a job and in default:', () => {
    expect(findings('default:\n  artifacts:\n    reports:\n      cobertura: a.xml\ntest:\n  script: x\n  artifacts:\n    reports:\n      junit: r.xml\n      cobertura: c.xml\n')).toEqual([
      expect.objectContaining({ line: 4, removal_milestone: '15.0', replacement: 'artifacts:reports:coverage_report' }),
      expect.objectContaining({ line: 10 }),
    ]);
  });

  it('accepts artifacts:reports:coverage_report and a cobertura key elsewhere', () => {
    expect(
      findings('test:\n  script: x\n  variables:\n    cobertura: yes\n  artifacts:\n    reports:\n      coverage_report:\n        coverage_format: cobertura\n        path: c.xml\n'),
    ).toEqual([]);
  });
});
