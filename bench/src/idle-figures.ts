import { withClient } from '@alert-ingestion/database';
import { setTimeout as sleep } from 'node:timers/promises';
import { Stack } from './pipeline-stack';
import { measurePostgresSessions } from './postgres-sessions';
import { measureCpu, namedProcessesCpuSeconds, processesCpu } from './process-cpu';

/** The tables whose rows the stack deletes or updates in bulk. */
export const CHURNED_TABLES = [
  'alert_event_outbox',
  'incident_event_outbox',
  'oncall_event_outbox',
  'integration_snapshot_outbox',
  'processed_raw_alerts',
  'alert_deliveries',
  'alert_notifications',
  'alert_escalations',
  'escalation_pages',
] as const;

/** A churned table as PostgreSQL's statistics count it, and its size. */
export interface TableState {
  table: string;
  live: number;
  dead: number;
  bytes: number;
}

export async function churnedTables(databaseUrl: string): Promise<TableState[]> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ relname: string; live: string; dead: string; bytes: string }>(
      `SELECT relname, n_live_tup AS live, n_dead_tup AS dead, pg_relation_size(relid) AS bytes
       FROM pg_stat_user_tables WHERE relname = ANY($1::text[]) ORDER BY relname`,
      [[...CHURNED_TABLES]],
    );
    return result.rows.map((row) => ({ table: row.relname, live: Number(row.live), dead: Number(row.dead), bytes: Number(row.bytes) }));
  });
}

/** Alert events not yet published (rows left in the alert event outbox). */
export async function unpublishedEvents(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ rows: string }>('SELECT count(*) AS rows FROM alert_event_outbox');
    return Number(result.rows[0].rows);
  });
}

/** What an idle stack used over some seconds, in cores (CPU seconds per second). */
export interface IdleCores {
  seconds: number;
  /** Each service, the broker (when the stack started it) and Redis. */
  processes: Map<string, number>;
  /** PostgreSQL: the stack database's sessions and the server's own processes. */
  postgres: number;
  /** The PostgreSQL labels of `postgres`, largest first. */
  postgresSessions: Array<[string, number]>;
  /**
   * PostgreSQL processes that ended meanwhile (parallel workers, short sessions), of any database
   * of the server: they cannot be told apart by database.
   */
  postgresEnded: number;
  /** Everything but postgresEnded. */
  total: number;
}

/** The CPU of a stack of its own (its processes known) over `seconds` of nothing sent to it. */
export async function measureIdle(stack: Stack, seconds: number): Promise<IdleCores> {
  const databaseUrl = stack.databaseUrl!;
  const redis = { name: 'redis', seconds: () => namedProcessesCpuSeconds('redis-server') };
  const processes = measureCpu([
    ...stack.cpuSources.filter((source) => source.name !== 'postgresql'),
    processesCpu('integration-config', stack.pids.integrationConfig),
    redis,
  ]);
  const postgres = measurePostgresSessions(databaseUrl);
  await sleep(seconds * 1000);
  const used = processes().seconds;
  const sessions = await postgres();
  // Sessions of other databases on the same server (other runs) are left out.
  const database = new URL(databaseUrl).pathname.slice(1);
  const ours = [...sessions].filter(([label]) => label !== 'ended processes' && (!label.startsWith('sessions on ') || label === `sessions on ${database}`));
  const cores = (value: number) => value / seconds;
  const postgresCores = cores(ours.reduce((sum, [, value]) => sum + value, 0));
  const processCores = new Map([...used].map(([name, value]) => [name, cores(value)]));
  return {
    seconds,
    processes: processCores,
    postgres: postgresCores,
    postgresSessions: ours.map(([label, value]): [string, number] => [label, cores(value)]).sort((a, b) => b[1] - a[1]),
    postgresEnded: cores(sessions.get('ended processes') ?? 0),
    total: [...processCores.values()].reduce((sum, value) => sum + value, postgresCores),
  };
}

/** The report's lines of an idle measurement. */
export function idleLines(idle: IdleCores, indent = '  '): string[] {
  const line = (name: string, value: number, note = '') => `${indent}${name.padEnd(28)} ${value.toFixed(3)} cores${note}`;
  return [
    ...[...idle.processes].map(([name, value]) => line(name, value)),
    line('postgresql', idle.postgres, " (this database's sessions and the server's processes)"),
    ...idle.postgresSessions.slice(0, 6).map(([label, value]) => `${indent}  ${label.padEnd(34)} ${value.toFixed(3)}`),
    line('postgresql, ended processes', idle.postgresEnded, ' (parallel workers and sessions that ended, of any database on the server)'),
    line('total without ended', idle.total),
    line('total', idle.total + idle.postgresEnded),
  ];
}

/** The report's lines of the churned tables: live / dead rows and size, before -> after when both are given. */
export function churnedTableLines(after: readonly TableState[], before?: readonly TableState[], indent = '  '): string[] {
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} kB`;
  const text = (state: TableState | undefined) => `${state?.live ?? 0} / ${state?.dead ?? 0}, ${kb(state?.bytes ?? 0)}`;
  return after.map((state) => {
    const start = before?.find((row) => row.table === state.table);
    return `${indent}${state.table.padEnd(28)} ${before ? `${text(start)} -> ` : ''}${text(state)}`;
  });
}
