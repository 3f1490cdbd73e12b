/**
 * Baseline benchmark: the same load as the receive benchmark (distinct alerts, closed loop, keep-alive
 * connections, concurrency 64) against "the simplest receiver that does one INSERT per request"
 * (baseline-receiver.ts), the reference issue 4 sets its throughput target by. Run on the machine
 * that runs `npm run bench`, it tells what that target means there.
 *
 *   npm run bench:baseline
 *
 * Knobs: BENCH_CONCURRENCY (64), BENCH_DURATION_S (10), BENCH_WARMUP_S (3), DATABASE_URL (the
 * PostgreSQL server to use; an embedded one is started when nothing answers there).
 */
import { withClient } from '@alert-ingestion/database';
import { findFreePorts, SupervisedProcess } from '@alert-ingestion/local-infra';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { benchDatabase, Cleanup } from './bench-database';
import { postDistinctAlerts, resultLines } from './load-generator';

const env = process.env;
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
const DURATION_S = Number(env['BENCH_DURATION_S'] ?? 10);
const WARMUP_S = Number(env['BENCH_WARMUP_S'] ?? 3);

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Starts baseline-receiver.js under a SupervisedProcess and resolves once it listens. */
async function startReceiver(databaseUrl: string, port: number): Promise<SupervisedProcess> {
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const receiver = SupervisedProcess.start({
    name: 'baseline receiver',
    command: process.execPath,
    args: [join(__dirname, 'baseline-receiver.js')],
    env: { ...env, BASELINE_DATABASE_URL: databaseUrl, PORT: String(port) },
    onLine: (line) => (line.startsWith('listening') ? listening() : log(`receiver: ${line}`)),
  });
  const exited = receiver.exited.then((exit) => {
    throw new Error(`the baseline receiver exited (code ${exit.code}, signal ${exit.signal})`);
  });
  await Promise.race([ready, exited]);
  exited.catch(() => undefined);
  return receiver;
}

async function main(): Promise<void> {
  const cleanups: Cleanup[] = [];
  let failed = false;
  try {
    const { databaseUrl, embedded } = await benchDatabase(`alert_ingestion_baseline_${randomBytes(4).toString('hex')}`, cleanups, log);
    const [port] = await findFreePorts(1);
    const receiver = await startReceiver(databaseUrl, port);
    cleanups.push(async () => void (await receiver.stop()));
    log(`target: the baseline receiver on 127.0.0.1:${port} (PostgreSQL ${embedded ? 'embedded' : 'at DATABASE_URL'}); concurrency ${CONCURRENCY}`);

    const url = new URL(`http://127.0.0.1:${port}/alerts`);
    if (WARMUP_S > 0) {
      const warmup = await postDistinctAlerts(url, {}, { concurrency: CONCURRENCY, label: 'warmup', stopAfter: { ms: WARMUP_S * 1000 }, firstSequence: 0 });
      log(`warm-up: ${warmup.accepted} alerts in ${(warmup.elapsedMs / 1000).toFixed(1)} s`);
    }
    const count = () => withClient(databaseUrl, async (client) => Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM baseline_alerts')).rows[0].n));
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
