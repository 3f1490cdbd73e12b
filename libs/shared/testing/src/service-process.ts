import { findFreePort, findRepoRoot, healthStatus, ProcessExit, SupervisedProcess } from '@alert-ingestion/local-infra';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** The three services, as built by `npm run build` into dist/apps/<name>/src/main.js. */
export type ServiceName = 'gateway' | 'alert-processor' | 'integration-config';

export interface ServiceProcess {
  name: ServiceName;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  process: SupervisedProcess;
  /** Resolves when the process has exited, with how it ended. */
  exited: Promise<ProcessExit>;
  /** SIGTERM (graceful shutdown), then SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  /** Sends a signal and returns at once (SIGKILL simulates a crash). */
  kill(signal: NodeJS.Signals): void;
  /** The last lines the service printed (for failure messages). */
  recentOutput(): string;
  /** Every line the service printed to stdout and stderr so far; only with `keepAllOutput`. */
  allOutput(): readonly string[];
}

export interface StartServiceOptions {
  /** Use this port instead of a free one (for a restart on the same address). */
  port?: number;
  /** Extra Node options before the script, e.g. `--cpu-prof` (which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  /** Keep every line of output (for tests of the logs themselves), not only the last ones. */
  keepAllOutput?: boolean;
}

const OUTPUT_LINES_KEPT = 200;

/**
 * Runs a built service as its own Node process, the way it runs in production, on a free port, and
 * resolves once its `/healthz` answers 200 within 60 s (so Kafka consumers joined, migrations ran).
 * Its output is prefixed with the service name and shown when TEST_VERBOSE is set; otherwise the
 * last lines are kept for the error message when it fails to start.
 * It runs as a SupervisedProcess, so it is stopped when the test process exits or dies.
 */
export async function startService(name: ServiceName, env: Record<string, string>, options: StartServiceOptions = {}): Promise<ServiceProcess> {
  const root = findRepoRoot();
  ensureBuilt(root);
  const port = options.port ?? (await findFreePort());
  const output: string[] = [];
  const everyLine: string[] = [];
  const verbose = Boolean(process.env['TEST_VERBOSE']);
  const supervised = SupervisedProcess.start({
    name,
    command: process.execPath,
    args: ['--enable-source-maps', ...(options.nodeArgs ?? []), join(root, 'dist', 'apps', name, 'src', 'main.js')],
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    onLine: (line) => {
      output.push(line);
      if (output.length > OUTPUT_LINES_KEPT) output.shift();
      if (options.keepAllOutput) everyLine.push(line);
      if (verbose) process.stderr.write(`[${name}:${port}] ${line}\n`);
    },
    stopTimeoutMs: 20_000,
    // A service the test left running is killed soon after the test process is gone.
    orphanGraceSeconds: 2,
  });

  const url = `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    name,
    url,
    port,
    process: supervised,
    exited: supervised.exited,
    recentOutput: () => output.join('\n'),
    allOutput: () => {
      if (!options.keepAllOutput) throw new Error(`${name} was started without keepAllOutput`);
      return everyLine;
    },
    kill: (signal) => supervised.kill(signal),
    stop: async (timeoutMs) => void (await supervised.stop(timeoutMs)),
  };

  try {
    await waitForHealthy(url, supervised.exited, 60_000);
  } catch (error) {
    await service.stop(2_000);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${name} did not become healthy: ${reason}\n--- last output of ${name} ---\n${service.recentOutput()}`);
  }
  return service;
}

async function waitForHealthy(url: string, exited: Promise<ProcessExit>, timeoutMs: number): Promise<void> {
  let exit: ProcessExit | undefined;
  void exited.then((value) => (exit = value));
  const deadline = Date.now() + timeoutMs;
  let lastStatus = 'no answer';
  while (Date.now() < deadline) {
    if (exit) throw new Error(`it exited (code ${exit.code}, signal ${exit.signal})`);
    const status = await healthStatus(url);
    if (status === 200) return;
    lastStatus = status === null ? 'no answer' : `status ${status}`;
    await delay(100);
  }
  throw new Error(`GET /healthz gave ${lastStatus} after ${timeoutMs} ms`);
}

let builtOnce = false;
const SOURCE_ROOTS = ['apps', 'libs', 'tools', 'bench'];
/** Files whose change needs a new build: TypeScript, and the web console's TSX, CSS and page. */
const BUILT_SOURCE = /\.(ts|tsx|css|html)$/;

/**
 * Makes sure dist/ is at least as new as the sources, building when it is not. Jest runs test files
 * in parallel workers, so a lock directory lets one worker build while the others wait.
 */
export function ensureBuilt(root: string = findRepoRoot()): void {
  if (builtOnce) return;
  const marker = join(root, 'dist', '.built-at');
  if (!isStale(root, marker)) {
    builtOnce = true;
    return;
  }
  // Outside dist/: a clean build may delete dist/ while other workers wait.
  const lock = join(tmpdir(), `alert-ingestion-build-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock} (remove it if no build is running)`);
      spawnSync('sleep', ['0.2']);
    }
  }
  try {
    if (isStale(root, marker)) {
      runBuild(root);
      mkdirSync(dirname(marker), { recursive: true });
      writeFileSync(marker, new Date().toISOString());
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  builtOnce = true;
}

function isStale(root: string, marker: string): boolean {
  if (!existsSync(marker)) return true;
  const builtAt = statSync(marker).mtimeMs;
  const newer = (dir: string): boolean => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (newer(path)) return true;
      } else if (BUILT_SOURCE.test(entry.name) && statSync(path).mtimeMs > builtAt) {
        return true;
      }
    }
    return false;
  };
  return SOURCE_ROOTS.some((name) => existsSync(join(root, name)) && newer(join(root, name)));
}

function runBuild(root: string): void {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`Build failed (npm run build):\n${result.stdout}\n${result.stderr}`);
}
