import { TOPIC_SPECS } from '@alert-ingestion/contracts';
import { ensureTopics, waitForKafka } from '@alert-ingestion/kafka';
import { Kafka, logLevel } from 'kafkajs';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive, requireTestEnv, TEST_ENV } from '@alert-ingestion/testing';
import { findFreePorts, findRepoRoot, isPortOpen, RunningKafkaBroker, startKafkaBroker } from '../src';

// A second broker next to the run's own one: small heap, own ports, own data folder.
describe('startKafkaBroker (a real broker from the Maven jars)', () => {
  let dataDir: string;
  let ports: number[];
  let broker: RunningKafkaBroker | undefined;

  const start = () =>
    startKafkaBroker({ repoRoot: findRepoRoot(__dirname), dataDir, port: ports[0], controllerPort: ports[1], heapMb: 256 });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kafka-broker-spec-'));
    ports = await findFreePorts(2);
  });

  afterAll(async () => {
    await broker?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts a single-node KRaft broker that answers admin requests, with the local settings', async () => {
    broker = await start();

    expect(broker.brokers).toBe(`127.0.0.1:${ports[0]}`);
    const kafka = new Kafka({ clientId: 'broker-spec', brokers: [broker.brokers], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const cluster = await admin.describeCluster();
      expect(cluster.brokers).toEqual([expect.objectContaining({ host: '127.0.0.1', port: ports[0] })]);
      await ensureTopics(kafka, 'spec.');
      expect((await admin.listTopics()).filter((name) => name.startsWith('spec.'))).toHaveLength(TOPIC_SPECS.length);
    } finally {
      await admin.disconnect();
    }
    const properties = await readFile(join(dataDir, 'server.properties'), 'utf8');
    expect(properties).toContain('auto.create.topics.enable=false');
    expect(properties).toContain('group.initial.rebalance.delay.ms=0');
    expect(properties).toContain('log.cleaner.dedupe.buffer.size=16777216');
    expect(properties).toContain(`listeners=PLAINTEXT://127.0.0.1:${ports[0]},CONTROLLER://127.0.0.1:${ports[1]}`);
    expect(existsSync(join(dataDir, 'kraft-combined-logs', 'meta.properties'))).toBe(true);
  });

  it('stops on request, leaving no process and no open port', async () => {
    const running = broker!;
    const brokerPid = running.process.pid;

    await running.stop();
    broker = undefined;

    expect(isProcessAlive(brokerPid)).toBe(false);
    expect(await isPortOpen('127.0.0.1', ports[0])).toBe(false);
    await expect(waitForKafka(`127.0.0.1:${ports[0]}`, { timeoutMs: 500 })).rejects.toThrow('did not answer');
  });

  it('refuses to pass another broker already on its port off as its own', async () => {
    const taken = Number(requireTestEnv(TEST_ENV.kafkaBrokers).split(':')[1]);
    const otherDir = await mkdtemp(join(tmpdir(), 'kafka-broker-spec-taken-'));
    try {
      const attempt = startKafkaBroker({ repoRoot: findRepoRoot(__dirname), dataDir: otherDir, port: taken, controllerPort: (await findFreePorts(1))[0], heapMb: 256 });
      await expect(attempt).rejects.toThrow(/another Kafka cluster|the broker process exited/);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('restarts on the same data folder without formatting again, keeping its topics', async () => {
    const meta = await readFile(join(dataDir, 'kraft-combined-logs', 'meta.properties'), 'utf8');
    broker = await start();

    expect(await readFile(join(dataDir, 'kraft-combined-logs', 'meta.properties'), 'utf8')).toBe(meta);
    const kafka = new Kafka({ clientId: 'broker-spec', brokers: [broker.brokers], logLevel: logLevel.NOTHING });
    await expect(ensureTopics(kafka, 'spec.')).resolves.toEqual({ created: [], expanded: [], resized: [] });
  });
});
