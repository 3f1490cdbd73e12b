import { withClient } from '@alert-ingestion/database';
import { namedProcessesCpu } from './process-cpu';

/**
 * Where PostgreSQL's CPU goes, by session: client sessions by their application_name (the
 * processor's pool, each outbox relay) or database, server processes by their type (walwriter,
 * checkpointer, autovacuum worker...), and processes that ended during the measurement. Start it
 * before the load; the function it returns gives CPU seconds per label since then.
 */
export function measurePostgresSessions(databaseUrl: string): () => Promise<Map<string, number>> {
  const before = namedProcessesCpu('postgres');
  return async () => {
    const after = namedProcessesCpu('postgres');
    const labels = await withClient(databaseUrl, async (client) => {
      const result = await client.query<{ pid: number; backend_type: string; application_name: string; datname: string | null }>(
        'SELECT pid, backend_type, application_name, datname FROM pg_stat_activity',
      );
      return new Map(
        result.rows.map((row) => [
          row.pid,
          row.backend_type !== 'client backend' ? row.backend_type : row.application_name || `sessions on ${row.datname ?? 'no database'}`,
        ]),
      );
    });
    const seconds = new Map<string, number>();
    const add = (label: string, value: number) => seconds.set(label, (seconds.get(label) ?? 0) + value);
    for (const [pid, total] of after.byPid) add(labels.get(pid) ?? 'postmaster', total - (before.byPid.get(pid) ?? 0));
    // A process that ended moved its whole life's CPU into the postmaster's counters: only what it
    // used after `before` was taken belongs to the measurement.
    const endedBefore = [...before.byPid].filter(([pid]) => !after.byPid.has(pid)).reduce((sum, [, total]) => sum + total, 0);
    add('ended processes', after.ended - before.ended - endedBefore);
    return seconds;
  };
}
