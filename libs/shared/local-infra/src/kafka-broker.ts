import { waitForKafka } from '@alert-ingestion/kafka';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readTail, SupervisedProcess } from './supervised-process';
import { ensureKafkaJars } from './kafka-jars';

const execFileAsync = promisify(execFile);

export interface KafkaBrokerOptions {
  repoRoot: string;
  /** Holds server.properties, the log4j config, the KRaft log dirs and the broker's logs. */
  dataDir: string;
  /** PLAINTEXT listener for clients. */
  port: number;
  /** CONTROLLER listener (KRaft quorum). */
  controllerPort: number;
  /** JVM heap ceiling. Default 512 MB, ample for one local broker. */
  heapMb?: number;
  log?: (message: string) => void;
}

export interface RunningKafkaBroker {
  /** host:port list for KAFKA_BROKERS. */
  brokers: string;
  /** The broker's own log (server.log) for when something goes wrong. */
  logFile: string;
  process: SupervisedProcess;
  stop(): Promise<void>;
}

const NODE_ID = 1;

/** Single-node KRaft settings (shared/KAFKA-LOCAL.md). */
export function serverProperties(options: KafkaBrokerOptions): string {
  const dataDir = resolve(options.dataDir);
  const properties: Record<string, string> = {
    'process.roles': 'broker,controller',
    'node.id': String(NODE_ID),
    'controller.quorum.voters': `${NODE_ID}@127.0.0.1:${options.controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${options.port},CONTROLLER://127.0.0.1:${options.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${options.port}`,
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': join(dataDir, 'kraft-combined-logs'),
    'num.partitions': '1',
    'default.replication.factor': '1',
    'min.insync.replicas': '1',
    'offsets.topic.replication.factor': '1',
    // Few, so the first group join is quick (the default is 50).
    'offsets.topic.num.partitions': '3',
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'transaction.state.log.num.partitions': '3',
    'group.initial.rebalance.delay.ms': '0',
    'auto.create.topics.enable': 'false',
    'delete.topic.enable': 'true',
    'num.network.threads': '2',
    'num.io.threads': '4',
    'num.recovery.threads.per.data.dir': '1',
    // The log cleaner allocates its whole dedupe buffer on the heap at start-up (128 MB by default):
    // in a small heap that left too little for loading the logs, and a restart died of
    // OutOfMemoryError (exit code 3). The local compacted topics (integrations, positions) are tiny.
    'log.cleaner.dedupe.buffer.size': String(16 * 1024 * 1024),
  };
  return `${Object.entries(properties)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n')}\n`;
}

function log4jProperties(): string {
  return [
    'log4j.rootLogger=INFO, server',
    'log4j.appender.server=org.apache.log4j.RollingFileAppender',
    'log4j.appender.server.File=${kafka.logs.dir}/server.log',
    'log4j.appender.server.MaxFileSize=20MB',
    'log4j.appender.server.MaxBackupIndex=2',
    'log4j.appender.server.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.server.layout.ConversionPattern=[%d] %p %m (%c)%n',
    'log4j.logger.kafka.request.logger=WARN',
    'log4j.logger.state.change.logger=WARN',
    'log4j.logger.kafka.log.LogCleaner=WARN',
    'log4j.logger.org.apache.kafka.storage.internals.log=WARN',
    '',
  ].join('\n');
}

/** A KRaft cluster id: 16 random bytes, URL-safe base64 without padding (what `random-uuid` prints). */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

async function readClusterId(metaProperties: string): Promise<string> {
  const match = /^cluster\.id=(.+)$/m.exec(await readFile(metaProperties, 'utf8'));
  if (!match) throw new Error(`${metaProperties} names no cluster.id`);
  return match[1].trim();
}

/**
 * Starts a single-node Apache Kafka broker (KRaft) from the jars in .kafka/lib: writes its
 * configuration, formats the storage once (kafka.tools.StorageTool), runs `java kafka.Kafka` under
 * a SupervisedProcess and resolves when the cluster answers.
 */
export async function startKafkaBroker(options: KafkaBrokerOptions): Promise<RunningKafkaBroker> {
  const log = options.log ?? (() => undefined);
  const dataDir = resolve(options.dataDir);
  const logsDir = join(dataDir, 'logs');
  await mkdir(logsDir, { recursive: true });
  const { libDir } = await ensureKafkaJars(options.repoRoot, log);
  const classpath = `${libDir}/*`;

  const propertiesFile = join(dataDir, 'server.properties');
  const log4jFile = join(dataDir, 'log4j.properties');
  await writeFile(propertiesFile, serverProperties(options));
  await writeFile(log4jFile, log4jProperties());

  const metaProperties = join(dataDir, 'kraft-combined-logs', 'meta.properties');
  if (!existsSync(metaProperties)) {
    const clusterId = newClusterId();
    log(`Formatting Kafka storage in ${dataDir} (cluster id ${clusterId})`);
    await execFileAsync(
      'java',
      [`-Dlog4j.configuration=file:${log4jFile}`, `-Dkafka.logs.dir=${logsDir}`, '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', propertiesFile, '--ignore-formatted'],
      { maxBuffer: 4 * 1024 * 1024 },
    );
  }

  const heapMb = options.heapMb ?? 512;
  const serverLog = join(logsDir, 'server.log');
  const processLog = join(logsDir, 'process.log');
  const broker = SupervisedProcess.start({
    name: 'kafka',
    command: 'java',
    args: [
      `-Xms${Math.min(128, heapMb)}m`,
      `-Xmx${heapMb}m`,
      '-XX:+UseG1GC',
      // C1 only: the C2 compiler kept one of the two cores a quarter busy for the first minute of
      // every run (tests, benchmark, a fresh `npm start`); the slower compiled code costs less than that.
      '-XX:TieredStopAtLevel=1',
      '-XX:MaxGCPauseMillis=20',
      '-XX:InitiatingHeapOccupancyPercent=35',
      '-XX:+ExplicitGCInvokesConcurrent',
      '-XX:+ExitOnOutOfMemoryError',
      '-Djava.awt.headless=true',
      `-Dlog4j.configuration=file:${log4jFile}`,
      `-Dkafka.logs.dir=${logsDir}`,
      '-cp',
      classpath,
      'kafka.Kafka',
      propertiesFile,
    ],
    cwd: dataDir,
    logFile: processLog,
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 20_000,
  });
  const brokers = `127.0.0.1:${options.port}`;
  const stop = async () => {
    await broker.stop();
  };
  try {
    await waitForKafka(brokers, {
      timeoutMs: 90_000,
      giveUp: () => (broker.isRunning ? undefined : `the broker process exited (${broker.exitDescription})`),
      // Ours, not another broker already listening on the port (ours would then fail to bind and
      // exit, possibly after the other one answered).
      clusterId: await readClusterId(metaProperties),
    });
    if (!broker.isRunning) throw new Error(`the broker process exited (${broker.exitDescription})`);
  } catch (error) {
    await stop();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n--- ${serverLog} (tail) ---\n${await readTail(serverLog)}\n--- ${processLog} (tail) ---\n${await readTail(processLog)}`);
  }
  return { brokers, logFile: serverLog, process: broker, stop };
}
