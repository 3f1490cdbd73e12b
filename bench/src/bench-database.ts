import { createDatabaseIfMissing, dropDatabase, maintenanceUrl, probePostgres, withDatabaseName } from '@alert-ingestion/database';
import { ensurePostgres } from '@alert-ingestion/local-infra';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Undoes one thing a benchmark started or created; run in reverse order at the end. */
export type Cleanup = () => Promise<void>;

/**
 * A database of its own for one benchmark run, `name`, on the PostgreSQL at DATABASE_URL, or on an
 * embedded one when nothing answers there. Dropping the database (and stopping an embedded server)
 * is pushed onto `cleanups`.
 */
export async function benchDatabase(name: string, cleanups: Cleanup[], log: (message: string) => void): Promise<{ databaseUrl: string; embedded: boolean }> {
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  let embedded = false;
  if (!(await probePostgres(maintenanceUrl(serverUrl))).reachable) {
    const embeddedDir = mkdtempSync(join(tmpdir(), 'bench-postgres-'));
    log('starting an embedded PostgreSQL');
    const postgres = await ensurePostgres({ databaseUrl: serverUrl, embeddedDir, ephemeral: true, log });
    cleanups.push(async () => {
      await postgres.stop();
      rmSync(embeddedDir, { recursive: true, force: true });
    });
    embedded = true;
  }
  const databaseUrl = withDatabaseName(serverUrl, name);
  await createDatabaseIfMissing(databaseUrl);
  cleanups.push(() => dropDatabase(maintenanceUrl(serverUrl), name));
  return { databaseUrl, embedded };
}
