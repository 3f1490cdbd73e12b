import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

export type StopSignal = 'SIGTERM' | 'SIGINT';

export interface SupervisedProcessOptions {
  /** Shown in error messages. */
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Run as this user (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** Append stdout and stderr to this file (servers whose logs are read on demand). */
  logFile?: string;
  /** Or receive every output line (services whose output `npm start` shows). */
  onLine?: (line: string) => void;
  /** What asks the program to shut down cleanly. Default SIGTERM. */
  stopSignal?: StopSignal;
  /** How long stop() waits before SIGKILL. Default 15 s. */
  stopTimeoutMs?: number;
  /** After this process died, how long the program gets to stop before SIGKILL. Default 30 s. */
  orphanGraceSeconds?: number;
}

/** The last lines of a program's log file, for an error message. */
export async function readTail(file: string, lines = 30): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Starts the program through a small bash prelude that then `exec`s it, so the program keeps the
 * prelude's pid, runs in the foreground (a background job of a non-interactive shell would ignore
 * SIGINT) and gets its stop signal from us directly. Before the exec, the prelude leaves a watcher
 * reading its stdin, a pipe from this Node process: end-of-file means we are gone (even after
 * SIGKILL, when no exit handler runs), and the watcher sends the program its stop signal, then
 * SIGKILL to the process group if it is still there after a grace period. So a broker or database never
 * outlives whoever started it. (While the watcher lives, its process group keeps the program's
 * pid from being reused, so these signals cannot reach another process.) The program's stdin is
 * /dev/null.
 */
const PRELUDE = `
stop_signal="$1"; grace="$2"; shift 2
{
  while read -r _; do :; done
  kill -s "$stop_signal" $$ 2>/dev/null
  waited=0
  while [ "$waited" -lt "$grace" ]; do kill -0 $$ 2>/dev/null || exit 0; sleep 1; waited=$((waited + 1)); done
  kill -KILL -- -$$ 2>/dev/null
} <&0 >/dev/null 2>&1 &
exec "$@" </dev/null
`;

const running = new Set<SupervisedProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Synchronous last chance on a normal exit; the stdin watch covers the abrupt cases.
  process.on('exit', () => {
    for (const supervised of running) supervised.kill();
  });
}

/**
 * A long-running child program (Kafka, PostgreSQL, a service) that is stopped with a signal,
 * escalated to SIGKILL after a timeout, and never left behind when this process dies.
 *
 * The program runs in its own process group (detached), so a Ctrl-C in the terminal reaches only
 * the orchestrator, which then stops services before the broker and the database, in that order.
 */
export class SupervisedProcess {
  readonly exited: Promise<ProcessExit>;
  private exitInfo: ProcessExit | undefined;
  private readonly stopSignal: StopSignal;
  private readonly stopTimeoutMs: number;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    options: SupervisedProcessOptions,
  ) {
    this.stopSignal = options.stopSignal ?? 'SIGTERM';
    this.stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
    this.exited = new Promise<ProcessExit>((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        running.delete(this);
        resolve(this.exitInfo);
      });
      child.once('error', () => {
        this.exitInfo = { code: null, signal: null };
        running.delete(this);
        resolve(this.exitInfo);
      });
    });
  }

  static start(options: SupervisedProcessOptions): SupervisedProcess {
    installExitHook();
    const logFd = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
    const output = logFd ?? (options.onLine ? 'pipe' : 'ignore');
    const stopSignalName = (options.stopSignal ?? 'SIGTERM').slice(3);
    const graceSeconds = String(Math.max(1, Math.round(options.orphanGraceSeconds ?? 30)));
    const child = spawn('bash', ['-c', PRELUDE, options.name, stopSignalName, graceSeconds, options.command, ...options.args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      uid: options.uid,
      gid: options.gid,
      detached: true,
      stdio: ['pipe', output, output],
    });
    if (logFd !== undefined) closeSync(logFd);
    // Nothing is ever written; a broken pipe after the program ended is expected, not an error.
    child.stdin?.on('error', () => undefined);
    // Once the program has ended, release the watcher (it would otherwise wait for our exit).
    child.once('exit', () => child.stdin?.destroy());
    if (options.onLine) {
      const onLine = options.onLine;
      for (const stream of [child.stdout, child.stderr]) {
        if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
      }
    }
    if (child.pid === undefined) {
      throw new Error(`Could not start ${options.name} (${options.command})`);
    }
    const supervised = new SupervisedProcess(options.name, child, options);
    running.add(supervised);
    return supervised;
  }

  /** Process id of the program (it leads its own process group). */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  get isRunning(): boolean {
    return this.exitInfo === undefined;
  }

  /** How the program ended, for error messages ("running" while it runs). */
  get exitDescription(): string {
    if (!this.exitInfo) return 'running';
    return this.exitInfo.signal ? `killed by ${this.exitInfo.signal}` : `exit code ${this.exitInfo.code}`;
  }

  /**
   * Sends the program a signal without waiting: by default its stop signal (from a synchronous exit
   * handler), or another (SIGKILL simulates a crash).
   */
  kill(signal: NodeJS.Signals = this.stopSignal): void {
    if (!this.isRunning) return;
    try {
      process.kill(this.pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** Stops the program: the stop signal, then SIGKILL to the whole group after the timeout (by default stopTimeoutMs). */
  async stop(timeoutMs = this.stopTimeoutMs): Promise<ProcessExit> {
    if (this.exitInfo) return this.exitInfo;
    this.kill();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (outcome !== 'timeout') return outcome;
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    return this.exited;
  }
}
