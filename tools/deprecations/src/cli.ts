import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs, ParseArgsConfig } from 'node:util';
import {
  buildFindingReport,
  buildUpgradeReport,
  CatalogueError,
  codeQualityReport,
  createPipelineChecker,
  DEFAULT_CHECKED_PATH,
  DeprecationInputError,
  effectiveCheckTarget,
  loadDeprecationCatalogue,
  locateCatalogue,
  parseMilestone,
  parseReportPath,
  parseUpgradeRange,
  renderScheduleMarkdown,
  sarifReport,
  withoutSubject,
} from '@alert-ingestion/deprecations';

/**
 * The deprecation catalogue from the command line:
 *   check <file|-> [--target X.Y] [--format text|json|codequality|sarif]   exit 0 clean, 2 deprecated only, 3 removed by the target
 *   upgrade-report --from X.Y --to X.Y [--format text|json]
 *   schedule [--output <file>] [--check]                   writes docs/deprecations.md, or fails when it is out of date
 * Exit code 1 is an error: bad arguments, an unreadable file, invalid YAML, an out-of-date page.
 */

export const EXIT_CLEAN = 0;
export const EXIT_ERROR = 1;
export const EXIT_DEPRECATED = 2;
export const EXIT_REMOVED = 3;

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** `-` reads standard input. Throws when the file cannot be read. */
  readonly readFile: (path: string) => string;
  readonly writeFile: (path: string, text: string) => void;
  /** Relative paths are resolved against this. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The package's version (package.json), which SARIF reports name as the tool's. */
  readonly version: string;
}

const CHECK_FORMATS = ['text', 'json', 'codequality', 'sarif'] as const;
const UPGRADE_REPORT_FORMATS = ['text', 'json'] as const;
type Format = (typeof CHECK_FORMATS)[number];

class UsageError extends Error {}

const USAGE = `Usage:
  deprecations check <file|-> [--target X.Y] [--format text|json|codequality|sarif]
                     [--path <path in the repository>] [--docs-url <url of docs/deprecations.md>]
  deprecations upgrade-report --from X.Y --to X.Y [--format text|json]
  deprecations schedule [--output <file>] [--check]

check exit codes: 0 no deprecated usage; 2 only usage that is deprecated but not yet removed by the
target; 3 usage removed (or changed) by the target; 1 an error. Without --target, the target is the
last milestone of the schedule, so every scheduled removal counts as removed. The exit codes are the
same in every format.

--format codequality writes a GitLab Code Quality report, --format sarif a SARIF 2.1.0 log. Both name
the file by --path (default: the file as given, or ${DEFAULT_CHECKED_PATH} for standard input), relative
to the repository root. --docs-url (sarif only) links each rule to its entry in the published page.`;

function parse(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function formatOf<F extends Format>(value: unknown, allowed: readonly F[]): F {
  const format = value === undefined ? 'text' : allowed.find((candidate) => candidate === value);
  if (format === undefined) throw new UsageError(`--format must be one of ${allowed.join(', ')}, got ${String(value)}`);
  return format as F;
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** SARIF wants absolute links, and the rule's anchor is appended to this one. */
function documentationUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--docs-url must be an absolute http(s) URL of docs/deprecations.md, got ${value}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.hash !== '') {
    throw new UsageError(`--docs-url must be an absolute http(s) URL of docs/deprecations.md without #fragment, got ${value}`);
  }
  return value;
}

/** The checked file as reports name it: --path, or else the file as given (relative to where the command runs). */
function reportPathOf(file: string, pathOption: string | undefined, io: CliIo): string {
  if (pathOption !== undefined) return parseReportPath('--path', pathOption);
  if (file === '-') return DEFAULT_CHECKED_PATH;
  return parseReportPath('the checked file (or --path)', isAbsolute(file) ? relative(io.cwd, file) : file);
}

function runCheck(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parse(argv, {
    target: { type: 'string' },
    format: { type: 'string' },
    path: { type: 'string' },
    'docs-url': { type: 'string' },
  });
  const format = formatOf(values.format, CHECK_FORMATS);
  if (positionals.length !== 1) throw new UsageError('check takes exactly one file (or - for standard input)');
  const [file] = positionals;
  const target = stringOption(values.target);
  const pathOption = stringOption(values.path);
  const docsUrl = stringOption(values['docs-url']);
  if (pathOption !== undefined && format !== 'codequality' && format !== 'sarif') throw new UsageError('--path applies to --format codequality and sarif');
  if (docsUrl !== undefined && format !== 'sarif') throw new UsageError('--docs-url applies to --format sarif');

  const catalogue = loadDeprecationCatalogue(locateCatalogue(undefined, io.env).catalogueDirectory);
  const effectiveTarget = effectiveCheckTarget(catalogue, target === undefined ? null : parseMilestone('--target', target));
  const reportPath = format === 'codequality' || format === 'sarif' ? reportPathOf(file, pathOption, io) : file;
  const documentationUrl = docsUrl === undefined ? undefined : documentationUrlOf(docsUrl);

  const content = io.readFile(file === '-' ? '-' : resolve(io.cwd, file));
  const checker = createPipelineChecker(catalogue);
  // All findings, then classified: those removed after the target are what exit code 2 is for.
  const report = buildFindingReport(checker.checkWithSubjects(content), reportPath, effectiveTarget);
  const findings = report.findings;
  const removed = findings.filter((finding) => finding.removed_by_target).length;
  const exitCode = removed > 0 ? EXIT_REMOVED : findings.length > 0 ? EXIT_DEPRECATED : EXIT_CLEAN;

  if (format === 'codequality') {
    io.stdout(`${JSON.stringify(codeQualityReport(report), null, 2)}\n`);
    return exitCode;
  }
  if (format === 'sarif') {
    io.stdout(`${JSON.stringify(sarifReport(report, checker.rules, { version: io.version, documentationUrl }), null, 2)}\n`);
    return exitCode;
  }
  if (format === 'json') {
    io.stdout(
      `${JSON.stringify(
        {
          file,
          target: target ?? null,
          effective_target: effectiveTarget,
          findings: findings.map((finding) => ({ ...withoutSubject(finding), removed_by_target: finding.removed_by_target })),
          summary: { removed_by_target: removed, deprecated: findings.length - removed },
          exit_code: exitCode,
        },
        null,
        2,
      )}\n`,
    );
    return exitCode;
  }
  const against = target === undefined ? `the whole schedule (up to ${effectiveTarget})` : `target ${effectiveTarget}`;
  if (findings.length === 0) {
    io.stdout(`${file}: no deprecated usage against ${against}.\n`);
    return exitCode;
  }
  for (const finding of findings) {
    const status = finding.removed_by_target ? `removed by ${effectiveTarget}` : `deprecated, removed in ${finding.removal_milestone}`;
    io.stdout(`${file}:${finding.line}: [${status}] ${finding.rule}: ${finding.message}\n`);
  }
  io.stdout(
    `${findings.length} finding${findings.length === 1 ? '' : 's'} against ${against}: ${removed} removed by the target, ${findings.length - removed} deprecated and removed later.\n`,
  );
  return exitCode;
}

function runUpgradeReport(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parse(argv, { from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string' } });
  const format = formatOf(values.format, UPGRADE_REPORT_FORMATS);
  const catalogue = loadDeprecationCatalogue(locateCatalogue(undefined, io.env).catalogueDirectory);
  if (positionals.length > 0) throw new UsageError(`upgrade-report takes no file, got ${positionals.join(' ')}`);
  const report = buildUpgradeReport(catalogue, parseUpgradeRange({ from: stringOption(values.from), to: stringOption(values.to) }));
  if (format === 'json') {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return EXIT_CLEAN;
  }
  if (report.milestones.length === 0) io.stdout(`Nothing is removed or changes after ${report.from} up to ${report.to}.\n`);
  for (const group of report.milestones) {
    io.stdout(`\n${group.milestone}\n`);
    for (const change of group.changes) {
      io.stdout(`  ${change.breaking ? 'BREAKING ' : ''}${change.title}: ${change.change}\n    -> ${change.what_to_do}\n`);
    }
  }
  return EXIT_CLEAN;
}

function runSchedule(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parse(argv, { output: { type: 'string' }, check: { type: 'boolean' } });
  if (positionals.length > 0) throw new UsageError(`schedule takes no file, got ${positionals.join(' ')} (use --output)`);
  const { catalogueDirectory, repositoryRoot } = locateCatalogue(undefined, io.env);
  const catalogue = loadDeprecationCatalogue(catalogueDirectory);
  const output = resolve(io.cwd, stringOption(values.output) ?? join(repositoryRoot, 'docs', 'deprecations.md'));
  const markdown = renderScheduleMarkdown(catalogue);
  if (values.check === true) {
    let current: string | null = null;
    try {
      current = io.readFile(output);
    } catch {
      current = null;
    }
    if (current === markdown) {
      io.stdout(`${output} is up to date.\n`);
      return EXIT_CLEAN;
    }
    io.stderr(`${output} is ${current === null ? 'missing' : 'out of date'} with the catalogue; run: npm run deprecations -- schedule\n`);
    return EXIT_ERROR;
  }
  io.writeFile(output, markdown);
  io.stdout(`Wrote ${output}.\n`);
  return EXIT_CLEAN;
}

/**
 * `--format json` or `--format=json`, looked up before full parsing so even argument errors come out
 * as JSON. The report formats are not answered with an error object: a CI job would upload it as its
 * report, so their errors go to stderr as text and leave stdout empty.
 */
function requestedFormat(argv: readonly string[]): 'text' | 'json' {
  const index = argv.indexOf('--format');
  const value = index === -1 ? argv.find((arg) => arg.startsWith('--format='))?.slice('--format='.length) : argv[index + 1];
  return value === 'json' ? 'json' : 'text';
}

/** Runs one command and returns its exit code; never throws. */
export function main(argv: readonly string[], io: CliIo): number {
  const [command, ...rest] = argv;
  let format: 'text' | 'json' = 'text';
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.stdout(`${USAGE}\n`);
      return command === undefined ? EXIT_ERROR : EXIT_CLEAN;
    }
    if (!['check', 'upgrade-report', 'schedule'].includes(command)) throw new UsageError(`unknown command ${command}`);
    // Known before anything can fail, so errors come out in the format the caller parses.
    format = requestedFormat(rest);
    if (command === 'check') return runCheck(rest, io);
    if (command === 'upgrade-report') return runUpgradeReport(rest, io);
    return runSchedule(rest, io);
  } catch (error) {
    const code =
      error instanceof DeprecationInputError ? error.code : error instanceof UsageError ? 'usage' : error instanceof CatalogueError ? 'invalid_catalogue' : 'error';
    const message = error instanceof Error ? error.message : String(error);
    if (format === 'json') io.stdout(`${JSON.stringify({ error: code, message })}\n`);
    else io.stderr(`deprecations: ${message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
    return EXIT_ERROR;
  }
}

/** The version in the nearest package.json above the running code (src/ under jest, dist/ after a build). */
export function packageVersion(startDirectory: string = __dirname): string {
  for (let directory = startDirectory; ; directory = dirname(directory)) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) return String(JSON.parse(readFileSync(candidate, 'utf8')).version);
    if (dirname(directory) === directory) return '0.0.0';
  }
}

/** The reader of a pipe we write into has gone (`deprecations ... | head`). */
function isClosedPipe(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EPIPE';
}

export function nodeIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readFile: (path) => readFileSync(path === '-' ? 0 : path, 'utf8'),
    writeFile: (path, text) => {
      mkdirSync(dirname(path), { recursive: true });
      try {
        writeFileSync(path, text);
      } catch (error) {
        // `schedule --output /dev/stdout | head`: the same closed pipe as below, not a failure.
        if (!isClosedPipe(error)) throw error;
      }
    },
    // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
    cwd: process.env.INIT_CWD ?? process.cwd(),
    env: process.env,
    version: packageVersion(),
  };
}

/**
 * Output into a closed pipe ends the process quietly, as `git log | head` does, instead of an
 * unhandled 'error' event and a stack trace. Node reports a failed write as an 'error' event after
 * main() has returned, so the exit code main decided stands: 0 for upgrade-report and schedule, and
 * check keeps its 2 or 3, which must not depend on whether the reader stopped before or after the
 * last write. Any other write error is an error: exit 1, said on stderr when stderr can take it.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: Error) => {
      if (isClosedPipe(error)) process.exit();
      if (stream !== process.stderr) process.stderr.write(`deprecations: cannot write the output: ${error.message}\n`);
      process.exit(EXIT_ERROR);
    });
  }
}

if (require.main === module) {
  endQuietlyOnClosedPipe();
  process.exitCode = main(process.argv.slice(2), nodeIo());
}
