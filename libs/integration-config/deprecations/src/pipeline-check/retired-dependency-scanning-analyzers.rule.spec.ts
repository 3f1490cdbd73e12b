import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'retired_dependency_scanning_analyzers');

describe('rule retired_dependency_scanning_analyzers (spec 9.4)', () => {
  it('reports Retire-JS and bundler-audit in DS_EXCLUDED_ANALYZERS', () => {
    expect(findings('variables:\n  DS_EXCLUDED_ANALYZERS: "gemnasium-python, retire.js,bundler-audit"\n')).toEqual([
      expect.objectContaining({ line: 2, removal_milestone: '15.0', replacement: 'remove retire.js from DS_EXCLUDED_ANALYZERS' }),
      expect.objectContaining({ line: 2, replacement: 'remove bundler-audit from DS_EXCLUDED_ANALYZERS' }),
    ]);
  });

  it('reports customised Retire-JS and bundler-audit jobs, pointing to gemnasium-dependency_scanning', () => {
    expect(findings('retire-js-dependency_scanning:\n  variables: { A: b }\nbundler-audit-dependency_scanning:\n  rules: []\n')).toEqual([
      expect.objectContaining({ line: 1, replacement: 'gemnasium-dependency_scanning' }),
      expect.objectContaining({ line: 3, replacement: 'gemnasium-dependency_scanning' }),
    ]);
  });

  it('accepts other excluded analyzers and the gemnasium job', () => {
    expect(findings('variables:\n  DS_EXCLUDED_ANALYZERS: "gemnasium-python"\ngemnasium-dependency_scanning:\n  variables:\n    DS_Java_Version: "11"\n')).toEqual([]);
  });
});
