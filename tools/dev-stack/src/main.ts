// `npm start`: the whole stack on this machine with no configuration.
//   Kafka       a single-node broker from the Maven jars on 127.0.0.1:9092 (data in .data/kafka),
//               unless KAFKA_BROKERS names a cluster;
//   PostgreSQL  DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/alert_ingestion), or an
//               embedded server on that port (data in .data/postgres) when nothing answers there;
//   then migrations, topics, and the services of services.ts with their output prefixed.
// Ctrl-C (SIGINT) or SIGTERM stops the services first, then Kafka and PostgreSQL, leaving nothing.
import { LOCAL_ADMIN_TOKEN } from '@alert-ingestion/config';
import { createKafkaConfig, ensureTopics, waitForKafka } from '@alert-ingestion/kafka';
import { Kafka } from 'kafkajs';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { applyMigrations, redactUrl } from '@alert-ingestion/database';
import { ensurePostgres, findRepoRoot, isPortOpen, startKafkaBroker, SupervisedProcess } from '@alert-ingestion/local-infra';
import { SERVICES, ServiceDefinition } from './services';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/alert_ingestion';
const KAFKA_PORT = 9092;
const KAFKA_CONTROLLER_PORT = 9093;
const HEALTH_TIMEOUT_MS = 180_000;

const colours = process.stdout.isTTY ? ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m'] : [];
const reset = process.stdout.isTTY ? '\x1b[0m' : '';
const width = Math.max('stack'.length, ...SERVICES.map((service) => service.name.length));

function prefixed(name: string, index: number): (line: string) => void {
  const colour = colours.length > 0 ? colours[index % colours.length] : '';
  const label = `${colour}${name.padEnd(width)} |${reset} `;
  return (line) => process.stdout.write(`${label}${line}\n`);
}

const say = prefixed('stack', colours.length - 1);

interface Stack {
  services: SupervisedProcess[];
  infrastructure: { name: string; stop: () => Promise<void> }[];
  stopping: boolean;
}

const stack: Stack = { services: [], infrastructure: [], stopping: false };

async function shutdown(reason: string, exitCode: number): Promise<never> {
  if (stack.stopping) return new Promise<never>(() => undefined);
  stack.stopping = true;
  say(`${reason}: stopping services, then Kafka and PostgreSQL`);
  await Promise.all(stack.services.map((service) => service.stop()));
  await Promise.all(
    stack.infrastructure.map(async (part) => {
      try {
        await part.stop();
      } catch (error) {
        say(`stopping ${part.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  say('stopped');
  process.exit(exitCode);
}

function healthStatus(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', timeout: 2_000, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

async function waitForHealthy(services: ServiceDefinition[], started: number): Promise<void> {
  const pending = new Set(services.map((service) => service.name));
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (pending.size > 0 && Date.now() < deadline && !stack.stopping) {
    for (const service of services.filter((candidate) => pending.has(candidate.name))) {
      if ((await healthStatus(service.port)) === 200) {
        pending.delete(service.name);
        say(`${service.name} is healthy on http://127.0.0.1:${service.port} (${((Date.now() - started) / 1000).toFixed(1)} s after start)`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (stack.stopping) return;
  if (pending.size > 0) say(`not healthy after ${HEALTH_TIMEOUT_MS / 1000} s: ${[...pending].join(', ')}`);
  else {
    say(`all services healthy in ${((Date.now() - started) / 1000).toFixed(1)} s; Ctrl-C stops everything`);
    // integration-config serves the web console at `/`.
    const host = services.find((service) => service.name === 'integration-config');
    const token = process.env['ADMIN_TOKEN'] ? 'the ADMIN_TOKEN you set' : LOCAL_ADMIN_TOKEN;
    if (host) say(`web console: http://127.0.0.1:${host.port}/ (sign in with the administrator token: ${token})`);
  }
}

async function provideKafka(repoRoot: string): Promise<string> {
  const given = process.env['KAFKA_BROKERS'];
  if (given) {
    say(`KAFKA_BROKERS=${given}: using that cluster`);
    await waitForKafka(given, { timeoutMs: 60_000 });
    return given;
  }
  if (await isPortOpen('127.0.0.1', KAFKA_PORT)) {
    throw new Error(
      `Port ${KAFKA_PORT} is taken (another stack running?). Stop it, or set KAFKA_BROKERS=127.0.0.1:${KAFKA_PORT} to use the broker there.`,
    );
  }
  const started = Date.now();
  say(`starting Kafka on 127.0.0.1:${KAFKA_PORT} (data in .data/kafka)`);
  const broker = await startKafkaBroker({
    repoRoot,
    dataDir: join(repoRoot, '.data', 'kafka'),
    port: KAFKA_PORT,
    controllerPort: KAFKA_CONTROLLER_PORT,
    log: say,
  });
  stack.infrastructure.push({ name: 'Kafka', stop: broker.stop });
  say(`Kafka ready in ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${broker.logFile})`);
  return broker.brokers;
}

async function providePostgres(repoRoot: string): Promise<string> {
  const databaseUrl = process.env['DATABASE_URL'] || DEFAULT_DATABASE_URL;
  const started = Date.now();
  const server = await ensurePostgres({ databaseUrl, embeddedDir: join(repoRoot, '.data', 'postgres'), log: say });
  if (server.embedded) {
    stack.infrastructure.push({ name: 'PostgreSQL', stop: server.stop });
    say(`embedded PostgreSQL ready in ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${server.embedded.logFile})`);
  } else {
    say(`using PostgreSQL at ${redactUrl(databaseUrl)}`);
  }
  return databaseUrl;
}

function startService(service: ServiceDefinition, index: number, repoRoot: string, env: NodeJS.ProcessEnv): SupervisedProcess {
  const child = SupervisedProcess.start({
    name: service.name,
    command: process.execPath,
    args: ['--enable-source-maps', join(repoRoot, service.main)],
    cwd: repoRoot,
    env: { ...env, PORT: String(service.port) },
    onLine: prefixed(service.name, index),
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 20_000,
  });
  void child.exited.then((exit) => {
    if (!stack.stopping) void shutdown(`${service.name} exited (code ${exit.code}, signal ${exit.signal})`, 1);
  });
  return child;
}

async function main(): Promise<void> {
  const started = Date.now();
  const repoRoot = findRepoRoot(__dirname);
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));

  const [brokers, databaseUrl] = await Promise.all([provideKafka(repoRoot), providePostgres(repoRoot)]);
  if (stack.stopping) return;

  const migrations = await applyMigrations({ databaseUrl, migrationsDir: join(repoRoot, 'prisma', 'migrations'), log: say });
  say(`migrations: ${migrations.applied.length} applied, ${migrations.alreadyApplied.length} already applied`);
  const prefix = process.env['KAFKA_TOPIC_PREFIX'] ?? '';
  const kafka = new Kafka(createKafkaConfig({ KAFKA_BROKERS: brokers, KAFKA_CLIENT_ID: 'dev-stack', LOG_LEVEL: 'warn' }));
  const topics = await ensureTopics(kafka, prefix);
  say(`topics: ${topics.created.length} created, ${topics.expanded.length} expanded`);
  if (stack.stopping) return;

  const available = SERVICES.filter((service) => existsSync(join(repoRoot, service.main)));
  for (const missing of SERVICES.filter((service) => !available.includes(service))) {
    say(`${missing.name}: ${missing.main} does not exist (not built yet?); not started`);
  }
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'development',
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC_PREFIX: prefix,
  };
  available.forEach((service) => {
    const index = SERVICES.indexOf(service);
    stack.services.push(startService(service, index, repoRoot, env));
  });
  await waitForHealthy(available, started);
}

main().catch((error: unknown) => {
  say(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown('start-up failed', 1);
});
