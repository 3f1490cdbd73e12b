import '@microsoft/jest-sarif';
import { transformFileSync } from '@swc/core';
import { spawn as spawnAsync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { locateCatalogue } from '@alert-ingestion/deprecations';
import { CliIo, EXIT_CLEAN, EXIT_DEPRECATED, EXIT_ERROR, EXIT_REMOVED, main } from '../src/cli';

const REPOSITORY = resolve(__dirname, '..', '..', '..');

/** Uses removed in 15.0 (types) and in 16.0 (CI_BUILD_REF). */
const MIXED = 'types: [build]\nbuild:\n  script: echo $CI_BUILD_REF\n';
/** Only a 16.0 removal. */
const ONLY_16 = 'build:\n  stage: build\n  script: echo $CI_BUILD_REF\n';
const CLEAN = 'stages: [build]\nbuild:\n  stage: build\n  script: echo $CI_COMMIT_SHA\n';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('deprecations CLI', () => {
  let work: string;

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'deprecations-cli-'));
    writeFileSync(join(work, 'mixed.yml'), MIXED);
    writeFileSync(join(work, 'only-16.yml'), ONLY_16);
    writeFileSync(join(work, 'clean.yml'), CLEAN);
    writeFileSync(join(work, 'broken.yml'), 'build:\n  script: [unclosed\n');
  });

  afterEach(() => rmSync(work, { recursive: true, force: true }));

  function run(argv: string[], env: NodeJS.ProcessEnv = {}): Run {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      readFile: (path) => readFileSync(path, 'utf8'),
      writeFile: (path, text) => {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
      },
      cwd: work,
      env,
      version: '9.8.7',
    };
    const code = main(argv, io);
    return { code, stdout: out.join(''), stderr: err.join('') };
  }

  describe('check exit codes', () => {
    it('0 for a clean file', () => {
      const result = run(['check', 'clean.yml', '--target', '16.0']);
      expect(result.code).toBe(EXIT_CLEAN);
      expect(result.stdout).toBe('clean.yml: no deprecated usage against target 16.0.\n');
    });

    it('2 when everything found is removed only after the target', () => {
      expect(run(['check', 'only-16.yml', '--target', '15.0']).code).toBe(EXIT_DEPRECATED);
      expect(run(['check', 'only-16.yml', '--target', '15.10']).code).toBe(EXIT_DEPRECATED);
    });

    it('3 when something found is removed by the target (inclusive)', () => {
      expect(run(['check', 'only-16.yml', '--target', '16.0']).code).toBe(EXIT_REMOVED);
      const mixed = run(['check', 'mixed.yml', '--target', '15.0']);
      expect(mixed.code).toBe(EXIT_REMOVED);
      expect(mixed.stdout).toBe(
        [
          'mixed.yml:1: [removed by 15.0] type_keywords: The types keyword is removed in 15.0 (spec 9.4); use stages.',
          'mixed.yml:3: [deprecated, removed in 16.0] ci_build_variables: CI_BUILD_REF is removed in 16.0 (spec 9.5); use CI_COMMIT_SHA.',
          '2 findings against target 15.0: 1 removed by the target, 1 deprecated and removed later.',
          '',
        ].join('\n'),
      );
    });

    it('without --target, measures against the whole schedule: any finding is removed (3)', () => {
      const result = run(['check', 'only-16.yml']);
      expect(result.code).toBe(EXIT_REMOVED);
      expect(result.stdout).toContain('against the whole schedule (up to 17.0)');
      expect(run(['check', 'clean.yml']).code).toBe(EXIT_CLEAN);
    });

    it('1 for invalid YAML, a malformed target, a missing file or bad arguments', () => {
      const broken = run(['check', 'broken.yml']);
      expect(broken.code).toBe(EXIT_ERROR);
      expect(broken.stderr).toMatch(/^deprecations: Invalid YAML at line \d+/);
      expect(run(['check', 'mixed.yml', '--target', '16']).code).toBe(EXIT_ERROR);
      expect(run(['check', 'nowhere.yml']).code).toBe(EXIT_ERROR);
      expect(run(['check']).code).toBe(EXIT_ERROR);
      expect(run(['check', 'mixed.yml', '--colour']).code).toBe(EXIT_ERROR);
      expect(run(['check', 'mixed.yml', '--format', 'xml']).code).toBe(EXIT_ERROR);
      expect(run(['lint', 'mixed.yml']).code).toBe(EXIT_ERROR);
    });
  });

  describe('check --format codequality and sarif', () => {
    it.each(['json', 'codequality', 'sarif'])('keeps the exit codes 0, 2 and 3 in --format %s', (format) => {
      expect(run(['check', 'clean.yml', '--target', '16.0', '--format', format]).code).toBe(EXIT_CLEAN);
      expect(run(['check', 'only-16.yml', '--target', '15.0', '--format', format]).code).toBe(EXIT_DEPRECATED);
      expect(run(['check', 'mixed.yml', '--target', '15.0', '--format', format]).code).toBe(EXIT_REMOVED);
    });

    it('writes a Code Quality report naming the file as given, critical when removed by the target and minor when only deprecated', () => {
      mkdirSync(join(work, 'ci'));
      writeFileSync(join(work, 'ci', 'build.yml'), MIXED);
      const result = run(['check', './ci/build.yml', '--target', '15.0', '--format', 'codequality']);
      expect(result.code).toBe(EXIT_REMOVED);
      expect(result.stderr).toBe('');
      const issues = JSON.parse(result.stdout);
      expect(issues).toEqual([
        {
          description: 'The types keyword is removed in 15.0 (spec 9.4); use stages.',
          check_name: 'type_keywords',
          fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
          severity: 'critical',
          location: { path: 'ci/build.yml', lines: { begin: 1 } },
        },
        expect.objectContaining({ check_name: 'ci_build_variables', severity: 'minor', location: { path: 'ci/build.yml', lines: { begin: 3 } } }),
      ]);
      // The same file named absolutely, or by --path, is the same report.
      expect(JSON.parse(run(['check', join(work, 'ci', 'build.yml'), '--target', '15.0', '--format', 'codequality']).stdout)).toEqual(issues);
      expect(JSON.parse(run(['check', 'mixed.yml', '--target', '15.0', '--format', 'codequality', '--path', 'ci/build.yml']).stdout)).toEqual(issues);
    });

    it('gives the same fingerprints in every run and when lines are inserted above', () => {
      const fingerprints = (file: string) =>
        JSON.parse(run(['check', file, '--format', 'codequality', '--path', '.gitlab-ci.yml']).stdout).map((issue: { fingerprint: string }) => issue.fingerprint);
      writeFileSync(join(work, 'moved.yml'), `# a comment\nlint:\n  script: npm run lint\n${MIXED}`);
      expect(fingerprints('mixed.yml')).toHaveLength(2);
      expect(fingerprints('mixed.yml')).toEqual(fingerprints('mixed.yml'));
      expect(fingerprints('moved.yml')).toEqual(fingerprints('mixed.yml'));
    });

    it('writes a SARIF log with the package version, error for removed and warning for deprecated, and the Code Quality fingerprints', () => {
      const docs = 'https://github.com/example/alert-ingestion/blob/main/docs/deprecations.md';
      const result = run(['check', 'mixed.yml', '--target', '15.0', '--format', 'sarif', '--docs-url', docs]);
      expect(result.code).toBe(EXIT_REMOVED);
      const log = JSON.parse(result.stdout);
      expect(log).toBeValidSarifLog();
      const [sarifRun] = log.runs;
      expect(sarifRun.tool.driver).toEqual(expect.objectContaining({ version: '9.8.7', informationUri: docs }));
      expect(sarifRun.tool.driver.rules[0].helpUri).toBe(`${docs}#type-and-types-keywords`);
      expect(sarifRun.results.map((result: { ruleId: string; level: string }) => [result.ruleId, result.level])).toEqual([
        ['type_keywords', 'error'],
        ['ci_build_variables', 'warning'],
      ]);
      expect(sarifRun.results[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'mixed.yml' }, region: { startLine: 1 } });
      const issues = JSON.parse(run(['check', 'mixed.yml', '--target', '15.0', '--format', 'codequality']).stdout);
      expect(sarifRun.results.map((result: { partialFingerprints: Record<string, string> }) => Object.values(result.partialFingerprints)[0])).toEqual(
        issues.map((issue: { fingerprint: string }) => issue.fingerprint),
      );
    });

    it('writes an empty report for a clean file', () => {
      expect(JSON.parse(run(['check', 'clean.yml', '--format', 'codequality']).stdout)).toEqual([]);
      expect(JSON.parse(run(['check', 'clean.yml', '--format', 'sarif']).stdout).runs[0].results).toEqual([]);
    });

    it.each([
      [['--format', 'html'], '--format must be one of text, json, codequality, sarif, got html'],
      [['--format', 'codequality', '--path', '/builds/project/.gitlab-ci.yml'], '--path must be a file path relative to the repository root'],
      [['--format', 'text', '--path', 'ci.yml'], '--path applies to --format codequality and sarif'],
      [['--format', 'codequality', '--docs-url', 'https://example.com/docs.md'], '--docs-url applies to --format sarif'],
      [['--format', 'sarif', '--docs-url', 'docs/deprecations.md'], '--docs-url must be an absolute http(s) URL'],
    ])('refuses %j as a usage error (exit 1), on stderr with stdout left empty', (options, message) => {
      const result = run(['check', 'mixed.yml', ...options]);
      expect(result.code).toBe(EXIT_ERROR);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
    });

    it('names a file outside the current folder only through --path', () => {
      const outside = run(['check', join(work, '..'), '--format', 'codequality']);
      expect(outside.code).toBe(EXIT_ERROR);
      expect(outside.stderr).toContain('the checked file (or --path) must be a file path relative to the repository root');
      expect(run(['check', 'broken.yml', '--format', 'sarif']).stdout).toBe('');
    });
  });

  it('check --format json prints findings marked removed_by_target, a summary and the exit code', () => {
    const result = run(['check', 'mixed.yml', '--target', '15.0', '--format', 'json']);
    expect(result.code).toBe(EXIT_REMOVED);
    expect(JSON.parse(result.stdout)).toEqual({
      file: 'mixed.yml',
      target: '15.0',
      effective_target: '15.0',
      findings: [
        expect.objectContaining({ rule: 'type_keywords', line: 1, removal_milestone: '15.0', replacement: 'stages', removed_by_target: true }),
        expect.objectContaining({ rule: 'ci_build_variables', line: 3, removal_milestone: '16.0', replacement: 'CI_COMMIT_SHA', removed_by_target: false }),
      ],
      summary: { removed_by_target: 1, deprecated: 1 },
      exit_code: EXIT_REMOVED,
    });
  });

  it('check --format=json reports errors as JSON too', () => {
    const result = run(['check', 'broken.yml', '--format=json']);
    expect(result.code).toBe(EXIT_ERROR);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'invalid_yaml', message: expect.stringMatching(/^Invalid YAML at line \d+/) });
  });

  it('upgrade-report prints what changes by milestone, and refuses a reversed range', () => {
    const result = run(['upgrade-report', '--from', '15.9', '--to', '16.0', '--format', 'json']);
    expect(result.code).toBe(EXIT_CLEAN);
    expect(JSON.parse(result.stdout).milestones.map((group: { milestone: string }) => group.milestone)).toEqual(['16.0']);
    expect(run(['upgrade-report', '--from', '16.0', '--to', '15.9']).code).toBe(EXIT_ERROR);
  });

  describe('schedule', () => {
    it('writes the page, then --check passes until the page differs or is missing', () => {
      expect(run(['schedule', '--output', 'docs/schedule.md']).code).toBe(EXIT_CLEAN);
      const page = readFileSync(join(work, 'docs/schedule.md'), 'utf8');
      expect(page).toContain('# Deprecation and removal schedule');
      expect(run(['schedule', '--output', 'docs/schedule.md', '--check']).code).toBe(EXIT_CLEAN);
      writeFileSync(join(work, 'docs/schedule.md'), page.replace('**Breaking**', 'Breaking'));
      const stale = run(['schedule', '--output', 'docs/schedule.md', '--check']);
      expect(stale.code).toBe(EXIT_ERROR);
      expect(stale.stderr).toContain('out of date');
      expect(run(['schedule', '--output', 'missing.md', '--check']).code).toBe(EXIT_ERROR);
    });

    it('finds the committed docs/deprecations.md up to date with the catalogue (what CI checks)', () => {
      const result = run(['schedule', '--check']);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(`${join(REPOSITORY, 'docs', 'deprecations.md')} is up to date.\n`);
      expect(result.code).toBe(EXIT_CLEAN);
    });
  });

  it('exits 1 naming file and field when the catalogue is malformed', () => {
    const catalogue = join(work, 'catalogue');
    cpSync(locateCatalogue().catalogueDirectory, catalogue, { recursive: true });
    const file = join(catalogue, '15.0-ci-cd.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('kind: limit', 'kind: limits'));
    const result = run(['check', 'clean.yml', '--format', 'json'], { DEPRECATIONS_CATALOGUE_DIR: catalogue });
    expect(result.code).toBe(EXIT_ERROR);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'invalid_catalogue', message: expect.stringContaining(`${file}:`) });
    expect(JSON.parse(result.stdout).message).toContain('entries[1].kind: must be one of');
  });
});

/**
 * The built CLI, run as CI runs it. Compiled here with swc (as the build does, aliases rewritten)
 * into a fresh folder inside the repository, so a stale dist/ cannot make this pass, and the
 * catalogue is found by walking up from the compiled files as in dist/.
 */
describe('deprecations CLI as a process', () => {
  let build: string;
  let cli: string;
  /** 1500 jobs with two removed variables each, relative to the repository. */
  let manyFindings: string;

  beforeAll(() => {
    mkdirSync(join(REPOSITORY, 'tmp'), { recursive: true });
    build = mkdtempSync(join(REPOSITORY, 'tmp', 'deprecations-cli-build-'));
    const swcrc = JSON.parse(readFileSync(join(REPOSITORY, '.swcrc'), 'utf8'));
    delete swcrc.$schema;
    const { compilerOptions } = JSON.parse(readFileSync(join(REPOSITORY, 'tsconfig.base.json'), 'utf8'));
    const options = { ...swcrc, swcrc: false, configFile: false, jsc: { ...swcrc.jsc, baseUrl: REPOSITORY, paths: compilerOptions.paths } };
    const compile = (directory: string): void => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.isDirectory() && !['test', 'node_modules', 'generated'].includes(entry.name)) compile(path);
        if (entry.isFile() && path.endsWith('.ts') && !path.endsWith('.spec.ts') && !path.endsWith('.d.ts')) {
          const target = join(build, relative(REPOSITORY, path)).replace(/\.ts$/, '.js');
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, transformFileSync(path, { ...options, filename: path }).code);
        }
      }
    };
    // The CLI and the libraries it can reach through aliases (a scope:config domain lib may use
    // scope:shared libs only); other teams' libs are not needed.
    for (const library of [['integration-config', 'deprecations'], ['shared']]) compile(join(REPOSITORY, 'libs', ...library));
    compile(join(REPOSITORY, 'tools', 'deprecations', 'src'));
    cli = join(build, 'tools', 'deprecations', 'src', 'cli.js');
    const jobs = Array.from({ length: 1500 }, (_, index) => `build-${index}:\n  script: echo $CI_BUILD_REF $CI_BUILD_ID\n`);
    manyFindings = relative(REPOSITORY, join(build, 'many-findings.yml'));
    writeFileSync(join(REPOSITORY, manyFindings), `# Output far larger than a pipe holds (64 KiB)\n${jobs.join('')}`);
  });

  afterAll(() => {
    if (build !== undefined && existsSync(build)) rmSync(build, { recursive: true, force: true });
  });

  const spawn = (args: string[], input?: string) => {
    const env = { ...process.env };
    delete env.DEPRECATIONS_CATALOGUE_DIR;
    delete env.INIT_CWD;
    return spawnSync(process.execPath, [cli, ...args], { cwd: REPOSITORY, env, input, encoding: 'utf8' });
  };

  it('exits 0, 2 and 3 as documented, reading standard input for -', () => {
    expect(spawn(['check', '-', '--target', '16.0'], CLEAN).status).toBe(EXIT_CLEAN);
    expect(spawn(['check', '-', '--target', '15.0'], ONLY_16).status).toBe(EXIT_DEPRECATED);
    const removed = spawn(['check', '-', '--target', '16.0', '--format', 'json'], MIXED);
    expect(removed.status).toBe(EXIT_REMOVED);
    expect(JSON.parse(removed.stdout).summary).toEqual({ removed_by_target: 2, deprecated: 0 });
  });

  it('exits 1 on invalid YAML', () => {
    const result = spawn(['check', '-'], 'a: [\n');
    expect(result.status).toBe(EXIT_ERROR);
    expect(result.stderr).toContain('Invalid YAML at line');
  });

  it('names the package.json version in SARIF and reads - as .gitlab-ci.yml', () => {
    const result = spawn(['check', '-', '--target', '16.0', '--format', 'sarif'], MIXED);
    expect(result.status).toBe(EXIT_REMOVED);
    const log = JSON.parse(result.stdout);
    expect(log).toBeValidSarifLog();
    expect(log.runs[0].tool.driver.version).toBe(JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')).version);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('.gitlab-ci.yml');
  });

  /**
   * Output into a closed pipe. `closeAfterFirstLine` reads like `| head -n 1`; otherwise the reader
   * closes its end as soon as the process starts, before Node has even loaded the CLI, so every
   * write meets a closed pipe however small the output.
   */
  const intoClosedPipe = (command: string, args: string[], closeAfterFirstLine: boolean) =>
    new Promise<{ status: number | null; signal: NodeJS.Signals | null; firstLine: string; stderr: string }>((done, fail) => {
      const env = { ...process.env };
      delete env.DEPRECATIONS_CATALOGUE_DIR;
      delete env.INIT_CWD;
      const child = spawnAsync(command, args, { cwd: REPOSITORY, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      if (closeAfterFirstLine) {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          if (stdout.includes('\n')) child.stdout.destroy();
        });
      } else {
        child.stdout.destroy();
      }
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', fail);
      child.on('close', (status, signal) => done({ status, signal, firstLine: stdout.split('\n')[0], stderr }));
    });

  it('shows that the closed-pipe harness breaks a program that does not handle it', async () => {
    const result = await intoClosedPipe(process.execPath, ['-e', 'process.stdout.write("a line\\n")'], false);
    expect(result.stderr).toContain('EPIPE');
    expect(result.status).not.toBe(0);
  });

  it.each([
    [['upgrade-report', '--from', '14.9', '--to', '15.0'], EXIT_CLEAN],
    [['upgrade-report', '--from', '14.0', '--to', '17.0', '--format', 'json'], EXIT_CLEAN],
    [['schedule', '--check'], EXIT_CLEAN],
    [['check', 'MANY', '--target', '16.0'], EXIT_REMOVED],
    [['check', 'MANY', '--target', '15.0', '--format', 'codequality'], EXIT_DEPRECATED],
  ])('ends quietly when the reader of %j has gone, with the exit code of the command (%i)', async (args, code) => {
    const result = await intoClosedPipe(process.execPath, [cli, ...args.map((arg) => (arg === 'MANY' ? manyFindings : arg))], false);
    expect(result.stderr).toBe('');
    expect([result.status, result.signal]).toEqual([code, null]);
  });

  it('ends quietly under `| head -n 1` when the output is larger than the pipe holds', async () => {
    const file = manyFindings;
    // The pipe holds 64 KiB; what is left after the first line can only be written into a closed pipe.
    expect(spawn(['check', file, '--target', '16.0']).stdout.length).toBeGreaterThan(256 * 1024);
    const head = await intoClosedPipe('bash', ['-c', '"$@" | head -n 1; exit "${PIPESTATUS[0]}"', 'bash', process.execPath, cli, 'check', file, '--target', '16.0'], true);
    expect(head.firstLine).toBe(`${file}:3: [removed by 16.0] ci_build_variables: CI_BUILD_REF is removed in 16.0 (spec 9.5); use CI_COMMIT_SHA.`);
    expect(head.stderr).toBe('');
    expect(head.status).toBe(EXIT_REMOVED);
    const reader = await intoClosedPipe(process.execPath, [cli, 'check', file, '--target', '16.0', '--format', 'sarif'], true);
    expect(reader.stderr).toBe('');
    expect(reader.status).toBe(EXIT_REMOVED);
  });
});
