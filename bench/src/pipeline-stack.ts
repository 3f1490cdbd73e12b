/**
 * The pipeline a benchmark loads: a running stack (GATEWAY_URL set) or one of its own, started with
 * only what is missing (Kafka from the Maven jars when KAFKA_BROKERS is not set, PostgreSQL embedded
 * when nothing answers at DATABASE_URL), a fresh database and topic prefix, and the three services
 * from dist/. Used by `npm run bench` and `npm run bench:compare`; `npm run bench:scale` starts one
 * broker and, on it, a pipeline of several gateways and processors per configuration.
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
import { CpuSource, postgresCpu, processCpu, processesCpu } from './process-cpu';

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
  /** Every gateway instance's base URL (http://host:port), the first one the integrations' URLs name. */
  gatewayUrls: string[];
  /** Every processor instance's base URL. */
  processorUrls: string[];
  /** The processes of a stack of its own, by kind (empty for a running stack). */
  pids: { gateway: number[]; processor: number[]; workflow: number[]; integrationConfig: number[] };
  /** The stack's Kafka and topic prefix (a stack of its own). */
  kafka?: { kafka: Kafka; prefix: string };
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
    gatewayUrls: [urls.gateway],
    processorUrls: [urls.processor],
    pids: { gateway: [], processor: [], workflow: [], integrationConfig: [] },
    stop: async () => undefined,
  };
}

/** The Kafka broker a benchmark runs on: the one at KAFKA_BROKERS, or one of its own from the Maven jars. */
export interface BenchBroker {
  /** host:port of its listener. */
  brokers: string;
  /** The broker's process when the benchmark started it (its CPU is then measured). */
  pid?: number;
  describe: string;
  stop(): Promise<void>;
}

/** The broker at KAFKA_BROKERS when set, else one started from the jars (stopped, and its data removed, by `stop`). */
export async function startBenchBroker(): Promise<BenchBroker> {
  const given = env['KAFKA_BROKERS'];
  if (given) return { brokers: given, describe: `Kafka ${given}, given`, stop: async () => undefined };
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-kafka-'));
  try {
    const [port, controllerPort] = await findFreePorts(2);
    log(`starting a Kafka broker on 127.0.0.1:${port}`);
    const broker: RunningKafkaBroker = await startKafkaBroker({ repoRoot: findRepoRoot(__dirname), dataDir, port, controllerPort, heapMb: 768, log });
    return {
      brokers: broker.brokers,
      pid: broker.process.pid,
      describe: `Kafka ${broker.brokers}, started`,
      stop: async () => {
        await broker.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** What runs the pipeline: how many gateways and processors, and what their processes get. */
export interface PipelineOptions {
  /** Variables for every service. */
  serviceEnv?: Record<string, string>;
  /** Node options of the gateways and processors. */
  nodeArgs?: string[];
  /** Variables for the processors only (e.g. SMTP_URL). */
  processorEnv?: Record<string, string>;
  /** Instances of each (1 each by default); processor n has the Kafka client id `bench-processor-<n>`. */
  gateways?: number;
  processors?: number;
  /**
   * The alert workflow apart from intake (docs/operating.md): the processors run the intake role
   * alone, and one more processor the workflow role alone, at CPU niceness 10 (counted as `workflow`).
   */
  workflowApart?: boolean;
}

/** What the processors of a pipeline with the alert workflow apart run, and what its workflow processor runs. */
const INTAKE_ALONE = { PROCESSOR_ROLES: 'intake' };
const WORKFLOW_ALONE = { PROCESSOR_ROLES: 'workflow', PROCESSOR_NICENESS: '10', KAFKA_CLIENT_ID: 'bench-workflow' };

/** The Kafka client id of processor `index` (0-based) of a benchmark's pipeline: its consumer group members say whose partitions are whose. */
function benchProcessorClientId(index: number): string {
  return `bench-processor-${index}`;
}

/**
 * The services on `broker`, with a fresh database (PostgreSQL at DATABASE_URL or embedded) and
 * topic prefix of their own: integration-config, and the gateways and processors `options` asks
 * for. `stop` stops them and removes the database and topics; the broker stays.
 */
export async function startPipeline(broker: BenchBroker, options: PipelineOptions = {}): Promise<Stack> {
  const repoRoot = findRepoRoot(__dirname);
  const runId = randomBytes(4).toString('hex');
  const stops: Cleanup[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  };
  try {
    const { databaseUrl, embedded } = await benchDatabase(`alert_ingestion_bench_${runId}`, stops, log);
    await applyMigrations({ databaseUrl, migrationsDir: join(repoRoot, 'prisma', 'migrations') });

    const prefix = `bench.${runId}.`;
    // Quiet: a fresh broker answers "not the leader" while it elects leaders, and kafkajs retries.
    const kafka = new Kafka(createKafkaConfig({ KAFKA_BROKERS: broker.brokers, KAFKA_CLIENT_ID: 'bench' }, { overrides: { logLevel: logLevel.NOTHING } }));
    await ensureTopics(kafka, prefix);
    stops.push(async () => void (await deleteTopicsWithPrefix(kafka, prefix)));

    const adminToken = `bench-admin-${runId}`;
    const base = { DATABASE_URL: databaseUrl, KAFKA_BROKERS: broker.brokers, KAFKA_TOPIC_PREFIX: prefix, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' };
    const processorEnv = { ...options.processorEnv, ...(options.workflowApart ? INTAKE_ALONE : {}), KAFKA_CLIENT_ID: benchProcessorClientId(0) };
    const stack = await ServiceStack.startOn({ env: base }, { all: options.serviceEnv, processor: processorEnv, nodeArgs: options.nodeArgs });
    stops.push(() => stack.stop());
    const [gateways, processors, workflow] = await Promise.all([
      Promise.all(Array.from({ length: (options.gateways ?? 1) - 1 }, () => stack.startGateway())),
      Promise.all(Array.from({ length: (options.processors ?? 1) - 1 }, (_, n) => stack.startProcessor({ KAFKA_CLIENT_ID: benchProcessorClientId(n + 1) }))),
      options.workflowApart ? stack.startProcessor(WORKFLOW_ALONE).then((service) => [service]) : [],
    ]);
    const pids = {
      gateway: [stack.gateway, ...gateways].map((service) => service.process.pid),
      processor: [stack.processor, ...processors].map((service) => service.process.pid),
      workflow: workflow.map((service) => service.process.pid),
      integrationConfig: [stack.integrationConfig.process.pid],
    };
    return {
      client: stack,
      databaseUrl,
      describe: `a stack of its own (${broker.describe}; PostgreSQL ${embedded ? 'embedded' : 'at DATABASE_URL'})`,
      cpuSources: [
        processesCpu('gateway', pids.gateway),
        processesCpu('processor', pids.processor),
        ...(pids.workflow.length > 0 ? [processesCpu('workflow', pids.workflow)] : []),
        ...(broker.pid === undefined ? [] : [processCpu('kafka', broker.pid)]),
        postgresCpu,
      ],
      gatewayUrls: [stack.gateway, ...gateways].map((service) => service.url),
      processorUrls: [stack.processor, ...processors].map((service) => service.url),
      pids,
      kafka: { kafka, prefix },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * A broker (startBenchBroker) and one gateway and one processor on it (startPipeline, which says
 * what the options do). Stopping it stops the broker too.
 */
export async function startOwnStack(options: Pick<PipelineOptions, 'serviceEnv' | 'nodeArgs' | 'processorEnv' | 'workflowApart'> = {}): Promise<Stack> {
  const broker = await startBenchBroker();
  try {
    const stack = await startPipeline(broker, options);
    return {
      ...stack,
      stop: async () => {
        await stack.stop();
        await broker.stop();
      },
    };
  } catch (error) {
    await broker.stop();
    throw error;
  }
}

export async function createIntegration(stack: Stack, tier: 'free' | 'premium'): Promise<{ projectId: number; integrationId: number; url: string; key: string }> {
  const project = await stack.client.createProject(tier, { pathPrefix: 'bench', integrationName: 'Benchmark endpoint' });
  return { projectId: project.id, integrationId: project.integration.id, url: project.integration.url, key: project.integration.authorization_key };
}

/** An integration of a benchmark project: its project, the path of its URL (on any gateway) and its authorization key. */
export interface BenchIntegration {
  projectId: number;
  path: string;
  key: string;
}

/**
 * `count` Premium projects with one active HTTP integration each. A project of their own each: a
 * project's alerts are numbered by one counter row, which each processor transaction storing alerts
 * of the project holds until it commits, so the integrations of one project would serialise the
 * transactions of every partition they are on.
 */
export async function createIntegrations(stack: Stack, count: number): Promise<BenchIntegration[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const { projectId, url, key } = await createIntegration(stack, 'premium');
      return { projectId, path: new URL(url).pathname, key };
    }),
  );
}

/** Alerts stored for a project (or for each of several, summed): rows in the database when it is known, else the processor's count. */
export async function storedAlerts(stack: Stack, projectId: number | readonly number[]): Promise<number> {
  const projectIds = typeof projectId === 'number' ? [projectId] : [...projectId];
  if (stack.databaseUrl) {
    return withClient(stack.databaseUrl, async (client) => {
      const result = await client.query<{ count: string }>('SELECT count(*) AS count FROM alerts WHERE project_id = ANY($1::bigint[])', [projectIds]);
      return Number(result.rows[0].count);
    });
  }
  const counts = await Promise.all(projectIds.map((id) => stack.client.alertCount(id)));
  return counts.reduce((sum, count) => sum + count, 0);
}

/**
 * The processors' batches so far, from their /metrics (alert_processor_batch_messages), summed over
 * the instances: how many transactions stored how many raw alert messages. Their ratio over a round
 * is the batch size that per-batch costs (round trips, produce requests, commits) are shared by.
 */
export async function processorBatches(stack: Stack): Promise<{ batches: number; messages: number }> {
  const all = await Promise.all(stack.processorUrls.map((url) => scrapeMetrics(url)));
  return {
    batches: all.reduce((sum, metrics) => sum + metrics.value('alert_processor_batch_messages_count'), 0),
    messages: all.reduce((sum, metrics) => sum + metrics.value('alert_processor_batch_messages_sum'), 0),
  };
}
