/**
 * Idle benchmark: what the stack costs once a load is over. Starts a stack of its own (a broker
 * from the jars, a fresh database on DATABASE_URL's server, the three services from dist/), posts
 * BENCH_COUNT (100,000) distinct alerts at concurrency 64, waits until every alert is stored and
 * every outbox is published, lets it settle BENCH_SETTLE_S (15) seconds, then measures the CPU of
 * every process over BENCH_IDLE_S (60) seconds from /proc (utime + stime): the services, the broker,
 * this database's PostgreSQL sessions and server processes, Redis. It prints cores used per process
 * and the rows left in each churned table (pg_stat_user_tables: live, dead, and the table's size),
 * which with autovacuum off only the services' own reclaiming keeps small.
 *
 * Knobs: BENCH_COUNT (100000), BENCH_CONCURRENCY (64), BENCH_SETTLE_S (15), BENCH_IDLE_S (60).
 */
import { withClient } from '@alert-ingestion/database';
import { waitForCount } from '@alert-ingestion/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from './bench-database';
import { postDistinctAlerts } from './load-generator';
import { createIntegration, startOwnStack, storedAlerts } from './pipeline-stack';
import { measurePostgresSessions } from './postgres-sessions';
import { measureCpu, namedProcessesCpuSeconds, processesCpu } from './process-cpu';

const env = process.env;
const COUNT = Number(env['BENCH_COUNT'] ?? 100_000);
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
const SETTLE_S = Number(env['BENCH_SETTLE_S'] ?? 15);
const IDLE_S = Number(env['BENCH_IDLE_S'] ?? 60);

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

interface TableState {
  table: string;
  live: number;
  dead: number;
  bytes: number;
}

async function tableStates(databaseUrl: string): Promise<TableState[]> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ relname: string; live: string; dead: string; bytes: string }>(
      `SELECT relname, n_live_tup AS live, n_dead_tup AS dead, pg_relation_size(relid) AS bytes
       FROM pg_stat_user_tables WHERE relname = ANY($1::text[]) ORDER BY relname`,
      [[...CHURNED_TABLES]],
    );
    return result.rows.map((row) => ({ table: row.relname, live: Number(row.live), dead: Number(row.dead), bytes: Number(row.bytes) }));
  });
}

async function unpublished(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ rows: string }>('SELECT count(*) AS rows FROM alert_event_outbox');
    return Number(result.rows[0].rows);
  });
}

async function main(): Promise<void> {
  const stack = await startOwnStack();
  try {
    const databaseUrl = stack.databaseUrl!;
    const { projectId, url, key } = await createIntegration(stack, 'premium');
    log(`posting ${COUNT} alerts at concurrency ${CONCURRENCY} to ${stack.describe}`);
    const load = await postDistinctAlerts(new URL(url), { Authorization: `Bearer ${key}` }, {
      concurrency: CONCURRENCY,
      label: 'idle',
      stopAfter: { ms: Number.MAX_SAFE_INTEGER, count: COUNT },
      firstSequence: 0,
    });
    log(`${load.accepted} alerts accepted in ${(load.elapsedMs / 1000).toFixed(1)} s`);
    await waitForCount(() => storedAlerts(stack, projectId), load.accepted, 300_000);
    await waitForCount(async () => -(await unpublished(databaseUrl)), 0, 300_000);
    log(`every alert stored and every event published; settling ${SETTLE_S} s`);
    await sleep(SETTLE_S * 1000);

    const before = await tableStates(databaseUrl);
    const redis = { name: 'redis', seconds: () => namedProcessesCpuSeconds('redis-server') };
    const services = measureCpu([...stack.cpuSources.filter((source) => source.name !== 'postgresql'), redis]);
    const integrationConfig = measureCpu([processesCpu('integration-config', stack.pids.integrationConfig)]);
    const postgres = measurePostgresSessions(databaseUrl);
    await sleep(IDLE_S * 1000);
    const cores = new Map([...services().seconds, ...integrationConfig().seconds]);
    const sessions = await postgres();
    const after = await tableStates(databaseUrl);

    const lines = [`idle benchmark: ${load.accepted} alerts, then ${IDLE_S} s idle (cores = CPU seconds / ${IDLE_S} s)`];
    let total = 0;
    for (const [name, seconds] of cores) {
      lines.push(`  ${name.padEnd(28)} ${(seconds / IDLE_S).toFixed(3)} cores`);
      total += seconds;
    }
    // Sessions of other databases on the same server (other runs) are left out; the server's own
    // processes stay in. Processes that ended during the minute (parallel workers, short sessions)
    // cannot be told apart by database: shown beside the total, from any database of the server.
    const database = new URL(databaseUrl).pathname.slice(1);
    const ours = [...sessions].filter(([label]) => label !== 'ended processes' && (!label.startsWith('sessions on ') || label === `sessions on ${database}`));
    const ended = sessions.get('ended processes') ?? 0;
    const postgresSeconds = ours.reduce((sum, [, seconds]) => sum + seconds, 0);
    lines.push(`  ${'postgresql'.padEnd(28)} ${(postgresSeconds / IDLE_S).toFixed(3)} cores (this database's sessions and the server's processes)`);
    for (const [label, seconds] of ours.sort((a, b) => b[1] - a[1]).slice(0, 6)) lines.push(`    ${label.padEnd(34)} ${(seconds / IDLE_S).toFixed(3)}`);
    lines.push(`  ${'postgresql, ended processes'.padEnd(28)} ${(ended / IDLE_S).toFixed(3)} cores (parallel workers and sessions that ended, of any database on the server)`);
    total += postgresSeconds;
    lines.push(`  ${'total without ended'.padEnd(28)} ${(total / IDLE_S).toFixed(3)} cores`);
    total += ended;
    lines.push(`  ${'total'.padEnd(28)} ${(total / IDLE_S).toFixed(3)} cores`);
    lines.push('  churned tables (live / dead rows, size) before -> after the idle minute:');
    for (const state of after) {
      const start = before.find((row) => row.table === state.table);
      lines.push(`    ${state.table.padEnd(28)} ${start?.live ?? 0} / ${start?.dead ?? 0}, ${kb(start?.bytes ?? 0)} -> ${state.live} / ${state.dead}, ${kb(state.bytes)}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await stack.stop();
  }
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1024)} kB`;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
