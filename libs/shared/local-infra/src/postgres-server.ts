import { createDatabaseIfMissing, probePostgres, redactUrl } from '@alert-ingestion/database';
import { RunningEmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

export interface EnsurePostgresOptions {
  /** Where the database should be (DATABASE_URL). */
  databaseUrl: string;
  /** Base folder for an embedded server when nothing answers at the URL. */
  embeddedDir: string;
  /** Throwaway cluster (tests): durability settings off. */
  ephemeral?: boolean;
  log?: (message: string) => void;
}

export interface PostgresServer {
  databaseUrl: string;
  /** Set when we started a server; stop() stops it. */
  embedded?: RunningEmbeddedPostgres;
  /** True when the URL's database did not exist and was created. */
  createdDatabase: boolean;
  stop(): Promise<void>;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * PostgreSQL at DATABASE_URL: the server there when it answers; otherwise, when the URL points at
 * this machine, an embedded server (real PostgreSQL binaries from the embedded-postgres package)
 * on the URL's port with its data in `embeddedDir`. Either way the URL's database is created if
 * missing.
 */
export async function ensurePostgres(options: EnsurePostgresOptions): Promise<PostgresServer> {
  const log = options.log ?? (() => undefined);
  const url = new URL(options.databaseUrl);
  const probe = await probePostgres(options.databaseUrl);
  let embedded: RunningEmbeddedPostgres | undefined;
  if (!probe.reachable) {
    if (!LOCAL_HOSTS.has(url.hostname)) {
      throw new Error(`No PostgreSQL answers at ${redactUrl(options.databaseUrl)} (${probe.reason}), and it is not on this machine`);
    }
    const port = Number(url.port || '5432');
    log(`No PostgreSQL at ${url.hostname}:${port} (${probe.reason}); starting an embedded one with data in ${options.embeddedDir}`);
    embedded = await startEmbeddedPostgres({ baseDir: options.embeddedDir, port, ephemeral: options.ephemeral, log });
  }
  try {
    const createdDatabase = await createDatabaseIfMissing(options.databaseUrl);
    if (createdDatabase) log(`Created database ${url.pathname.slice(1)}`);
    return {
      databaseUrl: options.databaseUrl,
      embedded,
      createdDatabase,
      stop: async () => {
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
