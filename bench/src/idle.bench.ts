/**
 * Idle benchmark: what the stack costs once a load is over. Starts a stack of its own (a broker
 * from the jars, a fresh database on DATABASE_URL's server, the three services from dist/), posts
 * BENCH_COUNT (100,000) distinct alerts at concurrency 64, waits until every alert is stored and
 * every alert event published, lets it settle BENCH_SETTLE_S (15) seconds, then measures the CPU of
 * every process over BENCH_IDLE_S (60) seconds from /proc (utime + stime): the services, the broker,
 * this database's PostgreSQL sessions and the server's processes, Redis (idle-figures.ts). It
 * prints cores used per process and the rows left in each churned table (pg_stat_user_tables:
 * live, dead, and the table's size), which with autovacuum off only the services' own reclaiming
 * keeps small.
 *
 * Knobs: BENCH_COUNT (100000), BENCH_CONCURRENCY (64), BENCH_SETTLE_S (15), BENCH_IDLE_S (60).
 */
import { waitForCount } from '@alert-ingestion/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from './bench-database';
import { churnedTableLines, churnedTables, idleLines, measureIdle, unpublishedEvents } from './idle-figures';
import { postDistinctAlerts } from './load-generator';
import { createIntegration, startOwnStack, storedAlerts } from './pipeline-stack';

const env = process.env;
const COUNT = Number(env['BENCH_COUNT'] ?? 100_000);
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
const SETTLE_S = Number(env['BENCH_SETTLE_S'] ?? 15);
const IDLE_S = Number(env['BENCH_IDLE_S'] ?? 60);

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
    await waitForCount(async () => -(await unpublishedEvents(databaseUrl)), 0, 300_000);
    log(`every alert stored and every event published; settling ${SETTLE_S} s`);
    await sleep(SETTLE_S * 1000);

    const before = await churnedTables(databaseUrl);
    const idle = await measureIdle(stack, IDLE_S);
    const after = await churnedTables(databaseUrl);
    const lines = [
      `idle benchmark: ${load.accepted} alerts, then ${IDLE_S} s idle (cores = CPU seconds / ${IDLE_S} s)`,
      ...idleLines(idle),
      '  churned tables (live / dead rows, size) before -> after the idle minute:',
      ...churnedTableLines(after, before, '    '),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
