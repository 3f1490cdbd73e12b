import { loadConfig } from '@alert-ingestion/config';
import { IntegrationSnapshot, integrationUrl } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { GatewayEnv } from '../src/gateway.env';
import { createKafkaConfig, ensureTopics } from '@alert-ingestion/kafka';
import { findFreePorts, findRepoRoot, RunningKafkaBroker, startKafkaBroker } from '@alert-ingestion/local-infra';
import { scrapeMetrics, serviceEnv, IntegrationPublisher } from '@alert-ingestion/testing';
import { INestApplication } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayApp } from '../src/gateway.app';
import { bearer, post } from './support/http-client';

/**
 * "Kafka unavailable (nothing was accepted): 503 with Retry-After" needs a broker this spec may
 * stop, so it runs its own single-node broker (the shared test broker serves the other specs),
 * with no processor: an accepted alert gets 202 here.
 */
interface PrivateBroker {
  brokers: string;
  stop(): Promise<void>;
  /** Starts it again on the same address and data (null where that is not possible). */
  restart: (() => Promise<void>) | null;
  /** Removes what the stopped broker left on disk. */
  cleanup(): void;
}

async function startPrivateBroker(): Promise<PrivateBroker> {
  if (spawnSync('java', ['-version']).status === 0) {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-kafka-down-'));
    const [port, controllerPort] = await findFreePorts(2);
    const options = { repoRoot: findRepoRoot(__dirname), dataDir, port, controllerPort, heapMb: 256 };
    let broker: RunningKafkaBroker = await startKafkaBroker(options);
    return {
      brokers: broker.brokers,
      stop: () => broker.stop(),
      restart: async () => {
        broker = await startKafkaBroker(options);
      },
      cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  // Machines with Docker and no Java: a throw-away container (its address changes on restart).
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const container = await new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().withEnvironment({ KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false' }).start();
  return {
    brokers: `${container.getHost()}:${container.getMappedPort(9093)}`,
    stop: async () => void (await container.stop()),
    restart: null,
    cleanup: () => undefined,
  };
}

function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('gateway: Kafka unavailable', () => {
  const key = randomBytes(24).toString('base64url');
  const prefix = `gw-down-${randomBytes(4).toString('hex')}.`;
  const integration: IntegrationSnapshot.IntegrationSnapshotValue = {
    id: '301',
    project_id: '30',
    project_tier: 'free',
    type: 'http',
    name: 'HTTP endpoint',
    active: true,
    url_token: randomBytes(16).toString('hex'),
    authorization_key_sha256: sha256Hex(key),
    payload_field_mapping: [],
    version: 1,
    updated_at: new Date().toISOString(),
  };
  let broker: PrivateBroker;
  let kafka: Kafka;
  let app: INestApplication | undefined;
  let baseUrl: string;
  let brokerRunning = false;

  beforeAll(async () => {
    broker = await startPrivateBroker();
    brokerRunning = true;
    kafka = new Kafka(createKafkaConfig({ KAFKA_BROKERS: broker.brokers, KAFKA_CLIENT_ID: 'gateway-kafka-down-test', LOG_LEVEL: 'error' }));
    await ensureTopics(kafka, prefix);
    const publisher = new IntegrationPublisher(kafka, { topicPrefix: prefix });
    await publisher.publish(integration);
    await publisher.disconnect();
    const env = loadConfig(
      GatewayEnv,
      serviceEnv({
        DATABASE_URL: 'postgresql://unused@127.0.0.1:5432/gateway_has_no_database',
        KAFKA_TOPIC_PREFIX: prefix,
        KAFKA_BROKERS: broker.brokers,
        GATEWAY_REPLY_TIMEOUT_MS: '300',
        // kafkajs logs every refused reconnect while the broker is down; the assertions say enough.
        LOG_LEVEL: 'error',
      }),
    );
    app = await createGatewayApp(env);
    await app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    if (!brokerRunning && broker?.restart) {
      await broker.restart();
      brokerRunning = true;
    }
    await app?.close();
    if (brokerRunning) await broker?.stop();
    broker?.cleanup();
  }, 120_000);

  it('accepts alerts while Kafka is up (202: stored, no processor here)', async () => {
    const answer = await post(integrationUrl(baseUrl, integration.url_token), JSON.stringify({ title: 'while up' }), { headers: bearer(key) });
    expect(answer.status).toBe(202);
    expect(await getStatus(`${baseUrl}/healthz`)).toBe(200);
  });

  it('answers 503 with Retry-After, never 200 or 202, while Kafka is down', async () => {
    const before = await scrapeMetrics(baseUrl);
    await broker.stop();
    brokerRunning = false;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, n) => post(integrationUrl(baseUrl, integration.url_token), JSON.stringify({ title: `while down ${n}` }), { headers: bearer(key) })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answer.body).toEqual({ error: 'kafka_unavailable', message: expect.stringContaining('not accepted') });
      // No broker address or stack trace leaks into the answer.
      expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
    }
    // Callers learn quickly; they do not hang until some distant timeout.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await getStatus(`${baseUrl}/healthz`)).toBe(503);
    // What the AlertIngestionGatewayKafkaUnavailable and AlertIngestionGatewayPublishErrors rules watch.
    const after = await scrapeMetrics(baseUrl);
    expect(after.value('gateway_receive_requests_total', { status: '503' }) - before.value('gateway_receive_requests_total', { status: '503' })).toBe(5);
    expect(after.value('gateway_publish_errors_total') - before.value('gateway_publish_errors_total')).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('accepts alerts again once Kafka is back', async () => {
    if (!broker.restart) {
      // A container comes back on another port; the gateway's configuration cannot follow it.
      expect(brokerRunning).toBe(false);
      return;
    }
    await broker.restart();
    brokerRunning = true;
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await post(integrationUrl(baseUrl, integration.url_token), JSON.stringify({ title: 'back up' }), { headers: bearer(key) })).status;
      if (status === 202) break;
      expect(status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(202);
  }, 60_000);
});
