// `npm start`: the whole stack on this machine with no configuration.
//   Kafka       a single-node broker from the Maven jars on 127.0.0.1:9092 (data in .data/kafka),
//               or with DEV_STACK_BROKERS=3 a cluster of three nodes on 9092, 9094 and 9096 (their
//               controllers on the next port each; data in .data/kafka-3), unless KAFKA_BROKERS
//               names a cluster;
//   PostgreSQL  DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/alert_ingestion), or an
//               embedded server on that port (data in .data/postgres) when nothing answers there;
//   then migrations, topics, and the services of services.ts with their output prefixed.
// Ctrl-C (SIGINT) or SIGTERM stops the services first, then Kafka and PostgreSQL, leaving nothing.
// DEV_STACK_PORTS=free puts Kafka and the services on free ports instead of 9092/9093 (and up),
// 8080-8082 and the gateway's reply port 8090 (the services are told each other's addresses);
// DEV_STACK_DATA_DIR moves .data/.
import { LOCAL_ADMIN_TOKEN } from '@alert-ingestion/config';
import { createKafkaConfig, ensureTopics, KafkaLogLine, KafkaLogSink, waitForKafka } from '@alert-ingestion/kafka';
import { Kafka } from 'kafkajs';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { applyMigrations, redactUrl } from '@alert-ingestion/database';
import {
  ensurePostgres,
  findFreePorts,
  findRepoRoot,
  healthStatus,
  isPortOpen,
  KafkaNodePorts,
  replicationOf,
  startKafkaBroker,
  startKafkaCluster,
  SupervisedProcess,
} from '@alert-ingestion/local-infra';
import { SERVICES, ServiceDefinition } from './services';
import { setTimeout as sleep } from 'node:timers/promises';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/alert_ingestion';
/** Node n (from 0) of the local Kafka listens on 9092 + 2n, its controller on the port after. */
const KAFKA_PORT = 9092;
const HEALTH_TIMEOUT_MS = 180_000;
const MAX_BROKERS = 5;

/** Where Kafka's nodes and the services listen. */
interface StackPorts {
  kafka: KafkaNodePorts[];
  services: Map<string, number>;
}

/** How many Kafka nodes the stack runs (DEV_STACK_BROKERS, default 1). */
function brokerCount(): number {
  const given = process.env['DEV_STACK_BROKERS'] || '1';
  const count = Number(given);
  if (!Number.isInteger(count) || count < 1 || count > MAX_BROKERS) throw new Error(`DEV_STACK_BROKERS=${given}: must be a whole number from 1 to ${MAX_BROKERS}`);
  return count;
}

async function stackPorts(brokers: number): Promise<StackPorts> {
  const choice = process.env['DEV_STACK_PORTS'] ?? 'default';
  if (choice === 'default') {
    const kafka = Array.from({ length: brokers }, (_, index) => ({ port: KAFKA_PORT + 2 * index, controllerPort: KAFKA_PORT + 2 * index + 1 }));
    return { kafka, services: new Map(SERVICES.map((service) => [service.name, service.port])) };
  }
  if (choice !== 'free') throw new Error(`DEV_STACK_PORTS=${choice}: must be default or free`);
  const free = await findFreePorts(2 * brokers + SERVICES.length);
  const kafka = Array.from({ length: brokers }, (_, index) => ({ port: free[2 * index], controllerPort: free[2 * index + 1] }));
  const services = free.slice(2 * brokers);
  return { kafka, services: new Map(SERVICES.map((service, index) => [service.name, services[index]])) };
}

const colours = process.stdout.isTTY ? ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m'] : [];
const reset = process.stdout.isTTY ? '\x1b[0m' : '';
const width = Math.max('stack'.length, ...SERVICES.map((service) => service.name.length));

function prefixed(name: string, index: number): (line: string) => void {
  const colour = colours.length > 0 ? colours[index % colours.length] : '';
  const label = `${colour}${name.padEnd(width)} |${reset} `;
  return (line) => process.stdout.write(`${label}${line}\n`);
}

const say = prefixed('stack', colours.length - 1);

/**
 * The stack's own kafkajs lines (topic creation), through the same rules as the services': routine
 * broker answers are debug, and debug lines are not shown.
 */
function kafkaLines(): KafkaLogSink {
  const write = (level: string) => (line: string | KafkaLogLine) =>
    say(typeof line === 'string' ? `${level} [Kafka] ${line}` : `${level} [Kafka] ${line.message} ${JSON.stringify(line.kafka)}`);
  return { error: write('ERROR'), warn: write('WARN'), log: write('LOG'), debug: () => undefined };
}

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

async function waitForHealthy(services: ServiceDefinition[], ports: StackPorts, started: number): Promise<void> {
  const pending = new Set(services.map((service) => service.name));
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (pending.size > 0 && Date.now() < deadline && !stack.stopping) {
    for (const service of services.filter((candidate) => pending.has(candidate.name))) {
      const port = ports.services.get(service.name)!;
      if ((await healthStatus(`http://127.0.0.1:${port}`)) === 200) {
        pending.delete(service.name);
        say(`${service.name} is healthy on http://127.0.0.1:${port} (${((Date.now() - started) / 1000).toFixed(1)} s after start)`);
      }
    }
    await sleep(250);
  }
  if (stack.stopping) return;
  if (pending.size > 0) say(`not healthy after ${HEALTH_TIMEOUT_MS / 1000} s: ${[...pending].join(', ')}`);
  else {
    say(`all services healthy in ${((Date.now() - started) / 1000).toFixed(1)} s; Ctrl-C stops everything`);
    // integration-config serves the web console at `/`.
    const host = services.find((service) => service.name === 'integration-config');
    const token = process.env['ADMIN_TOKEN'] ? 'the ADMIN_TOKEN you set' : LOCAL_ADMIN_TOKEN;
    if (host) say(`web console: http://127.0.0.1:${ports.services.get(host.name)}/ (sign in with the administrator token: ${token})`);
  }
}

async function provideKafka(repoRoot: string, dataDir: string, ports: StackPorts): Promise<string> {
  const given = process.env['KAFKA_BROKERS'];
  if (given) {
    say(`KAFKA_BROKERS=${given}: using that cluster`);
    await waitForKafka(given, { timeoutMs: 60_000 });
    return given;
  }
  for (const { port } of ports.kafka) {
    if (await isPortOpen('127.0.0.1', port)) {
      throw new Error(`Port ${port} is taken (another stack running?). Stop it, set KAFKA_BROKERS=127.0.0.1:${port} to use the broker there, or DEV_STACK_PORTS=free.`);
    }
  }
  const started = Date.now();
  const addresses = ports.kafka.map(({ port }) => `127.0.0.1:${port}`).join(', ');
  if (ports.kafka.length === 1) {
    const [node] = ports.kafka;
    const kafkaDir = join(dataDir, 'kafka');
    say(`starting Kafka on ${addresses} (data in ${kafkaDir})`);
    const broker = await startKafkaBroker({ repoRoot, dataDir: kafkaDir, port: node.port, controllerPort: node.controllerPort, log: say });
    stack.infrastructure.push({ name: 'Kafka', stop: broker.stop });
    say(`Kafka ready in ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${broker.logFile})`);
    return broker.brokers;
  }
  // A cluster keeps its own folder: its nodes share a cluster id the single broker's folder does not have.
  const kafkaDir = join(dataDir, `kafka-${ports.kafka.length}`);
  const { replicationFactor, minInsyncReplicas } = replicationOf(ports.kafka.length);
  say(`starting a Kafka cluster of ${ports.kafka.length} nodes on ${addresses} (data in ${kafkaDir}; replication factor ${replicationFactor}, min.insync.replicas ${minInsyncReplicas})`);
  const cluster = await startKafkaCluster({ repoRoot, dataDir: kafkaDir, nodes: ports.kafka, log: say });
  stack.infrastructure.push({ name: 'Kafka', stop: cluster.stop });
  say(`Kafka cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s (logs: ${cluster.nodes.map((node) => node.logFile).join(', ')})`);
  return cluster.brokers;
}

async function providePostgres(dataDir: string): Promise<string> {
  const databaseUrl = process.env['DATABASE_URL'] || DEFAULT_DATABASE_URL;
  const started = Date.now();
  const server = await ensurePostgres({ databaseUrl, embeddedDir: join(dataDir, 'postgres'), log: say });
  if (server.embedded) {
    stack.infrastructure.push({ name: 'PostgreSQL', stop: server.stop });
    say(`embedded PostgreSQL ready in ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${server.embedded.logFile})`);
  } else {
    say(`using PostgreSQL at ${redactUrl(databaseUrl)}`);
  }
  return databaseUrl;
}

function startService(service: ServiceDefinition, index: number, repoRoot: string, env: NodeJS.ProcessEnv, port: number): SupervisedProcess {
  const child = SupervisedProcess.start({
    name: service.name,
    command: process.execPath,
    args: ['--enable-source-maps', join(repoRoot, service.main)],
    cwd: repoRoot,
    env: { ...env, PORT: String(port) },
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

  const dataDir = resolve(repoRoot, process.env['DEV_STACK_DATA_DIR'] || '.data');
  const ports = await stackPorts(brokerCount());
  const [brokers, databaseUrl] = await Promise.all([provideKafka(repoRoot, dataDir, ports), providePostgres(dataDir)]);
  if (stack.stopping) return;

  const migrations = await applyMigrations({ databaseUrl, migrationsDir: join(repoRoot, 'prisma', 'migrations'), log: say });
  say(`migrations: ${migrations.applied.length} applied, ${migrations.alreadyApplied.length} already applied`);
  const prefix = process.env['KAFKA_TOPIC_PREFIX'] ?? '';
  const kafka = new Kafka(createKafkaConfig({ KAFKA_BROKERS: brokers, KAFKA_CLIENT_ID: 'dev-stack', LOG_LEVEL: 'warn' }, { logSink: kafkaLines() }));
  const topics = await ensureTopics(kafka, prefix);
  say(`topics: ${topics.created.length} created, ${topics.expanded.length} expanded`);
  if (stack.stopping) return;

  const available = SERVICES.filter((service) => existsSync(join(repoRoot, service.main)));
  for (const missing of SERVICES.filter((service) => !available.includes(service))) {
    say(`${missing.name}: ${missing.main} does not exist (not built yet?); not started`);
  }
  const address = (name: string) => `http://127.0.0.1:${ports.services.get(name)}`;
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'development',
    // How the services reach each other, and where integration-config keeps its local key.
    GATEWAY_PUBLIC_URL: address('gateway'),
    ALERT_PROCESSOR_URL: address('alert-processor'),
    // The gateway's reply listener: raw alerts carry its address, so any free port does.
    ...(process.env['DEV_STACK_PORTS'] === 'free' ? { GATEWAY_REPLY_PORT: '0' } : {}),
    // Alert emails link to the alert in the console (email is sent once SMTP_URL is set).
    CONSOLE_URL: address('integration-config'),
    ...(process.env['DEV_STACK_DATA_DIR'] ? { INTEGRATION_KEY_ENCRYPTION_KEY_FILE: join(dataDir, 'integration-key-encryption.key') } : {}),
    ...process.env,
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC_PREFIX: prefix,
  };
  available.forEach((service) => {
    const index = SERVICES.indexOf(service);
    stack.services.push(startService(service, index, repoRoot, env, ports.services.get(service.name)!));
  });
  await waitForHealthy(available, ports, started);
}

main().catch((error: unknown) => {
  say(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown('start-up failed', 1);
});
