import { withClient } from '@alert-ingestion/database';
import { setTimeout as sleep } from 'node:timers/promises';

/** What PostgreSQL wrote while a measurement ran: WAL bytes (the whole server) and rows inserted by table (the database). */
export interface PostgresWrites {
  walBytes: number;
  rowsInserted: Map<string, number>;
}

/**
 * A backend reports its table counters to pg_stat_user_tables at most once a second while it is
 * busy (and when it goes idle), so the counters are read this long after the work has ended.
 */
const STATS_FLUSH_MS = 1_500;

interface Snapshot {
  lsn: string;
  rows: Map<string, number>;
}

async function snapshot(databaseUrl: string): Promise<Snapshot> {
  return withClient(databaseUrl, async (client) => {
    const lsn = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
    const { rows } = await client.query<{ table_name: string; inserted: string }>('SELECT relname AS table_name, n_tup_ins AS inserted FROM pg_stat_user_tables');
    return { lsn, rows: new Map(rows.map((row) => [row.table_name, Number(row.inserted)])) };
  });
}

/**
 * Rows and WAL a measurement costs. Start it before the load; call what it returns once the load's
 * work is done (every alert stored). WAL is the server's: on a server that other work shares, the
 * figure includes theirs.
 */
export async function measurePostgresWrites(databaseUrl: string): Promise<() => Promise<PostgresWrites>> {
  const before = await snapshot(databaseUrl);
  return async () => {
    await sleep(STATS_FLUSH_MS);
    const after = await snapshot(databaseUrl);
    const walBytes = await withClient(databaseUrl, async (client) =>
      Number((await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1, $2)::text AS bytes', [after.lsn, before.lsn])).rows[0].bytes),
    );
    const rowsInserted = new Map<string, number>();
    for (const [table, inserted] of after.rows) {
      const rows = inserted - (before.rows.get(table) ?? 0);
      if (rows > 0) rowsInserted.set(table, rows);
    }
    return { walBytes, rowsInserted };
  };
}

/** "alerts 1.00, deliveries 1.00, ...; WAL 2.1 kB" per alert, tables by rows, most first. */
export function writesPerAlertText(writes: PostgresWrites, alerts: number): string {
  const per = (value: number) => value / Math.max(1, alerts);
  const rows = [...writes.rowsInserted].sort(([, a], [, b]) => b - a);
  const total = rows.reduce((sum, [, count]) => sum + count, 0);
  const tables = rows.map(([table, count]) => `${table} ${per(count).toFixed(2)}`).join(', ');
  return `rows inserted/alert ${per(total).toFixed(2)} (${tables}); WAL ${(per(writes.walBytes) / 1024).toFixed(2)} kB/alert`;
}
