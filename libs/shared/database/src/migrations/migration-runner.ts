import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { redactUrl, withClient } from '../database-url';
import { findMigrationsDir, MigrationFile, readMigrations, scriptMatchesChecksum } from './migration-files';
import { MigrationChecksumError, MigrationFailedError, MigrationLockTimeoutError, UnfinishedMigrationError } from './migration-errors';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The advisory lock key Prisma Migrate takes (prisma-engines, sql-schema-connector postgres flavour),
 * so this runner and `prisma migrate deploy` never run at the same time on one database.
 */
export const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** The table exactly as Prisma's schema engine creates it for PostgreSQL. */
export const PRISMA_MIGRATIONS_TABLE_DDL = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);
`;

export interface ApplyMigrationsOptions {
  databaseUrl: string;
  /** Default: the nearest prisma/migrations (see findMigrationsDir). */
  migrationsDir?: string;
  /** How long to wait for another runner holding the lock. Default 60 s. */
  lockTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface ApplyMigrationsResult {
  /** Applied by this call, in order. */
  applied: string[];
  /** Found already applied. */
  alreadyApplied: string[];
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

async function acquireLock(client: Client, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [PRISMA_MIGRATE_LOCK_KEY]);
    if (result.rows[0]?.locked) return;
    if (Date.now() >= deadline) throw new MigrationLockTimeoutError(timeoutMs);
    await sleep(100);
  }
}

async function ensureMigrationsTable(client: Client): Promise<void> {
  const result = await client.query<{ table: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS table`);
  if (result.rows[0]?.table === null || result.rows[0]?.table === undefined) {
    await client.query(PRISMA_MIGRATIONS_TABLE_DDL);
  }
}

/** Checks the recorded history against the files and returns the names already applied. */
function verifyHistory(rows: MigrationRow[], files: MigrationFile[], log: (message: string) => void): Set<string> {
  const byName = new Map(files.map((file) => [file.name, file]));
  const applied = new Set<string>();
  for (const row of rows) {
    if (row.rolled_back_at !== null) continue;
    if (row.finished_at === null) throw new UnfinishedMigrationError(row.migration_name);
    const file = byName.get(row.migration_name);
    if (!file) {
      log(`Migration ${row.migration_name} is applied in the database but has no folder here (a newer version applied it?)`);
    } else if (!scriptMatchesChecksum(file.script, row.checksum)) {
      throw new MigrationChecksumError(row.migration_name, row.checksum, file.checksum);
    }
    applied.add(row.migration_name);
  }
  return applied;
}

async function applyOne(client: Client, migration: MigrationFile): Promise<void> {
  const startedAt = new Date();
  await client.query('BEGIN');
  try {
    await client.query(migration.script);
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, $4, 1)`,
      [randomUUID(), migration.checksum, migration.name, startedAt],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new MigrationFailedError(migration.name, error);
  }
}

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own transaction
 * together with its `_prisma_migrations` row, under Prisma Migrate's advisory lock. Rows are what
 * Prisma writes (uuid id, sha256 checksum, started/finished times, one applied step), so
 * `prisma migrate deploy` sees these migrations as applied; already applied ones are skipped.
 * Refuses to run when an applied migration's file changed or a migration is half-applied.
 *
 * Unlike Prisma, a failed migration leaves no row: its transaction rolled back, so there is
 * nothing to repair and the next run tries it again.
 */
export async function applyMigrations(options: ApplyMigrationsOptions): Promise<ApplyMigrationsResult> {
  const log = options.log ?? (() => undefined);
  const migrationsDir = options.migrationsDir ?? findMigrationsDir();
  const files = await readMigrations(migrationsDir);
  return withClient(
    options.databaseUrl,
    async (client) => {
      await acquireLock(client, options.lockTimeoutMs ?? 60_000);
      try {
        await ensureMigrationsTable(client);
        const history = await client.query<MigrationRow>(
          'SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at, migration_name',
        );
        const alreadyApplied = verifyHistory(history.rows, files, log);
        const pending = files.filter((file) => !alreadyApplied.has(file.name));
        for (const migration of pending) {
          log(`Applying migration ${migration.name} to ${redactUrl(options.databaseUrl)}`);
          await applyOne(client, migration);
        }
        return {
          applied: pending.map((migration) => migration.name),
          alreadyApplied: files.filter((file) => alreadyApplied.has(file.name)).map((file) => file.name),
        };
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]).catch(() => undefined);
      }
    },
    10_000,
  );
}
