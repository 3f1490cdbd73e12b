import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'starboard_directive');

describe('rule starboard_directive (spec 9.5)', () => {
  it('reports the starboard: directive of an agent configuration', () => {
    expect(findings('gitops:\n  manifest_projects: []\nstarboard:\n  vulnerability_report:\n    namespaces: [default]\n')).toEqual([
      {
        rule: 'starboard_directive',
        line: 3,
        message: 'The agent configuration directive starboard: is replaced in 16.0 (spec 9.5); use container_scanning:.',
        removal_milestone: '16.0',
        replacement: 'container_scanning:',
      },
    ]);
  });

  it('accepts container_scanning:, and a pipeline job that happens to be named starboard', () => {
    expect(findings('container_scanning:\n  vulnerability_report:\n    namespaces: [default]\n')).toEqual([]);
    expect(findings('starboard:\n  stage: test\n  script: ./run\n')).toEqual([]);
  });
});
