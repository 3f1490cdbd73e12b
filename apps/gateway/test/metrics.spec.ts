import { loadConfig } from '@alert-ingestion/config';
import { IntegrationSnapshot, integrationUrl } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { RECEIVE_ROUTE } from '@alert-ingestion/gateway-feature';
import { GatewayEnv } from '../src/gateway.env';
import { DEFAULT_METRICS, METRICS } from '@alert-ingestion/metrics';
import { createTestTopics, eventually, IntegrationPublisher, scrapeMetrics, serviceEnv, testKafka, TestTopics } from '@alert-ingestion/testing';
import { INestApplication } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createGatewayApp } from '../src/gateway.app';
import { bearer, post } from './support/http-client';
import { ProcessorStandIn } from './support/processor-stand-in';

const GATEWAY_METRICS = [
  ...Object.keys(DEFAULT_METRICS),
  'http_request_duration_seconds',
  'gateway_receive_requests_total',
  'gateway_reply_wait_seconds',
  'gateway_publish_errors_total',
  'gateway_replies_total',
  'gateway_reply_requests_refused_total',
];

/** The gateway's reply timeout here: a reply the stand-in holds back longer comes late. */
const REPLY_TIMEOUT_MS = 2_000;

/** CONTRACT.md "Across all services": GET /metrics, here with the gateway's own metrics. */
describe('gateway: GET /metrics', () => {
  const key = randomBytes(24).toString('base64url');
  const integration: IntegrationSnapshot.IntegrationSnapshotValue = {
    id: '401',
    project_id: '40',
    project_tier: 'free',
    type: 'http',
    name: 'HTTP endpoint',
    active: true,
    url_token: randomBytes(24).toString('base64url'),
    authorization_key_sha256: sha256Hex(key),
    payload_field_mapping: [],
    version: 1,
    updated_at: new Date().toISOString(),
  };
  let kafka: Kafka;
  let topics: TestTopics;
  let standIn: ProcessorStandIn;
  let app: INestApplication;
  let baseUrl: string;

  beforeAll(async () => {
    kafka = testKafka();
    topics = await createTestTopics();
    const publisher = new IntegrationPublisher(kafka, { topicPrefix: topics.prefix });
    await publisher.publish(integration);
    await publisher.disconnect();
    standIn = new ProcessorStandIn(kafka, topics.prefix, async (value) => {
      // A reply held back past the gateway's reply timeout: the request got 202, the reply comes late.
      if ((value.payload as { title?: string }).title === 'Late') await new Promise((resolve) => setTimeout(resolve, REPLY_TIMEOUT_MS + 500));
      return { status: 'processed', titles: ['Metered'] };
    });
    await standIn.start();
    const env = loadConfig(
      GatewayEnv,
      serviceEnv({
        DATABASE_URL: 'postgresql://unused@127.0.0.1:5432/gateway_has_no_database',
        KAFKA_TOPIC_PREFIX: topics.prefix,
        // An unknown URL is refused without waiting long for the integration view.
        GATEWAY_INTEGRATION_WAIT_MS: '200',
        GATEWAY_REPLY_TIMEOUT_MS: String(REPLY_TIMEOUT_MS),
      }),
    );
    app = await createGatewayApp(env);
    await app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await standIn?.stop();
    await topics?.drop();
  });

  it("answers the Prometheus text format with the default metrics and the gateway's own", async () => {
    const metrics = await scrapeMetrics(baseUrl);
    expect(metrics.typesOf(GATEWAY_METRICS)).toEqual(Object.fromEntries(GATEWAY_METRICS.map((name) => [name, METRICS[name].type])));
    // Every answer of the receive route has its series from the start, so rate() sees the first one.
    expect(metrics.select('gateway_receive_requests_total').map((sample) => sample.labels['status'])).toEqual(['200', '202', '400', '401', '404', '413', '422', '429', '503']);
    expect(metrics.families.has('outbox_backlog_rows')).toBe(false);
  });

  it('counts receive requests by status and times them under the route pattern, never the URL', async () => {
    const before = await scrapeMetrics(baseUrl);
    const url = integrationUrl(baseUrl, integration.url_token);
    expect((await post(url, JSON.stringify({ title: 'Metered' }), { headers: bearer(key) })).status).toBe(200);
    expect((await post(url, JSON.stringify({ title: 'Metered' }), { headers: bearer('not-the-key') })).status).toBe(401);
    expect((await post(integrationUrl(baseUrl, 'no-such-token'), '{}', { headers: bearer(key) })).status).toBe(404);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/no/such/path/12345`)).status).toBe(404);
    const after = await scrapeMetrics(baseUrl);

    const grown = (name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    expect({
      200: grown('gateway_receive_requests_total', { status: '200' }),
      401: grown('gateway_receive_requests_total', { status: '401' }),
      404: grown('gateway_receive_requests_total', { status: '404' }),
      202: grown('gateway_receive_requests_total', { status: '202' }),
    }).toEqual({ 200: 1, 401: 1, 404: 1, 202: 0 });
    const receive = (status: string) => grown('http_request_duration_seconds_count', { method: 'POST', route: RECEIVE_ROUTE, status_code: status });
    expect({ 200: receive('200'), 401: receive('401'), 404: receive('404') }).toEqual({ 200: 1, 401: 1, 404: 1 });
    expect(grown('http_request_duration_seconds_count', { method: 'GET', route: '/healthz', status_code: '200' })).toBe(1);
    expect(grown('http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    // Only the 200 waited for a reply.
    expect(grown('gateway_reply_wait_seconds_count', {})).toBe(1);
    expect(grown('gateway_reply_wait_seconds_sum', {})).toBeGreaterThan(0);
    expect(after.value('http_request_duration_seconds_bucket', { route: RECEIVE_ROUTE, status_code: '200', le: '+Inf' })).toBe(
      after.value('http_request_duration_seconds_count', { route: RECEIVE_ROUTE, status_code: '200' }),
    );

    // No URL (with its token or an id) ever becomes a label value.
    const routes = new Set(after.samples.flatMap((sample) => (sample.labels['route'] === undefined ? [] : [sample.labels['route']])));
    expect([...routes].sort()).toEqual(['/healthz', '/metrics', RECEIVE_ROUTE, 'unmatched'].sort());
    expect(after.samples.some((sample) => JSON.stringify(sample.labels).includes(integration.url_token))).toBe(false);
  });

  it('counts the replies its listener took: delivered while the request waits, late after its 202', async () => {
    const before = await scrapeMetrics(baseUrl);
    expect(before.select('gateway_replies_total').map((sample) => sample.labels['outcome'])).toEqual(['delivered', 'late']);
    const url = integrationUrl(baseUrl, integration.url_token);
    expect((await post(url, JSON.stringify({ title: 'Metered' }), { headers: bearer(key) })).status).toBe(200);
    expect((await post(url, JSON.stringify({ title: 'Late' }), { headers: bearer(key) })).status).toBe(202);
    await eventually(async () => {
      const after = await scrapeMetrics(baseUrl);
      const grown = (outcome: string) => after.value('gateway_replies_total', { outcome }) - before.value('gateway_replies_total', { outcome });
      expect({ delivered: grown('delivered'), late: grown('late') }).toEqual({ delivered: 1, late: 1 });
    }, 10_000);
  });
});
