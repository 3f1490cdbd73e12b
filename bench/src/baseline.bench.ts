/**
 * Baseline benchmark: the same load as the receive benchmark (distinct alerts, closed loop, keep-alive
 * connections, concurrency 64) against "the simplest receiver that does one INSERT per request"
 * (baseline-receiver.ts), the reference the throughput target is set by. Run on the machine
 * that runs `npm run bench`, it tells what that target means there.
 *
 *   npm run bench:baseline
 *
 * Knobs: BENCH_CONCURRENCY (64), BENCH_DURATION_S (10), BENCH_WARMUP_S (3), DATABASE_URL (the
 * PostgreSQL server to use; an embedded one is started when nothing answers there).
 */
import { Cleanup, log } from './bench-database';
import { startBaseline } from './baseline-stack';
import { postDistinctAlerts, resultLines } from './load-generator';

const env = process.env;
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
const DURATION_S = Number(env['BENCH_DURATION_S'] ?? 10);
const WARMUP_S = Number(env['BENCH_WARMUP_S'] ?? 3);

async function main(): Promise<void> {
  const cleanups: Cleanup[] = [];
  let failed = false;
  try {
    const baseline = await startBaseline(cleanups);
    const url = baseline.url;
    log(`target: the baseline receiver at ${url.host} (PostgreSQL ${baseline.embedded ? 'embedded' : 'at DATABASE_URL'}); concurrency ${CONCURRENCY}`);
    if (WARMUP_S > 0) {
      const warmup = await postDistinctAlerts(url, {}, { concurrency: CONCURRENCY, label: 'warmup', stopAfter: { ms: WARMUP_S * 1000 }, firstSequence: 0 });
      log(`warm-up: ${warmup.accepted} alerts in ${(warmup.elapsedMs / 1000).toFixed(1)} s`);
    }
    const count = baseline.count;
    const before = await count();
    const measured = await postDistinctAlerts(url, {}, { concurrency: CONCURRENCY, label: 'measured', stopAfter: { ms: DURATION_S * 1000 }, firstSequence: 1_000_000_000 });
    const stored = (await count()) - before;
    const lines = [
      `baseline benchmark (node:http, one INSERT per request): ${measured.accepted} alerts accepted in ${(measured.elapsedMs / 1000).toFixed(2)} s at concurrency ${CONCURRENCY}`,
      ...resultLines(measured),
      `  stored       ${stored} of ${measured.accepted} accepted alerts in the database${stored === measured.accepted ? ' (all)' : ' (MISSING SOME)'}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    failed = stored !== measured.accepted || measured.latenciesMs.length !== measured.accepted;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
