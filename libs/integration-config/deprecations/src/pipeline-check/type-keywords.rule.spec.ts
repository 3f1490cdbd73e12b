import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'type_keywords');

describe('rule type_keywords (spec 9.4)', () => {
  it('reports the global types keyword and a job type keyword, hidden jobs included', () => {
    expect(findings('types:\n  - build\nbuild:\n  type: build\n  script: make\n.template:\n  type: test\n')).toEqual([
      { rule: 'type_keywords', line: 1, message: 'The types keyword is removed in 15.0 (spec 9.4); use stages.', removal_milestone: '15.0', replacement: 'stages' },
      {
        rule: 'type_keywords',
        line: 4,
        message: 'The type keyword of job build is removed in 15.0 (spec 9.4); use stage.',
        removal_milestone: '15.0',
        replacement: 'stage',
      },
      expect.objectContaining({ line: 7, replacement: 'stage' }),
    ]);
  });

  it('accepts stage and stages, and a type key that belongs to another keyword', () => {
    expect(
      findings('spec:\n  inputs:\n    env:\n      type: string\n---\nstages: [build]\nbuild:\n  stage: build\n  script: make\n  image:\n    name: x\n    docker: { type: y }\n'),
    ).toEqual([]);
  });
});
