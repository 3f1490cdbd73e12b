import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, ParseArgsConfig } from 'node:util';
import {
  buildUpgradeReport,
  CatalogueError,
  compareMilestones,
  createPipelineChecker,
  DeprecationCatalogue,
  DeprecationInputError,
  loadDeprecationCatalogue,
  locateCatalogue,
  parseMilestone,
  parseUpgradeRange,
  PipelineFinding,
  renderScheduleMarkdown,
  scheduledChanges,
} from '@alert-ingestion/deprecations';

/**
 * The deprecation catalogue from the command line (issue 5):
 *   check <file|-> [--target X.Y] [--format text|json]   exit 0 clean, 2 deprecated only, 3 removed by the target
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
}

type Format = 'text' | 'json';

class UsageError extends Error {}

const USAGE = `Usage:
  deprecations check <file|-> [--target X.Y] [--format text|json]
  deprecations upgrade-report --from X.Y --to X.Y [--format text|json]
  deprecations schedule [--output <file>] [--check]

check exit codes: 0 no deprecated usage; 2 only usage that is deprecated but not yet removed by the
target; 3 usage removed (or changed) by the target; 1 an error. Without --target, the target is the
last milestone of the schedule, so every scheduled removal counts as removed.`;

function parse(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function formatOf(value: unknown): Format {
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json') return 'json';
  throw new UsageError(`--format must be text or json, got ${String(value)}`);
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The last milestone anything is scheduled for: the target when none is given. */
export function lastScheduledMilestone(catalogue: DeprecationCatalogue): string {
  return scheduledChanges(catalogue)
    .map((change) => change.milestone)
    .reduce((latest, milestone) => (compareMilestones(milestone, latest) > 0 ? milestone : latest));
}

interface ClassifiedFinding extends PipelineFinding {
  readonly removed_by_target: boolean;
}

function runCheck(argv: readonly string[], io: CliIo, catalogue: DeprecationCatalogue): number {
  const { values, positionals } = parse(argv, { target: { type: 'string' }, format: { type: 'string' } });
  const format = formatOf(values.format);
  if (positionals.length !== 1) throw new UsageError('check takes exactly one file (or - for standard input)');
  const [file] = positionals;
  const target = stringOption(values.target);
  const effectiveTarget = target === undefined ? lastScheduledMilestone(catalogue) : parseMilestone('--target', target);

  const content = io.readFile(file === '-' ? '-' : resolve(io.cwd, file));
  // All findings, then classified: those removed after the target are what exit code 2 is for.
  const findings: ClassifiedFinding[] = createPipelineChecker(catalogue)
    .check(content)
    .map((finding) => ({ ...finding, removed_by_target: compareMilestones(finding.removal_milestone, effectiveTarget) <= 0 }));
  const removed = findings.filter((finding) => finding.removed_by_target).length;
  const exitCode = removed > 0 ? EXIT_REMOVED : findings.length > 0 ? EXIT_DEPRECATED : EXIT_CLEAN;

  if (format === 'json') {
    io.stdout(
      `${JSON.stringify(
        {
          file,
          target: target ?? null,
          effective_target: effectiveTarget,
          findings,
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

function runUpgradeReport(argv: readonly string[], io: CliIo, catalogue: DeprecationCatalogue): number {
  const { values, positionals } = parse(argv, { from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string' } });
  const format = formatOf(values.format);
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

function runSchedule(argv: readonly string[], io: CliIo, catalogue: DeprecationCatalogue, repositoryRoot: string): number {
  const { values, positionals } = parse(argv, { output: { type: 'string' }, check: { type: 'boolean' } });
  if (positionals.length > 0) throw new UsageError(`schedule takes no file, got ${positionals.join(' ')} (use --output)`);
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

/** `--format json` or `--format=json`, looked up before full parsing so even argument errors come out as JSON. */
function requestedFormat(argv: readonly string[]): Format {
  const index = argv.indexOf('--format');
  const value = index === -1 ? argv.find((arg) => arg.startsWith('--format='))?.slice('--format='.length) : argv[index + 1];
  return value === 'json' ? 'json' : 'text';
}

/** Runs one command and returns its exit code; never throws. */
export function main(argv: readonly string[], io: CliIo): number {
  const [command, ...rest] = argv;
  let format: Format = 'text';
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.stdout(`${USAGE}\n`);
      return command === undefined ? EXIT_ERROR : EXIT_CLEAN;
    }
    if (!['check', 'upgrade-report', 'schedule'].includes(command)) throw new UsageError(`unknown command ${command}`);
    // Known before anything can fail, so errors come out in the format the caller parses.
    format = requestedFormat(rest);
    const location = locateCatalogue(undefined, io.env);
    const catalogue = loadDeprecationCatalogue(location.catalogueDirectory);
    if (command === 'check') return runCheck(rest, io, catalogue);
    if (command === 'upgrade-report') return runUpgradeReport(rest, io, catalogue);
    return runSchedule(rest, io, catalogue, location.repositoryRoot);
  } catch (error) {
    const code =
      error instanceof DeprecationInputError ? error.code : error instanceof UsageError ? 'usage' : error instanceof CatalogueError ? 'invalid_catalogue' : 'error';
    const message = error instanceof Error ? error.message : String(error);
    if (format === 'json') io.stdout(`${JSON.stringify({ error: code, message })}\n`);
    else io.stderr(`deprecations: ${message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
    return EXIT_ERROR;
  }
}

export function nodeIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readFile: (path) => readFileSync(path === '-' ? 0 : path, 'utf8'),
    writeFile: (path, text) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
    cwd: process.env.INIT_CWD ?? process.cwd(),
    env: process.env,
  };
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), nodeIo());
}
