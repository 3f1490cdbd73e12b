import { findFreePorts, findRepoRoot, startKafkaBroker } from '@alert-ingestion/local-infra';
import { requireTestEnv, TEST_ENV } from '@alert-ingestion/testing';
import { Test } from '@nestjs/testing';
import { Kafka, logLevel } from 'kafkajs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaBatchTransport, KafkaConsumersHealthProbe, KafkaHealthProbe, KafkaModule, KafkaNames, KafkaPing, waitForKafka } from '../src';

/** The probe's outcome: undefined when Kafka answered, else the error it threw. */
async function healthOf(brokers: string): Promise<unknown> {
  const moduleRef = await Test.createTestingModule({
    imports: [KafkaModule.forRoot({ KAFKA_BROKERS: brokers, KAFKA_CLIENT_ID: 'health-test', LOG_LEVEL: 'error' })],
    providers: [KafkaHealthProbe],
  }).compile();
  // Connection errors against a dead address are the point of one test, not news.
  moduleRef.useLogger(false);
  await moduleRef.init();
  try {
    return await moduleRef.get(KafkaHealthProbe).ping(2_000).catch((error: unknown) => error);
  } finally {
    await moduleRef.close();
  }
}

describe('Kafka health and readiness (real Kafka)', () => {
  it('reports up when the cluster answers', async () => {
    await expect(healthOf(requireTestEnv(TEST_ENV.kafkaBrokers))).resolves.toBeUndefined();
  });

  it('reports down with the reason when nothing listens at the brokers', async () => {
    // Port 1: nothing listens there, so connections are refused at once.
    const result = await healthOf('127.0.0.1:1');
    expect(result).toBeInstanceOf(Error);
    expect(result).toHaveProperty('message', expect.any(String));
  });

  it("reports down while the KafkaBatchTransport's consumers do not follow their topics, though Kafka answers", async () => {
    const transport = new KafkaBatchTransport(new Kafka({ brokers: [requireTestEnv(TEST_ENV.kafkaBrokers)], logLevel: logLevel.NOTHING }), new KafkaNames(''), []);
    const moduleRef = await Test.createTestingModule({
      imports: [KafkaModule.forRoot({ KAFKA_BROKERS: requireTestEnv(TEST_ENV.kafkaBrokers), KAFKA_CLIENT_ID: 'health-test', LOG_LEVEL: 'error' })],
      providers: [KafkaConsumersHealthProbe, { provide: KafkaBatchTransport, useValue: transport }],
    }).compile();
    await moduleRef.init();
    try {
      // Not started: it consumes nothing, which is what a consumer stopped for good amounts to.
      await expect(moduleRef.get(KafkaConsumersHealthProbe).ping()).rejects.toThrow('a Kafka consumer has stopped');
    } finally {
      await moduleRef.close();
    }
  });

  it('waitForKafka resolves for the test cluster and gives up on a dead address', async () => {
    await expect(waitForKafka(requireTestEnv(TEST_ENV.kafkaBrokers), { timeoutMs: 5_000 })).resolves.toBeUndefined();
    const dead = '127.0.0.1:1';
    const started = Date.now();
    await expect(waitForKafka(dead, { timeoutMs: 1_000 })).rejects.toThrow(`Kafka at ${dead} did not answer within 1000 ms`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('KafkaPing reports down once the cluster it was talking to goes away, and up again when it is back', async () => {
    // A private broker, since this one is stopped mid-test.
    const dataDir = await mkdtemp(join(tmpdir(), 'kafka-ping-spec-'));
    const [port, controllerPort] = await findFreePorts(2);
    const start = () => startKafkaBroker({ repoRoot: findRepoRoot(__dirname), dataDir, port, controllerPort, heapMb: 256 });
    let broker = await start();
    const ping = new KafkaPing(new Kafka({ clientId: 'ping-spec', brokers: [broker.brokers], logLevel: logLevel.NOTHING }));
    try {
      await expect(ping.ping(2_000)).resolves.toEqual({ brokers: 1, controller: 1 });

      await broker.stop();
      await expect(ping.ping(1_000)).rejects.toThrow();

      broker = await start();
      await expect(ping.ping(5_000)).resolves.toEqual({ brokers: 1, controller: 1 });
    } finally {
      await ping.close();
      await broker.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
