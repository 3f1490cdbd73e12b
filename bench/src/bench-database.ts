import { dropDatabase, maintenanceUrl, withDatabaseName } from '@alert-ingestion/database';
import { ensurePostgres } from '@alert-ingestion/local-infra';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A benchmark's progress line, on stderr (stdout holds only the report). */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Undoes one thing a benchmark started or created; run in reverse order at the end. */
export type Cleanup = () => Promise<void>;

/**
 * A database of its own for one benchmark run, `name`, on the PostgreSQL server of DATABASE_URL, or
 * on an embedded one when nothing answers there (ensurePostgres). Dropping the database and
 * stopping an embedded server are pushed onto `cleanups`.
 */
export async function benchDatabase(name: string, cleanups: Cleanup[], log: (message: string) => void): Promise<{ databaseUrl: string; embedded: boolean }> {
  const databaseUrl = withDatabaseName(process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres', name);
  const embeddedDir = mkdtempSync(join(tmpdir(), 'bench-postgres-'));
  const postgres = await ensurePostgres({ databaseUrl, embeddedDir, ephemeral: true, log }).catch((error: unknown) => {
    rmSync(embeddedDir, { recursive: true, force: true });
    throw error;
  });
  cleanups.push(async () => {
    await postgres.stop();
    rmSync(embeddedDir, { recursive: true, force: true });
  });
  cleanups.push(() => dropDatabase(maintenanceUrl(databaseUrl), name));
  return { databaseUrl, embedded: postgres.embedded !== undefined };
}
