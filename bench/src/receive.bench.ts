/**
 * Receive benchmark (issue 4 "Throughput by design"): posts distinct alerts at a fixed concurrency
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
import { applyMigrations, withClient } from '@alert-ingestion/database';
import { createKafkaConfig, deleteTopicsWithPrefix, ensureTopics } from '@alert-ingestion/kafka';
import { findFreePorts, findRepoRoot, RunningKafkaBroker, startKafkaBroker } from '@alert-ingestion/local-infra';
import { ServiceProcess, startService } from '@alert-ingestion/testing';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabase, Cleanup } from './bench-database';
import { LoadOptions, LoadResult, postDistinctAlerts, resultLines } from './load-generator';

const env = process.env;
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
const DURATION_S = Number(env['BENCH_DURATION_S'] ?? 10);
const COUNT = env['BENCH_COUNT'] ? Number(env['BENCH_COUNT']) : undefined;
const WARMUP_S = Number(env['BENCH_WARMUP_S'] ?? 3);
const TIER = env['BENCH_TIER'] === 'free' ? 'free' : 'premium';
const STORE_TIMEOUT_S = Number(env['BENCH_STORE_TIMEOUT_S'] ?? 120);
const DEFAULT_ADMIN_TOKEN = 'local-admin-token';

interface Stack {
  gatewayUrl: string;
  integrationConfigUrl: string;
  processorUrl: string;
  adminToken: string;
  /** Counting rows needs the database; without it the processor's X-Total header is used. */
  databaseUrl?: string;
  describe: string;
  stop(): Promise<void>;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function useRunningStack(): Promise<Stack> {
  return {
    gatewayUrl: env['GATEWAY_URL']!,
    integrationConfigUrl: env['INTEGRATION_CONFIG_URL'] ?? 'http://127.0.0.1:8081',
    processorUrl: env['PROCESSOR_URL'] ?? 'http://127.0.0.1:8082',
    adminToken: env['ADMIN_TOKEN'] ?? DEFAULT_ADMIN_TOKEN,
    databaseUrl: env['DATABASE_URL'],
    describe: `the running stack at ${env['GATEWAY_URL']}`,
    stop: async () => undefined,
  };
}

/** Brings up what is missing, each piece stopped again at the end (in reverse order). */
async function startOwnStack(): Promise<Stack> {
  const repoRoot = findRepoRoot(__dirname);
  const runId = randomBytes(4).toString('hex');
  const stops: Cleanup[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  };
  try {
    let brokers = env['KAFKA_BROKERS'];
    if (!brokers) {
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-kafka-'));
      const [port, controllerPort] = await findFreePorts(2);
      log(`starting a Kafka broker on 127.0.0.1:${port}`);
      const broker: RunningKafkaBroker = await startKafkaBroker({ repoRoot, dataDir, port, controllerPort, heapMb: 768, log });
      stops.push(async () => {
        await broker.stop();
        rmSync(dataDir, { recursive: true, force: true });
      });
      brokers = broker.brokers;
    }

    const { databaseUrl, embedded } = await benchDatabase(`alert_ingestion_bench_${runId}`, stops, log);
    await applyMigrations({ databaseUrl, migrationsDir: join(repoRoot, 'prisma', 'migrations') });

    const prefix = `bench.${runId}.`;
    // Quiet: a fresh broker answers "not the leader" while it elects leaders, and kafkajs retries.
    const kafka = new Kafka(createKafkaConfig({ KAFKA_BROKERS: brokers, KAFKA_CLIENT_ID: 'bench' }, { overrides: { logLevel: logLevel.NOTHING } }));
    await ensureTopics(kafka, prefix);
    stops.push(async () => void (await deleteTopicsWithPrefix(kafka, prefix)));

    const adminToken = `bench-admin-${runId}`;
    const common = { DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers, KAFKA_TOPIC_PREFIX: prefix, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' };
    const services: ServiceProcess[] = [];
    stops.push(async () => void (await Promise.all(services.map((service) => service.stop()))));
    const processor = await startService('alert-processor', common);
    services.push(processor);
    const gateway = await startService('gateway', common);
    services.push(gateway);
    const integrationConfig = await startService('integration-config', {
      ...common,
      GATEWAY_PUBLIC_URL: gateway.url,
      INTEGRATION_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    services.push(integrationConfig);
    return {
      gatewayUrl: gateway.url,
      integrationConfigUrl: integrationConfig.url,
      processorUrl: processor.url,
      adminToken,
      databaseUrl,
      describe: `a stack of its own (Kafka ${brokers}${env['KAFKA_BROKERS'] ? ', given' : ', started'}; PostgreSQL ${embedded ? 'embedded' : 'at DATABASE_URL'})`,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function api<T>(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<{ body: T; headers: Headers }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${baseUrl}${path} -> ${response.status} ${text}`);
  return { body: JSON.parse(text) as T, headers: response.headers };
}

async function createIntegration(stack: Stack): Promise<{ projectId: number; url: string; key: string }> {
  const { body: project } = await api<{ id: number }>(stack.integrationConfigUrl, stack.adminToken, 'POST', '/api/v4/projects', {
    path: `bench-${randomBytes(5).toString('hex')}`,
    tier: TIER,
  });
  const { body: created } = await api<{ id: number }>(stack.integrationConfigUrl, stack.adminToken, 'POST', `/api/v4/projects/${project.id}/alert_integrations`, {
    type: 'http',
    active: true,
    ...(TIER === 'premium' ? { name: 'Benchmark endpoint' } : {}),
  });
  const { body: integration } = await api<{ url: string; authorization_key: string }>(
    stack.integrationConfigUrl,
    stack.adminToken,
    'GET',
    `/api/v4/projects/${project.id}/alert_integrations/${created.id}`,
  );
  return { projectId: project.id, url: integration.url, key: integration.authorization_key };
}

/** Distinct alerts posted to the integration's URL with its key. */
function run(url: URL, key: string, load: Omit<LoadOptions, 'concurrency'>): Promise<LoadResult> {
  return postDistinctAlerts(url, { Authorization: `Bearer ${key}` }, { concurrency: CONCURRENCY, ...load });
}

async function storedAlerts(stack: Stack, projectId: number): Promise<number> {
  if (stack.databaseUrl) {
    return withClient(stack.databaseUrl, async (client) => {
      const result = await client.query<{ count: string }>('SELECT count(*) AS count FROM alerts WHERE project_id = $1', [projectId]);
      return Number(result.rows[0].count);
    });
  }
  const { headers } = await api<unknown[]>(stack.processorUrl, stack.adminToken, 'GET', `/api/v4/projects/${projectId}/alerts?per_page=1`);
  return Number(headers.get('x-total'));
}

async function main(): Promise<void> {
  const stack = env['GATEWAY_URL'] ? await useRunningStack() : await startOwnStack();
  let failed = false;
  try {
    const { projectId, url, key } = await createIntegration(stack);
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
    const storeDeadline = Date.now() + STORE_TIMEOUT_S * 1000;
    let stored = await storedAlerts(stack, projectId);
    while (stored < expected && Date.now() < storeDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      stored = await storedAlerts(stack, projectId);
    }

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
