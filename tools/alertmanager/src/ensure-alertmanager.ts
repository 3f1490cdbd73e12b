import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The Debian package of Prometheus Alertmanager (the end-to-end test drives a real one). */
export const ALERTMANAGER_PACKAGE = 'prometheus-alertmanager';

export interface AlertmanagerBinaries {
  /** The alertmanager server binary (relocated: start it with `workingDirectory` as its cwd). */
  alertmanager: string;
  /** Where the relocated binary finds its default notification templates (`./share/...`). */
  workingDirectory: string;
  /** Its command-line client (checks configurations). */
  amtool: string;
  /** As printed by `alertmanager --version`, e.g. "0.25.0". */
  version: string;
}

/**
 * Makes sure a Prometheus Alertmanager binary is available, without root and without touching the
 * system: `apt-get download` fetches the Debian package into the git-ignored `.data/alertmanager`
 * folder and `dpkg-deb -x` unpacks it there (no install, no dpkg database). Later calls reuse it.
 * When apt has no package lists yet, `apt-get update` runs first, but only as root (an
 * unprivileged user cannot update them, and this never asks for sudo).
 * Concurrent callers each unpack into a private staging folder and rename it into place.
 */
export async function ensureAlertmanager(repoRoot: string, log: (message: string) => void = () => undefined): Promise<AlertmanagerBinaries> {
  const baseDir = join(repoRoot, '.data', 'alertmanager');
  const rootDir = join(baseDir, 'root');
  const packaged = join(rootDir, 'usr', 'bin', 'prometheus-alertmanager');
  const binaries = {
    alertmanager: join(rootDir, 'usr', 'bin', 'prometheus-alertmanager.relocated'),
    workingDirectory: join(rootDir, 'usr'),
    amtool: join(rootDir, 'usr', 'bin', 'amtool'),
  };
  if (!existsSync(packaged)) {
    await mkdir(baseDir, { recursive: true });
    const staging = join(baseDir, `staging-${process.pid}-${Date.now()}`);
    await mkdir(staging, { recursive: true });
    try {
      log(`Downloading the ${ALERTMANAGER_PACKAGE} Debian package into ${baseDir}`);
      await downloadPackage(staging);
      const debs = (await readdir(staging)).filter((name) => name.endsWith('.deb'));
      if (debs.length !== 1) throw new Error(`apt-get download left ${debs.length} .deb files in ${staging}`);
      await execFileAsync('dpkg-deb', ['-x', join(staging, debs[0]), join(staging, 'root')]);
      if (!existsSync(join(staging, 'root', 'usr', 'bin', 'prometheus-alertmanager'))) {
        throw new Error(`${debs[0]} holds no usr/bin/prometheus-alertmanager`);
      }
      try {
        await rename(join(staging, 'root'), rootDir);
      } catch (error) {
        // Another caller finished first; its copy is as good as ours.
        if (!existsSync(packaged)) throw error;
      }
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  if (!existsSync(binaries.alertmanager)) await relocate(packaged, binaries.alertmanager);
  return { ...binaries, version: await versionOf(binaries.alertmanager) };
}

/**
 * Debian's build does not embed the default notification templates: it reads them from the
 * compiled-in /usr/share/prometheus/alertmanager (patch 02-Do_not_embed_blobs), which exists only
 * when the package is installed, and without them every notification fails. To run the unpacked
 * copy without installing anything, this writes a copy of the binary in which that path is
 * replaced by one of the same length relative to the working directory, `./share/prometheus/
 * alertmanager/./`, so the copy started in <root>/usr reads <root>/usr/share/prometheus/alertmanager.
 */
async function relocate(packaged: string, relocated: string): Promise<void> {
  const from = Buffer.from('/usr/share/prometheus/alertmanager');
  const to = Buffer.from('./share/prometheus/alertmanager/./');
  if (from.length !== to.length) throw new Error('the relocated template path must keep the original length');
  const binary = await readFile(packaged);
  let replaced = 0;
  for (let at = binary.indexOf(from); at !== -1; at = binary.indexOf(from, at + to.length)) {
    to.copy(binary, at);
    replaced++;
  }
  if (replaced === 0) throw new Error(`${packaged} does not name /usr/share/prometheus/alertmanager; cannot relocate its templates`);
  const staging = `${relocated}.${process.pid}`;
  await writeFile(staging, binary);
  await chmod(staging, 0o755);
  await rename(staging, relocated);
}

async function downloadPackage(dir: string): Promise<void> {
  try {
    await execFileAsync('apt-get', ['download', ALERTMANAGER_PACKAGE], { cwd: dir, maxBuffer: 4 * 1024 * 1024 });
    return;
  } catch (error) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot) {
      throw new Error(
        `apt-get download ${ALERTMANAGER_PACKAGE} failed (${describe(error)}). Its package lists may be missing; ` +
          `run "apt-get update" as root once, or put the binary at .data/alertmanager/root/usr/bin/prometheus-alertmanager.`,
      );
    }
  }
  // As root: refresh the package lists (the usual reason for "Unable to locate package") and retry.
  await execFileAsync('apt-get', ['update', '-qq'], { maxBuffer: 16 * 1024 * 1024 });
  await execFileAsync('apt-get', ['download', ALERTMANAGER_PACKAGE], { cwd: dir, maxBuffer: 4 * 1024 * 1024 });
}

async function versionOf(binary: string): Promise<string> {
  const { stdout, stderr } = await execFileAsync(binary, ['--version']);
  const match = /version (\d+\.\d+\.\d+)/.exec(`${stdout}\n${stderr}`);
  return match ? match[1] : 'unknown';
}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'stderr' in error && typeof error.stderr === 'string' && error.stderr.trim()) {
    return error.stderr.trim().split('\n').slice(-2).join(' ');
  }
  return error instanceof Error ? error.message : String(error);
}
