import { sqlState } from '@alert-ingestion/sql';
import { Client } from 'pg';

/** The database name in a postgresql:// URL. */
export function databaseNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (name.length === 0) throw new Error(`The URL ${redactUrl(url)} names no database`);
  return name;
}

/** The same server and credentials, another database. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs work on a fresh connection that is always closed afterwards. */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>, timeoutMs = 5_000): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // An idle connection that the server drops must not crash the process; the next query fails instead.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}


export type PostgresProbe = { reachable: true } | { reachable: false; reason: string };

/**
 * Whether a PostgreSQL server answers at the URL's host and port. Any answer from the server
 * counts, including "database does not exist" or an authentication error (the server is there;
 * using it will report the problem); only network failures count as unreachable.
 */
export async function probePostgres(url: string, timeoutMs = 2_000): Promise<PostgresProbe> {
  try {
    await withClient(url, async () => undefined, timeoutMs);
    return { reachable: true };
  } catch (error) {
    if (sqlState(error) !== undefined) return { reachable: true };
    return { reachable: false, reason: error instanceof Error ? error.message || error.name : String(error) };
  }
}

/** The maintenance database of the server behind `url` (same credentials). */
export function maintenanceUrl(url: string): string {
  return withDatabaseName(url, 'postgres');
}

/** Creates the URL's database when it does not exist. Returns true when it created it. */
export async function createDatabaseIfMissing(url: string): Promise<boolean> {
  const name = databaseNameOf(url);
  try {
    await withClient(url, async () => undefined);
    return false;
  } catch (error) {
    if (sqlState(error) !== '3D000') throw error;
  }
  return withClient(maintenanceUrl(url), async (client) => {
    try {
      await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
      return true;
    } catch (error) {
      // Another process created it between our check and now.
      if (sqlState(error) === '42P04') return false;
      throw error;
    }
  });
}

/** Drops a database, disconnecting its sessions first (PostgreSQL 13+). No error if it is gone. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
  });
}
