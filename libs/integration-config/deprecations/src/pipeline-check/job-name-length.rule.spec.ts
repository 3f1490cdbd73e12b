import { loadDeprecationCatalogue } from '../catalogue-loader';
import { createPipelineChecker } from './pipeline-checker';

const checker = createPipelineChecker(loadDeprecationCatalogue());
const findings = (yaml: string) => checker.check(yaml).filter((finding) => finding.rule === 'job_name_length');

describe('rule job_name_length (spec 9.4 and 8: at most 255 characters)', () => {
  it('reports a job name of 256 characters', () => {
    const name = 'j'.repeat(256);
    expect(findings(`ok:\n  script: x\n${name}:\n  script: x\n`)).toEqual([
      expect.objectContaining({ line: 3, removal_milestone: '15.0', message: expect.stringContaining('256 characters') }),
    ]);
  });

  it('accepts exactly 255 characters, counted as characters rather than UTF-16 units', () => {
    expect(findings(`${'j'.repeat(255)}:\n  script: x\n`)).toEqual([]);
    expect(findings(`${'é'.repeat(200)}${'😀'.repeat(55)}:\n  script: x\n`)).toEqual([]);
  });

  it('ignores hidden jobs and global keywords, which are not job names', () => {
    expect(findings(`.${'h'.repeat(300)}:\n  script: x\n`)).toEqual([]);
  });
});
