import { findFreePorts, findRepoRoot, RunningKafkaBroker, startKafkaBroker } from '@alert-ingestion/local-infra';
import { Consumer, ConsumerCrashEvent, Kafka, logLevel } from 'kafkajs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restartWhile, waitForGroupJoin } from '../src';

describe('restartWhile: kafkajs restarts a crashed consumer only while its owner runs (real Kafka)', () => {
  let dataDir: string;
  let broker: RunningKafkaBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    // A private broker, since it is stopped mid-test.
    dataDir = await mkdtemp(join(tmpdir(), 'consumer-restart-spec-'));
    const [port, controllerPort] = await findFreePorts(2);
    broker = await startKafkaBroker({ repoRoot: findRepoRoot(__dirname), dataDir, port, controllerPort, heapMb: 256 });
    // Few quick retries, so that losing the broker crashes the consumers within a second or two.
    kafka = new Kafka({ clientId: 'consumer-restart-spec', brokers: [broker.brokers], logLevel: logLevel.NOTHING, retry: { initialRetryTime: 50, maxRetryTime: 200, retries: 2 } });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'restart-spec', numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
  }, 120_000);

  afterAll(async () => {
    await broker?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function runningConsumer(groupId: string, running: () => boolean): Promise<{ consumer: Consumer; crashes: ConsumerCrashEvent['payload'][] }> {
    const consumer = kafka.consumer({ groupId, sessionTimeout: 6_000, heartbeatInterval: 500, retry: restartWhile(running) });
    const crashes: ConsumerCrashEvent['payload'][] = [];
    consumer.on(consumer.events.CRASH, ({ payload }) => crashes.push(payload));
    await consumer.connect();
    await consumer.subscribe({ topic: 'restart-spec', fromBeginning: true });
    const joined = waitForGroupJoin(consumer);
    await consumer.run({ eachMessage: async () => undefined });
    await joined;
    return { consumer, crashes };
  }

  it('a crash after the owner stopped schedules no restart; while it runs, the consumer is restarted', async () => {
    // The first owner runs until its consumer has joined (a coordinator still loading on this new
    // broker may crash it once before that, and must be restarted), then stops.
    let firstOwnerRuns = true;
    const stopped = await runningConsumer('restart-spec-stopped', () => firstOwnerRuns);
    firstOwnerRuns = false;
    const running = await runningConsumer('restart-spec-running', () => true);
    await broker.stop();

    const deadline = Date.now() + 30_000;
    while ((stopped.crashes.length === 0 || running.crashes.filter((crash) => crash.restart).length < 2) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The running consumer crashed, was restarted, crashed again...
    expect(running.crashes.filter((crash) => crash.restart).length).toBeGreaterThanOrEqual(2);
    // ...while the stopped one crashed once and stayed down.
    expect(stopped.crashes.map((crash) => crash.restart)).toEqual([false]);

    await running.consumer.disconnect();
    await stopped.consumer.disconnect();
  }, 60_000);
});
