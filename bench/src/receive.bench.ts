/**
 * Receive benchmark: posts distinct alerts at a fixed concurrency
 * through the whole pipeline (gateway -> Kafka -> alert-processor -> PostgreSQL -> reply), prints
 * alerts per second and latency percentiles, and verifies that every accepted alert was stored.
 *
 * Against a running stack (`npm start`):
 *   GATEWAY_URL=http://127.0.0.1:8080 npm run bench
 *   (also read: INTEGRATION_CONFIG_URL, PROCESSOR_URL, ADMIN_TOKEN, DATABASE_URL)
 * Otherwise it starts only what it needs: Kafka when KAFKA_BROKERS is not set (a broker from the
 * Maven jars), PostgreSQL when nothing answers at DATABASE_URL (embedded), a fresh database and
 * topic prefix of its own, and the three services from dist/.
 *
 * Knobs: BENCH_CONCURRENCY (64), BENCH_DURATION_S (10), BENCH_COUNT (stop after this many alerts
 * instead), BENCH_WARMUP_S (3), BENCH_TIER (premium | free), BENCH_STORE_TIMEOUT_S (120).
 */
import { waitForCount } from '@alert-ingestion/testing';
import { log } from './bench-database';
import { LoadOptions, LoadResult, postDistinctAlerts, resultLines } from './load-generator';
import { createIntegration, startOwnStack, storedAlerts, useRunningStack } from './pipeline-stack';

const env = process.env;
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
const DURATION_S = Number(env['BENCH_DURATION_S'] ?? 10);
const COUNT = env['BENCH_COUNT'] ? Number(env['BENCH_COUNT']) : undefined;
const WARMUP_S = Number(env['BENCH_WARMUP_S'] ?? 3);
const TIER = env['BENCH_TIER'] === 'free' ? 'free' : 'premium';
const STORE_TIMEOUT_S = Number(env['BENCH_STORE_TIMEOUT_S'] ?? 120);

/** Distinct alerts posted to the integration's URL with its key. */
function run(url: URL, key: string, load: Omit<LoadOptions, 'concurrency'>): Promise<LoadResult> {
  return postDistinctAlerts(url, { Authorization: `Bearer ${key}` }, { concurrency: CONCURRENCY, ...load });
}

async function main(): Promise<void> {
  const stack = env['GATEWAY_URL'] ? await useRunningStack() : await startOwnStack();
  let failed = false;
  try {
    const { projectId, url, key } = await createIntegration(stack, TIER);
    const target = new URL(url);
    log(`target: ${stack.describe}; ${TIER} project ${projectId}; concurrency ${CONCURRENCY}`);

    if (WARMUP_S > 0) {
      const warmup = await run(target, key, { label: 'warmup', stopAfter: { ms: WARMUP_S * 1000 }, firstSequence: 0 });
      log(`warm-up: ${warmup.accepted} alerts in ${(warmup.elapsedMs / 1000).toFixed(1)} s`);
    }
    const storedBefore = await storedAlerts(stack, projectId);
    const measured = await run(target, key, {
      label: 'measured',
      stopAfter: { ms: COUNT === undefined ? DURATION_S * 1000 : Number.MAX_SAFE_INTEGER, count: COUNT },
      firstSequence: 1_000_000_000,
    });

    const expected = storedBefore + measured.accepted;
    const stored = await waitForCount(() => storedAlerts(stack, projectId), expected, STORE_TIMEOUT_S * 1000);

    const lines = [
      `receive benchmark: ${measured.accepted} alerts accepted in ${(measured.elapsedMs / 1000).toFixed(2)} s at concurrency ${CONCURRENCY} (${TIER} tier)`,
      ...resultLines(measured, { throughput: '>= 6500', latency: 'p99 < 50' }),
      `  stored       ${stored - storedBefore} of ${measured.accepted} accepted alerts in the database${stored === expected ? ' (all)' : ' (MISSING SOME)'}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const nonAccepted = measured.latenciesMs.length - measured.accepted;
    if (stored !== expected || nonAccepted > 0) failed = true;
  } finally {
    await stack.stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
