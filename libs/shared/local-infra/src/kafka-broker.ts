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

/** The two listeners of one node of a cluster. */
export interface KafkaNodePorts {
  /** PLAINTEXT listener for clients (and replication between brokers). */
  port: number;
  /** CONTROLLER listener (KRaft quorum). */
  controllerPort: number;
}

export interface KafkaClusterOptions {
  repoRoot: string;
  /** Each node keeps its own folder in here (`node-<id>`: configuration, KRaft log dirs, logs). */
  dataDir: string;
  /** One entry per node; node ids are 1, 2, 3... in this order. */
  nodes: readonly KafkaNodePorts[];
  /** JVM heap ceiling of each node. Default 512 MB. */
  heapMb?: number;
  log?: (message: string) => void;
}

/** One node (broker and controller) of a running cluster, which a drill may kill and start again. */
export interface KafkaClusterNode {
  nodeId: number;
  /** This node's client address (host:port). */
  brokers: string;
  dataDir: string;
  /** The node's own log (server.log). */
  logFile: string;
  /** The node's current process (a new one after start()). */
  readonly process: SupervisedProcess;
  /** True while the node's process runs. */
  readonly isRunning: boolean;
  /** Sends the process a signal without waiting (SIGKILL: a crash). */
  kill(signal: NodeJS.Signals): void;
  /** Starts the node again on its data (after a stop or a kill); resolves once the cluster counts it again. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface RunningKafkaCluster {
  /** Every node's client address, for KAFKA_BROKERS. */
  brokers: string;
  clusterId: string;
  nodes: readonly KafkaClusterNode[];
  /** Stops every node that still runs. */
  stop(): Promise<void>;
}

/** One node as it is configured: its id, listeners and folder, and every voter of the quorum. */
export interface KafkaNodeLayout extends KafkaNodePorts {
  nodeId: number;
  dataDir: string;
  /** The whole cluster, this node included, in node id order (ids 1..n). */
  cluster: readonly KafkaNodePorts[];
}

/**
 * Replication follows the size of the cluster: every topic (ours, whose replication factor is the
 * broker's default, and Kafka's own offsets and transaction-state topics) gets up to three
 * replicas, and a write needs all but one of them (one node may be lost without losing an
 * acknowledged record or refusing writes). One node: 1 and 1; three nodes: 3 and 2.
 */
export function replicationOf(nodes: number): { replicationFactor: number; minInsyncReplicas: number } {
  const replicationFactor = Math.min(3, nodes);
  return { replicationFactor, minInsyncReplicas: Math.max(1, replicationFactor - 1) };
}

/** KRaft settings of one node, every node a broker and a controller (shared/KAFKA-LOCAL.md). */
export function serverProperties(node: KafkaNodeLayout): string {
  const dataDir = resolve(node.dataDir);
  const { replicationFactor, minInsyncReplicas } = replicationOf(node.cluster.length);
  const voters = node.cluster.map((peer, index) => `${index + 1}@127.0.0.1:${peer.controllerPort}`).join(',');
  const properties: Record<string, string> = {
    'process.roles': 'broker,controller',
    'node.id': String(node.nodeId),
    'controller.quorum.voters': voters,
    listeners: `PLAINTEXT://127.0.0.1:${node.port},CONTROLLER://127.0.0.1:${node.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${node.port}`,
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': join(dataDir, 'kraft-combined-logs'),
    'num.partitions': '1',
    'default.replication.factor': String(replicationFactor),
    'min.insync.replicas': String(minInsyncReplicas),
    'offsets.topic.replication.factor': String(replicationFactor),
    // Few, so the first group join is quick (the default is 50).
    'offsets.topic.num.partitions': '3',
    'transaction.state.log.replication.factor': String(replicationFactor),
    'transaction.state.log.min.isr': String(minInsyncReplicas),
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
    ...(node.cluster.length > 1
      ? {
          // A node that stopped answering is fenced (its partitions led elsewhere) after 4 s
          // instead of 9: the clients' retries (about 10 s, DEFAULT_KAFKA_RETRY) outlast a failover.
          'broker.session.timeout.ms': '4000',
          'broker.heartbeat.interval.ms': '1000',
          'replica.lag.time.max.ms': '10000',
        }
      : {}),
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

const metaPropertiesOf = (dataDir: string) => join(resolve(dataDir), 'kraft-combined-logs', 'meta.properties');

/**
 * The cluster id the nodes' folders were formatted with, or a new one when none was: every node of
 * a cluster must carry the same id, and a folder of another cluster is refused.
 */
async function clusterIdOf(dataDirs: readonly string[]): Promise<string> {
  const formatted = await Promise.all(dataDirs.filter((dir) => existsSync(metaPropertiesOf(dir))).map((dir) => readClusterId(metaPropertiesOf(dir))));
  const ids = [...new Set(formatted)];
  if (ids.length > 1) throw new Error(`The Kafka data folders ${dataDirs.join(', ')} belong to different clusters (${ids.join(', ')})`);
  return ids[0] ?? newClusterId();
}

/** What one node runs from: its layout, the cluster's id, the jars, its heap. */
interface NodeLaunch {
  layout: KafkaNodeLayout;
  clusterId: string;
  classpath: string;
  heapMb: number;
  name: string;
  log: (message: string) => void;
}

interface LaunchedNode {
  process: SupervisedProcess;
  serverLog: string;
  processLog: string;
}

/** Writes a node's configuration, formats its storage once (kafka.tools.StorageTool) and runs `java kafka.Kafka`. */
async function launchNode(launch: NodeLaunch): Promise<LaunchedNode> {
  const dataDir = resolve(launch.layout.dataDir);
  const logsDir = join(dataDir, 'logs');
  await mkdir(logsDir, { recursive: true });
  const propertiesFile = join(dataDir, 'server.properties');
  const log4jFile = join(dataDir, 'log4j.properties');
  await writeFile(propertiesFile, serverProperties(launch.layout));
  await writeFile(log4jFile, log4jProperties());

  if (!existsSync(metaPropertiesOf(dataDir))) {
    launch.log(`Formatting Kafka storage in ${dataDir} (cluster id ${launch.clusterId})`);
    await execFileAsync(
      'java',
      [`-Dlog4j.configuration=file:${log4jFile}`, `-Dkafka.logs.dir=${logsDir}`, '-cp', launch.classpath, 'kafka.tools.StorageTool', 'format', '-t', launch.clusterId, '-c', propertiesFile, '--ignore-formatted'],
      { maxBuffer: 4 * 1024 * 1024 },
    );
  }

  const heapMb = launch.heapMb;
  const processLog = join(logsDir, 'process.log');
  const child = SupervisedProcess.start({
    name: launch.name,
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
      launch.classpath,
      'kafka.Kafka',
      propertiesFile,
    ],
    cwd: dataDir,
    logFile: processLog,
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 20_000,
  });
  return { process: child, serverLog: join(logsDir, 'server.log'), processLog };
}

/** Why a node is not running, for waitForKafka's giveUp. */
const exitedReason = (node: LaunchedNode, name: string) => (node.process.isRunning ? undefined : `${name} exited (${node.process.exitDescription})`);

async function withLogTails(error: unknown, nodes: readonly LaunchedNode[]): Promise<Error> {
  const message = error instanceof Error ? error.message : String(error);
  const tails = await Promise.all(
    nodes.map(async (node) => `--- ${node.serverLog} (tail) ---\n${await readTail(node.serverLog)}\n--- ${node.processLog} (tail) ---\n${await readTail(node.processLog)}`),
  );
  return new Error([message, ...tails].join('\n'));
}

/**
 * Starts a KRaft cluster from the jars in .kafka/lib: every node a broker and a controller, each
 * with its own listeners and folder, formatted once with one cluster id, run as SupervisedProcesses.
 * Resolves when every node answers as a member of this cluster (another cluster on a port fails
 * the start) and the cluster counts all its brokers. Replication follows the number of nodes
 * (replicationOf).
 */
export async function startKafkaCluster(options: KafkaClusterOptions): Promise<RunningKafkaCluster> {
  if (options.nodes.length === 0) throw new Error('A Kafka cluster needs at least one node');
  const layouts = options.nodes.map((ports, index) => ({ ...ports, nodeId: index + 1, dataDir: join(resolve(options.dataDir), `node-${index + 1}`), cluster: options.nodes }));
  return launchCluster(options, layouts, (nodeId) => `kafka-${nodeId}`);
}

async function launchCluster(
  options: Pick<KafkaClusterOptions, 'repoRoot' | 'heapMb' | 'log'>,
  layouts: readonly KafkaNodeLayout[],
  nameOf: (nodeId: number) => string,
): Promise<RunningKafkaCluster> {
  const log = options.log ?? (() => undefined);
  const { libDir } = await ensureKafkaJars(options.repoRoot, log);
  const clusterId = await clusterIdOf(layouts.map((layout) => layout.dataDir));
  const brokers = layouts.map((layout) => `127.0.0.1:${layout.port}`).join(',');
  const launchOf = (layout: KafkaNodeLayout): NodeLaunch => ({ layout, clusterId, classpath: `${libDir}/*`, heapMb: options.heapMb ?? 512, name: nameOf(layout.nodeId), log });

  /** Resolves once the node answers as a member of this cluster and the cluster counts every broker. */
  const ready = async (layout: KafkaNodeLayout, launched: LaunchedNode) => {
    const giveUp = () => exitedReason(launched, nameOf(layout.nodeId));
    await waitForKafka(`127.0.0.1:${layout.port}`, { timeoutMs: 90_000, giveUp, clusterId });
    await waitForKafka(brokers, { timeoutMs: 60_000, giveUp, clusterId, brokerCount: layouts.length });
    const reason = giveUp();
    if (reason !== undefined) throw new Error(reason);
  };

  const launched: LaunchedNode[] = [];
  const stopAll = () => Promise.all(launched.map((node) => node.process.stop())).then(() => undefined);
  try {
    // Formatting and starting one node after the other would cost a JVM start each; they start together.
    launched.push(...(await Promise.all(layouts.map((layout) => launchNode(launchOf(layout))))));
    await Promise.all(layouts.map((layout, index) => ready(layout, launched[index])));
  } catch (error) {
    await stopAll();
    throw await withLogTails(error, launched);
  }

  const nodes = layouts.map((layout, index): KafkaClusterNode => {
    let current = launched[index];
    return {
      nodeId: layout.nodeId,
      brokers: `127.0.0.1:${layout.port}`,
      dataDir: layout.dataDir,
      logFile: current.serverLog,
      get process() {
        return current.process;
      },
      get isRunning() {
        return current.process.isRunning;
      },
      kill: (signal) => current.process.kill(signal),
      start: async () => {
        if (current.process.isRunning) return;
        current = await launchNode(launchOf(layout));
        launched[index] = current;
        try {
          await ready(layout, current);
        } catch (error) {
          await current.process.stop();
          throw await withLogTails(error, [current]);
        }
      },
      stop: async () => void (await current.process.stop()),
    };
  });
  return { brokers, clusterId, nodes, stop: stopAll };
}

/**
 * Starts a single-node Apache Kafka broker (KRaft) from the jars in .kafka/lib, its folder being
 * `dataDir` itself: a cluster of one (startKafkaCluster's nodes and settings).
 */
export async function startKafkaBroker(options: KafkaBrokerOptions): Promise<RunningKafkaBroker> {
  const layout: KafkaNodeLayout = { nodeId: 1, port: options.port, controllerPort: options.controllerPort, dataDir: options.dataDir, cluster: [options] };
  const cluster = await launchCluster(options, [layout], () => 'kafka');
  const [node] = cluster.nodes;
  return { brokers: cluster.brokers, logFile: node.logFile, process: node.process, stop: cluster.stop };
}
