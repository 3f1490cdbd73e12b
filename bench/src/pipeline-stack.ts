/**
 * The pipeline a benchmark loads: a running stack (GATEWAY_URL set) or one of its own, started with
 * only what is missing (Kafka from the Maven jars when KAFKA_BROKERS is not set, PostgreSQL embedded
 * when nothing answers at DATABASE_URL), a fresh database and topic prefix, and the three services
 * from dist/. Used by `npm run bench` and `npm run bench:compare`.
 */
import { applyMigrations, withClient } from '@alert-ingestion/database';
import { createKafkaConfig, ensureTopics } from '@alert-ingestion/kafka';
import { findFreePorts, findRepoRoot, RunningKafkaBroker, startKafkaBroker } from '@alert-ingestion/local-infra';
import { deleteTopicsWithPrefix, scrapeMetrics, ServiceStack, StackClient } from '@alert-ingestion/testing';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabase, Cleanup, log } from './bench-database';
import { CpuSource, postgresCpu, processCpu } from './process-cpu';

const env = process.env;
const DEFAULT_ADMIN_TOKEN = 'local-admin-token';

export interface Stack {
  /** The APIs, as the administrator (the shared test harness's client). */
  client: StackClient;
  /** Counting rows needs the database; without it the processor's X-Total header is used. */
  databaseUrl?: string;
  describe: string;
  /** Where the pipeline spends CPU (only for a stack of its own: its processes are known). */
  cpuSources: CpuSource[];
  stop(): Promise<void>;
}

export async function useRunningStack(): Promise<Stack> {
  const urls = {
    gateway: env['GATEWAY_URL']!,
    integrationConfig: env['INTEGRATION_CONFIG_URL'] ?? 'http://127.0.0.1:8081',
    processor: env['PROCESSOR_URL'] ?? 'http://127.0.0.1:8082',
  };
  return {
    client: StackClient.of(urls, env['ADMIN_TOKEN'] ?? DEFAULT_ADMIN_TOKEN),
    databaseUrl: env['DATABASE_URL'],
    describe: `the running stack at ${urls.gateway}`,
    cpuSources: [],
    stop: async () => undefined,
  };
}

/**
 * Brings up what is missing, each piece stopped again at the end (in reverse order). `serviceEnv`
 * goes to every service, `processorEnv` to the processor only (e.g. SMTP_URL).
 */
export async function startOwnStack(serviceEnv: Record<string, string> = {}, nodeArgs: string[] = [], processorEnv: Record<string, string> = {}): Promise<Stack> {
  const repoRoot = findRepoRoot(__dirname);
  const runId = randomBytes(4).toString('hex');
  const stops: Cleanup[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  };
  try {
    let brokers = env['KAFKA_BROKERS'];
    let brokerPid: number | undefined;
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
      brokerPid = broker.process.pid;
    }

    const { databaseUrl, embedded } = await benchDatabase(`alert_ingestion_bench_${runId}`, stops, log);
    await applyMigrations({ databaseUrl, migrationsDir: join(repoRoot, 'prisma', 'migrations') });

    const prefix = `bench.${runId}.`;
    // Quiet: a fresh broker answers "not the leader" while it elects leaders, and kafkajs retries.
    const kafka = new Kafka(createKafkaConfig({ KAFKA_BROKERS: brokers, KAFKA_CLIENT_ID: 'bench' }, { overrides: { logLevel: logLevel.NOTHING } }));
    await ensureTopics(kafka, prefix);
    stops.push(async () => void (await deleteTopicsWithPrefix(kafka, prefix)));

    const adminToken = `bench-admin-${runId}`;
    const base = { DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers, KAFKA_TOPIC_PREFIX: prefix, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' };
    const stack = await ServiceStack.startOn({ env: base }, { all: serviceEnv, processor: processorEnv, nodeArgs });
    stops.push(() => stack.stop());
    return {
      client: stack,
      databaseUrl,
      describe: `a stack of its own (Kafka ${brokers}${env['KAFKA_BROKERS'] ? ', given' : ', started'}; PostgreSQL ${embedded ? 'embedded' : 'at DATABASE_URL'})`,
      cpuSources: [
        processCpu('gateway', stack.gateway.process.pid),
        processCpu('processor', stack.processor.process.pid),
        ...(brokerPid === undefined ? [] : [processCpu('kafka', brokerPid)]),
        postgresCpu,
      ],
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

export async function createIntegration(stack: Stack, tier: 'free' | 'premium'): Promise<{ projectId: number; integrationId: number; url: string; key: string }> {
  const project = await stack.client.createProject(tier, { pathPrefix: 'bench', integrationName: 'Benchmark endpoint' });
  return { projectId: project.id, integrationId: project.integration.id, url: project.integration.url, key: project.integration.authorization_key };
}

/** Alerts stored for a project: rows in the database when it is known, else the processor's count. */
export async function storedAlerts(stack: Stack, projectId: number): Promise<number> {
  if (stack.databaseUrl) {
    return withClient(stack.databaseUrl, async (client) => {
      const result = await client.query<{ count: string }>('SELECT count(*) AS count FROM alerts WHERE project_id = $1', [projectId]);
      return Number(result.rows[0].count);
    });
  }
  return stack.client.alertCount(projectId);
}

/**
 * The processor's batches so far, from its /metrics (alert_processor_batch_messages): how many
 * transactions stored how many raw alert messages. Their ratio over a round is the batch size that
 * per-batch costs (round trips, produce requests, commits) are shared by.
 */
export async function processorBatches(stack: Stack): Promise<{ batches: number; messages: number }> {
  const metrics = await scrapeMetrics(stack.client.urls.processor);
  return { batches: metrics.value('alert_processor_batch_messages_count'), messages: metrics.value('alert_processor_batch_messages_sum') };
}
