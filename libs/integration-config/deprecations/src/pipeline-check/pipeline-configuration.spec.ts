import { InvalidPipelineYamlError } from '../deprecation.errors';
import { findTokens, jobsOf, parsePipelineConfiguration } from './pipeline-configuration';

function yamlError(text: string): InvalidPipelineYamlError {
  try {
    parsePipelineConfiguration(text);
  } catch (error) {
    if (error instanceof InvalidPipelineYamlError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('parsePipelineConfiguration', () => {
  it('reports invalid YAML with the parser line and the invalid_yaml code', () => {
    const error = yamlError('build:\n  script:\n    - echo ok\n  image: [unclosed\ntest:\n  script: x\n');
    expect(error.line).toBe(5);
    expect(error.code).toBe('invalid_yaml');
    expect(error.message).toMatch(/^Invalid YAML at line 5, column \d+: /);
  });

  it('reports a tab used as indentation at its line', () => {
    const error = yamlError('job:\n  script: x\n\tbad: 1\n');
    expect([error.line, error.column]).toEqual([3, 1]);
  });

  it('reports an alias to an undefined anchor', () => {
    const error = yamlError('job:\n  script: x\n  <<: *missing\n');
    expect(error.line).toBe(3);
    expect(error.reason).toContain('*missing');
  });

  it('refuses a document that is not a mapping', () => {
    expect(yamlError('- just\n- a list\n').reason).toContain('mapping');
    expect(yamlError('plain text').line).toBe(1);
  });

  it('accepts an empty file, comments only, merge keys, duplicate keys and the !reference tag', () => {
    expect(parsePipelineConfiguration('').documents).toEqual([]);
    expect(parsePipelineConfiguration('# nothing yet\n').documents).toEqual([]);
    const configuration = parsePipelineConfiguration(
      '.base: &base\n  stage: test\njob:\n  <<: *base\n  script: !reference [.setup, script]\njob:\n  script: again\n',
    );
    expect(jobsOf(configuration.documents[0]).map((job) => [job.name, job.hidden])).toEqual([
      ['.base', true],
      ['job', false],
      ['job', false],
    ]);
  });

  it('reads every document of a multi-document file (a spec: header, then the pipeline)', () => {
    const configuration = parsePipelineConfiguration('spec:\n  inputs:\n    stage: { type: string }\n---\nbuild:\n  script: x\n');
    expect(configuration.documents).toHaveLength(2);
    expect(jobsOf(configuration.documents[1]).map((job) => job.name)).toEqual(['build']);
  });

  it('finds tokens at their own line inside block scalars, and not in comments', () => {
    const configuration = parsePipelineConfiguration('# $CI_BUILD_ID in a comment\njob:\n  script: |\n    echo one\n    echo $CI_BUILD_ID\n');
    expect(findTokens(configuration, /(CI_BUILD_ID)/)).toEqual([{ token: 'CI_BUILD_ID', line: 5, context: 'job' }]);
  });

  it('names the top-level key (job or global keyword) a node sits in, in every document', () => {
    const source = 'spec:\n  inputs: {}\n---\nvariables:\n  A: $CI_BUILD_ID\n.base: &base\n  script: x\nbuild:\n  <<: *base\n  script: |\n    echo $CI_BUILD_ID\n';
    const configuration = parsePipelineConfiguration(source);
    expect(findTokens(configuration, /(CI_BUILD_ID)/).map((found) => [found.line, found.context])).toEqual([
      [5, 'variables'],
      [11, 'build'],
    ]);
    expect(configuration.contextAt(source.indexOf('inputs'))).toBe('spec');
    expect(configuration.contextAt(source.indexOf('x\n'))).toBe('.base');
    expect(configuration.contextAt(0)).toBe('spec');
    expect(parsePipelineConfiguration('# only a comment\nbuild:\n  script: x\n').contextAt(2)).toBe('');
  });
});
