import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { eventually, isProcessAlive } from '@alert-ingestion/testing';
import { SupervisedProcess } from '../src';

/** Collects output lines and resolves the first one matching a pattern. */
function lineCollector() {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  return {
    lines,
    onLine: (line: string) => {
      lines.push(line);
      for (const waiter of waiters.filter((candidate) => candidate.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    },
    next: (pattern: RegExp) =>
      new Promise<string>((resolvePromise) => {
        const seen = lines.find((line) => pattern.test(line));
        if (seen) resolvePromise(seen);
        else waiters.push({ pattern, resolve: resolvePromise });
      }),
  };
}

/** A separate Node process that runs `statement` with SupervisedProcess loaded, printing its programs' output. */
function spawnParent(statement: string) {
  const modulePath = resolve(__dirname, '..', 'src', 'supervised-process.ts');
  const program = `
    const swc = require('@swc/core');
    const fs = require('node:fs');
    require.extensions['.ts'] = (module, filename) => {
      const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
        filename, swcrc: false, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' },
      });
      module._compile(code, filename);
    };
    const { SupervisedProcess } = require(${JSON.stringify(modulePath)});
    ${statement}
  `;
  const child = spawn(process.execPath, ['-e', program], { cwd: resolve(__dirname, '..', '..', '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  return {
    process: child,
    firstLine: (pattern: RegExp) =>
      new Promise<string>((resolvePromise, reject) => {
        lines.on('line', (line) => pattern.test(line) && resolvePromise(line));
        child.once('exit', (code) => reject(new Error(`the parent process exited early (${code})`)));
      }),
  };
}

describe('SupervisedProcess', () => {
  it('passes output lines on and reports how the program ended', async () => {
    const output = lineCollector();
    const child = SupervisedProcess.start({ name: 'echo', command: 'sh', args: ['-c', 'echo hello; echo world >&2; exit 3'], onLine: output.onLine });

    await expect(child.exited).resolves.toEqual({ code: 3, signal: null });
    expect(output.lines.sort()).toEqual(['hello', 'world']);
    expect(child.isRunning).toBe(false);
  });

  it('appends output to a log file when asked to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'supervised-'));
    try {
      const logFile = join(dir, 'out.log');
      await SupervisedProcess.start({ name: 'logger', command: 'sh', args: ['-c', 'echo to-the-file'], logFile }).exited;
      expect(await readFile(logFile, 'utf8')).toBe('to-the-file\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stop() asks the program to shut down with %s and waits for it', async (stopSignal) => {
    const output = lineCollector();
    const trapped = stopSignal.slice(3);
    const child = SupervisedProcess.start({
      name: 'graceful',
      command: 'sh',
      args: ['-c', `trap 'echo shutting-down; exit 0' ${trapped}; echo ready; while :; do sleep 0.05; done`],
      onLine: output.onLine,
      stopSignal,
    });
    await output.next(/^ready$/);

    await expect(child.stop()).resolves.toEqual({ code: 0, signal: null });
    expect(output.lines).toContain('shutting-down');
  });

  it('stop() kills a program that ignores the stop signal once the timeout passes', async () => {
    const output = lineCollector();
    const child = SupervisedProcess.start({
      name: 'stubborn',
      command: 'sh',
      args: ['-c', `trap '' TERM; echo pid=$$; while :; do sleep 0.05; done`],
      onLine: output.onLine,
      stopTimeoutMs: 500,
    });
    const programPid = Number((await output.next(/^pid=/)).slice(4));

    const started = Date.now();
    const exit = await child.stop();

    expect(exit.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(5_000);
    await eventually(() => expect(isProcessAlive(programPid)).toBe(false), 2_000);
  });

  it('kills a program that ignores its stop signal after the process that started it died', async () => {
    const parent = spawnParent(`SupervisedProcess.start({ name: 'stubborn', command: 'sh', args: ['-c', "trap '' TERM; echo pid=$$; while :; do sleep 0.2; done"], onLine: (line) => console.log(line), orphanGraceSeconds: 2 });`);
    const stubbornPid = Number((await parent.firstLine(/^pid=/)).slice(4));

    parent.process.kill('SIGKILL');

    // Still there right after the stop signal, gone after the watcher's grace period (2 s here).
    await new Promise((done) => setTimeout(done, 1_000));
    expect(isProcessAlive(stubbornPid)).toBe(true);
    await eventually(() => expect(isProcessAlive(stubbornPid)).toBe(false), 10_000);
  });

  it('stops the program when the process that started it dies without any clean-up (SIGKILL)', async () => {
    const parent = spawnParent(`SupervisedProcess.start({ name: 'sleeper', command: 'sh', args: ['-c', 'echo pid=$$; exec sleep 300'], onLine: (line) => console.log(line) });`);
    const sleeperPid = Number((await parent.firstLine(/^pid=/)).slice(4));
    expect(isProcessAlive(sleeperPid)).toBe(true);

    parent.process.kill('SIGKILL');

    await eventually(() => expect(isProcessAlive(sleeperPid)).toBe(false), 5_000);
  });
});
