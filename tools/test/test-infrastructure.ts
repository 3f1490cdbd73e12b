import { parseBrokers, waitForKafka } from '@alert-ingestion/kafka';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import {
  createDatabaseIfMissing,
  probePostgres,
  quoteIdentifier,
  redactUrl,
  withClient,
  withDatabaseName,
} from '../../libs/shared/database/src/database-url';
import { applyMigrations } from '../../libs/shared/database/src/migrations/migration-runner';
import { startEmbeddedPostgres } from '../../libs/shared/local-infra/src/embedded-postgres';
import { findFreePorts } from '../../libs/shared/local-infra/src/free-port';
import { startKafkaBroker } from '../../libs/shared/local-infra/src/kafka-broker';
import { findRepoRoot } from '../../libs/shared/local-infra/src/repo-root';
import { testDatabasePrefix, testRunDir, testTopicPrefix, TEST_ENV } from '../../libs/shared/testing/src/test-environment';
import { deleteTopicsWithPrefix } from '../../libs/shared/testing/src/test-kafka';

/** Where a dependency of the test run came from (printed, and decides what teardown cleans). */
type Source = 'given' | 'testcontainers' | 'local' | 'embedded' | 'jars';

interface StartedInfrastructure {
  runId: string;
  adminUrl: string;
  template: string;
  brokers: string;
  postgresSource: Source;
  kafkaSource: Source;
  workDir: string;
  /** Stops what this run started, last started first. */
  stops: (() => Promise<void>)[];
}

const STATE_KEY = Symbol.for('alert-ingestion.test-infrastructure');
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;
const LOCAL_POSTGRES = 'postgresql://postgres@127.0.0.1:5432/postgres';

interface GlobalWithState {
  [STATE_KEY]?: StartedInfrastructure;
}

function log(message: string): void {
  process.stderr.write(`[test infrastructure] ${message}\n`);
}

/** Seconds since the epoch in base 36 (6 characters until 2059) plus 4 random hex digits. */
function newRunId(): string {
  return `${Math.floor(Date.now() / 1000).toString(36).padStart(6, '0')}${randomBytes(2).toString('hex')}`;
}

function runIdStartedAt(runId: string): number | undefined {
  const match = /^([0-9a-z]{6})[0-9a-f]{4}$/.exec(runId);
  return match ? Number.parseInt(match[1], 36) * 1000 : undefined;
}

/**
 * TEST_INFRA picks the source of what is not given: `testcontainers` (Docker), `local` (PostgreSQL
 * on 127.0.0.1:5432 or embedded, Kafka from the jars) or `embedded` (like local, but always an
 * embedded PostgreSQL). Unset: testcontainers when a Docker engine answers, local otherwise.
 */
async function dockerAvailable(): Promise<boolean> {
  const choice = process.env['TEST_INFRA'];
  if (choice === 'local' || choice === 'embedded') return false;
  if (choice === 'testcontainers') return true;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/** Drops a database this tooling created, template or not. */
async function dropTestDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await client.query(`ALTER DATABASE ${quoteIdentifier(name)} WITH IS_TEMPLATE false ALLOW_CONNECTIONS true`).catch(() => undefined);
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
  });
}

async function databasesWithPrefix(adminUrl: string, prefix: string): Promise<string[]> {
  return withClient(adminUrl, async (client) => {
    const result = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [prefix]);
    return result.rows.map((row) => row.datname);
  });
}

/** Runs killed before their teardown (Ctrl-C) leave databases behind on a shared server. */
async function dropStaleTestDatabases(adminUrl: string): Promise<void> {
  const names = await databasesWithPrefix(adminUrl, 'alert_ingestion_test_');
  for (const name of names) {
    const runId = /^alert_ingestion_test_([0-9a-z]+)_/.exec(name)?.[1];
    const startedAt = runId ? runIdStartedAt(runId) : undefined;
    if (startedAt !== undefined && Date.now() - startedAt > STALE_AFTER_MS) await dropTestDatabase(adminUrl, name);
  }
}

async function providePostgres(state: StartedInfrastructure, useDocker: boolean): Promise<void> {
  const given = process.env['DATABASE_URL'];
  if (given) {
    await createDatabaseIfMissing(given);
    state.adminUrl = given;
    state.postgresSource = 'given';
    return;
  }
  if (useDocker) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:15-alpine').start();
    state.stops.push(async () => void (await container.stop()));
    state.adminUrl = container.getConnectionUri();
    state.postgresSource = 'testcontainers';
    return;
  }
  // TEST_INFRA=embedded: what a machine without PostgreSQL gets, even when 5432 answers here.
  if (process.env['TEST_INFRA'] !== 'embedded' && (await probePostgres(LOCAL_POSTGRES)).reachable) {
    state.adminUrl = LOCAL_POSTGRES;
    state.postgresSource = 'local';
    return;
  }
  const [port] = await findFreePorts(1);
  const server = await startEmbeddedPostgres({ baseDir: join(state.workDir, 'postgres'), port, ephemeral: true });
  state.stops.push(server.stop);
  state.adminUrl = server.adminUrl;
  state.postgresSource = 'embedded';
}

async function provideKafka(state: StartedInfrastructure, useDocker: boolean): Promise<void> {
  const given = process.env['KAFKA_BROKERS'];
  if (given) {
    await waitForKafka(given, { timeoutMs: 30_000 });
    state.brokers = given;
    state.kafkaSource = 'given';
    return;
  }
  if (useDocker) {
    const { KafkaContainer } = await import('@testcontainers/kafka');
    const container = await new KafkaContainer('confluentinc/cp-kafka:7.9.0')
      .withKraft()
      .withEnvironment({ KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false' })
      .start();
    state.stops.push(async () => void (await container.stop()));
    state.brokers = `${container.getHost()}:${container.getMappedPort(9093)}`;
    state.kafkaSource = 'testcontainers';
    return;
  }
  const [port, controllerPort] = await findFreePorts(2);
  const broker = await startKafkaBroker({
    repoRoot: findRepoRoot(__dirname),
    dataDir: join(state.workDir, 'kafka'),
    port,
    controllerPort,
    heapMb: 512,
    log,
  });
  state.stops.push(broker.stop);
  state.brokers = broker.brokers;
  state.kafkaSource = 'jars';
}

/** Migrates this run's template once; every createTestDatabase() clones it. */
async function prepareTemplate(state: StartedInfrastructure, repoRoot: string): Promise<void> {
  const template = `${testDatabasePrefix(state.runId)}template`;
  await withClient(state.adminUrl, async (client) => {
    await client.query(`CREATE DATABASE ${quoteIdentifier(template)}`);
  });
  await applyMigrations({ databaseUrl: withDatabaseName(state.adminUrl, template), migrationsDir: join(repoRoot, 'prisma', 'migrations') });
  // Cloning needs a template nobody is connected to; forbid connections so none ever is.
  await withClient(state.adminUrl, async (client) => {
    await client.query(`ALTER DATABASE ${quoteIdentifier(template)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  });
  state.template = template;
}

function generatePrismaClient(repoRoot: string): void {
  const result = spawnSync(process.execPath, [join(repoRoot, 'tools', 'build', 'prisma-generate.js')], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('prisma generate failed (tools/build/prisma-generate.js)');
}

async function stopAll(state: StartedInfrastructure): Promise<void> {
  const failures: string[] = [];
  for (const stop of [...state.stops].reverse()) {
    try {
      await stop();
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  state.stops = [];
  await rm(state.workDir, { recursive: true, force: true });
  if (failures.length > 0) throw new Error(`Stopping the test infrastructure failed: ${failures.join('; ')}`);
}

/**
 * Brings up PostgreSQL and Kafka for an integration test run (unless DATABASE_URL / KAFKA_BROKERS
 * name them), migrates a template database and exports the TEST_ENV variables for the workers.
 */
export async function startTestInfrastructure(): Promise<void> {
  const started = Date.now();
  const repoRoot = findRepoRoot(__dirname);
  generatePrismaClient(repoRoot);
  const runId = newRunId();
  const workDir = testRunDir(runId);
  await mkdir(workDir, { recursive: true });
  // The embedded PostgreSQL runs as the unprivileged postgres user when we are root.
  await chmod(workDir, 0o755);
  const state: StartedInfrastructure = {
    runId,
    adminUrl: '',
    template: '',
    brokers: '',
    postgresSource: 'local',
    kafkaSource: 'jars',
    workDir,
    stops: [],
  };
  (globalThis as GlobalWithState)[STATE_KEY] = state;
  try {
    const needsDocker = !process.env['DATABASE_URL'] || !process.env['KAFKA_BROKERS'];
    const useDocker = needsDocker && (await dockerAvailable());
    await Promise.all([providePostgres(state, useDocker), provideKafka(state, useDocker)]);
    if (state.postgresSource === 'given' || state.postgresSource === 'local') await dropStaleTestDatabases(state.adminUrl);
    await prepareTemplate(state, repoRoot);
  } catch (error) {
    await stopAll(state).catch(() => undefined);
    throw error;
  }

  process.env[TEST_ENV.runId] = runId;
  process.env[TEST_ENV.databaseAdminUrl] = state.adminUrl;
  process.env[TEST_ENV.databaseTemplate] = state.template;
  process.env[TEST_ENV.kafkaBrokers] = state.brokers;
  // Specs get their database and topic prefix from the helpers, never from the outer environment.
  delete process.env['DATABASE_URL'];
  delete process.env['KAFKA_TOPIC_PREFIX'];
  log(
    `run ${runId}: PostgreSQL ${state.postgresSource} (${redactUrl(state.adminUrl)}, template ${state.template}), ` +
      `Kafka ${state.kafkaSource} (${state.brokers}); ready in ${Date.now() - started} ms`,
  );
}

/** Drops the run's databases and topics and stops what startTestInfrastructure started. */
export async function stopTestInfrastructure(): Promise<void> {
  const state = (globalThis as GlobalWithState)[STATE_KEY];
  if (!state) return;
  delete (globalThis as GlobalWithState)[STATE_KEY];
  const started = Date.now();
  const failures: string[] = [];
  if (state.postgresSource === 'given' || state.postgresSource === 'local') {
    try {
      for (const name of await databasesWithPrefix(state.adminUrl, testDatabasePrefix(state.runId))) {
        await dropTestDatabase(state.adminUrl, name);
      }
    } catch (error) {
      failures.push(`dropping test databases: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (state.kafkaSource === 'given') {
    try {
      const kafka = new Kafka({ clientId: `test-teardown-${state.runId}`, brokers: parseBrokers(state.brokers), logLevel: logLevel.NOTHING });
      await deleteTopicsWithPrefix(kafka, testTopicPrefix(state.runId));
    } catch (error) {
      failures.push(`deleting test topics: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    await stopAll(state);
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  }
  log(`run ${state.runId}: cleaned up in ${Date.now() - started} ms`);
  if (failures.length > 0) throw new Error(failures.join('; '));
}
