import { createTestDatabase, TestDatabase } from '@alert-ingestion/testing';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  applyMigrations,
  MigrationChecksumError,
  MigrationFailedError,
  PRISMA_MIGRATE_LOCK_KEY,
  UnfinishedMigrationError,
  withClient,
} from '../src';

const REPO_MIGRATIONS = resolve(__dirname, '..', '..', '..', '..', 'prisma', 'migrations');

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}

async function migrationRows(url: string): Promise<MigrationRow[]> {
  return withClient(url, async (client) => (await client.query<MigrationRow>('SELECT * FROM _prisma_migrations ORDER BY migration_name')).rows);
}

async function tableExists(url: string, table: string): Promise<boolean> {
  return withClient(url, async (client) => (await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table])).rows[0]?.found !== null);
}

/** The repository's migrations folder names, in order. */
async function repoMigrationNames(): Promise<string[]> {
  return (await readdir(REPO_MIGRATIONS, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A scratch migrations folder: a copy of the repository's plus any extra migrations. */
async function scratchMigrations(extra: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  await cp(REPO_MIGRATIONS, dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('applyMigrations (real PostgreSQL)', () => {
  const databases: TestDatabase[] = [];
  const scratchDirs: string[] = [];

  const emptyDatabase = async (): Promise<TestDatabase> => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    return database;
  };
  const scratch = async (extra: Record<string, string> = {}): Promise<string> => {
    const dir = await scratchMigrations(extra);
    scratchDirs.push(dir);
    return dir;
  };

  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
    await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('applies every migration in name order and records it the way Prisma does', async () => {
    const database = await emptyDatabase();
    const names = await repoMigrationNames();
    expect(names.length).toBeGreaterThan(0);

    const before = new Date();
    const result = await applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS });

    expect(result).toEqual({ applied: names, alreadyApplied: [] });
    const rows = await migrationRows(database.url);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const file = await readFile(join(REPO_MIGRATIONS, row.migration_name, 'migration.sql'));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.checksum).toBe(createHash('sha256').update(file).digest('hex'));
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.started_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
      expect(row.finished_at).not.toBeNull();
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    }
  });

  it('creates _prisma_migrations with the columns Prisma creates', async () => {
    const database = await emptyDatabase();
    await applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS });

    const columns = await withClient(database.url, async (client) =>
      (
        await client.query<{ column_name: string; data_type: string; character_maximum_length: number | null; is_nullable: string; column_default: string | null }>(
          `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
             FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
        )
      ).rows,
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', character_maximum_length: 36, is_nullable: 'NO', column_default: null },
      { column_name: 'checksum', data_type: 'character varying', character_maximum_length: 64, is_nullable: 'NO', column_default: null },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', character_maximum_length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'migration_name', data_type: 'character varying', character_maximum_length: 255, is_nullable: 'NO', column_default: null },
      { column_name: 'logs', data_type: 'text', character_maximum_length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', character_maximum_length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'started_at', data_type: 'timestamp with time zone', character_maximum_length: null, is_nullable: 'NO', column_default: 'now()' },
      { column_name: 'applied_steps_count', data_type: 'integer', character_maximum_length: null, is_nullable: 'NO', column_default: '0' },
    ]);
  });

  it('is idempotent: a second run applies nothing and changes no row', async () => {
    const database = await emptyDatabase();
    await applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS });
    const rowsBefore = await migrationRows(database.url);

    const again = await applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS });

    expect(again).toEqual({ applied: [], alreadyApplied: await repoMigrationNames() });
    expect(await migrationRows(database.url)).toEqual(rowsBefore);
  });

  it('applies a new migration added later, and only that one', async () => {
    const database = await emptyDatabase();
    await applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS });
    const dir = await scratch({ '99990101000000_add_probe': 'CREATE TABLE "migration_probe" ("id" INTEGER PRIMARY KEY);\n' });

    const result = await applyMigrations({ databaseUrl: database.url, migrationsDir: dir });

    expect(result.applied).toEqual(['99990101000000_add_probe']);
    expect(await tableExists(database.url, 'migration_probe')).toBe(true);
  });

  it('applies each migration once when several runners start together', async () => {
    const database = await emptyDatabase();
    const names = await repoMigrationNames();

    const results = await Promise.all(
      Array.from({ length: 4 }, () => applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS })),
    );

    expect(results.flatMap((result) => result.applied).sort()).toEqual(names);
    expect(results.filter((result) => result.applied.length > 0)).toHaveLength(1);
    expect((await migrationRows(database.url)).map((row) => row.migration_name)).toEqual(names);
  });

  it('waits for the lock Prisma Migrate takes (advisory lock 72707369)', async () => {
    const database = await emptyDatabase();
    await withClient(database.url, async (holder) => {
      await holder.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
      const run = applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS, lockTimeoutMs: 30_000 });
      await new Promise((done) => setTimeout(done, 500));
      expect(await tableExists(database.url, '_prisma_migrations')).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
      await expect(run).resolves.toEqual({ applied: await repoMigrationNames(), alreadyApplied: [] });
    });
  });

  it('refuses to run when an applied migration was modified, and names it', async () => {
    const database = await emptyDatabase();
    const dir = await scratch({ '99990101000000_add_probe': 'CREATE TABLE "migration_probe" ("id" INTEGER PRIMARY KEY);\n' });
    await applyMigrations({ databaseUrl: database.url, migrationsDir: dir });
    await writeFile(join(dir, '99990101000000_add_probe', 'migration.sql'), 'CREATE TABLE "migration_probe" ("id" BIGINT PRIMARY KEY);\n');
    await mkdir(join(dir, '99990102000000_next'));
    await writeFile(join(dir, '99990102000000_next', 'migration.sql'), 'CREATE TABLE "next_probe" ("id" INTEGER);\n');

    const attempt = applyMigrations({ databaseUrl: database.url, migrationsDir: dir });

    await expect(attempt).rejects.toBeInstanceOf(MigrationChecksumError);
    await expect(attempt).rejects.toThrow('Migration 99990101000000_add_probe was modified after it was applied');
    // Nothing else was applied.
    expect(await tableExists(database.url, 'next_probe')).toBe(false);
  });

  it('does not treat a change of line endings as a modification (as Prisma)', async () => {
    const database = await emptyDatabase();
    const dir = await scratch({ '99990101000000_add_probe': 'CREATE TABLE "migration_probe" (\n  "id" INTEGER PRIMARY KEY\n);\n' });
    await applyMigrations({ databaseUrl: database.url, migrationsDir: dir });
    await writeFile(join(dir, '99990101000000_add_probe', 'migration.sql'), 'CREATE TABLE "migration_probe" (\r\n  "id" INTEGER PRIMARY KEY\r\n);\r\n');

    await expect(applyMigrations({ databaseUrl: database.url, migrationsDir: dir })).resolves.toMatchObject({ applied: [] });
  });

  it('rolls a failing migration back completely and records nothing, so a fixed file applies next time', async () => {
    const database = await emptyDatabase();
    const dir = await scratch({
      '99990101000000_broken': 'CREATE TABLE "half_done" ("id" INTEGER);\nSELECT 1 / 0;\n',
    });

    const attempt = applyMigrations({ databaseUrl: database.url, migrationsDir: dir });

    await expect(attempt).rejects.toBeInstanceOf(MigrationFailedError);
    await expect(attempt).rejects.toThrow('Migration 99990101000000_broken failed and was rolled back: division by zero');
    expect(await tableExists(database.url, 'half_done')).toBe(false);
    expect((await migrationRows(database.url)).map((row) => row.migration_name)).toEqual(await repoMigrationNames());

    await writeFile(join(dir, '99990101000000_broken', 'migration.sql'), 'CREATE TABLE "half_done" ("id" INTEGER);\n');
    await expect(applyMigrations({ databaseUrl: database.url, migrationsDir: dir })).resolves.toMatchObject({ applied: ['99990101000000_broken'] });
    expect(await tableExists(database.url, 'half_done')).toBe(true);
  });

  it('refuses to run over a migration Prisma recorded as failed (started, not finished, not rolled back)', async () => {
    const database = await emptyDatabase();
    await applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS });
    await withClient(database.url, (client) =>
      client.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, started_at, applied_steps_count)
         VALUES (gen_random_uuid()::text, repeat('0', 64), '99990101000000_failed_elsewhere', 'boom', now(), 0)`,
      ),
    );

    await expect(applyMigrations({ databaseUrl: database.url, migrationsDir: REPO_MIGRATIONS })).rejects.toBeInstanceOf(UnfinishedMigrationError);
  });

  it('re-applies a migration marked rolled back (prisma migrate resolve --rolled-back)', async () => {
    const database = await emptyDatabase();
    const dir = await scratch({ '99990101000000_add_probe': 'CREATE TABLE "migration_probe" ("id" INTEGER PRIMARY KEY);\n' });
    await applyMigrations({ databaseUrl: database.url, migrationsDir: dir });
    await withClient(database.url, async (client) => {
      await client.query('DROP TABLE "migration_probe"');
      await client.query(`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = '99990101000000_add_probe'`);
    });

    await expect(applyMigrations({ databaseUrl: database.url, migrationsDir: dir })).resolves.toMatchObject({ applied: ['99990101000000_add_probe'] });
    expect(await tableExists(database.url, 'migration_probe')).toBe(true);
  });
});
