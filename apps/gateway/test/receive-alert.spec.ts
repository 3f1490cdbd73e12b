import { loadConfig } from '@alert-ingestion/config';
import { IntegrationSnapshot, integrationUrl } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { GatewayEnv } from '../src/gateway.env';
import { createTestTopics, eventually, serviceEnv, testKafka, TestTopics, IntegrationPublisher } from '@alert-ingestion/testing';
import { INestApplication } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayApp } from '../src/gateway.app';
import { basic, bearer, post } from './support/http-client';
import { ProcessorStandIn, RawAlertValue, StandInAnswer } from './support/processor-stand-in';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

const MiB = 1024 * 1024;
const REPLY_TIMEOUT_MS = 2_500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const key = randomBytes(24).toString('base64url');
const otherKey = randomBytes(24).toString('base64url');

function snapshot(id: string, overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    id,
    project_id: '7',
    project_tier: 'premium',
    type: 'http',
    name: `Endpoint ${id}`,
    active: true,
    url_token: `tok${id}${randomBytes(8).toString('hex')}`,
    authorization_key_sha256: sha256Hex(key),
    payload_field_mapping: [],
    version: 1,
    updated_at: new Date().toISOString(),
    ...overrides,
  };
}

const integrations = {
  active: snapshot('101'),
  inactive: snapshot('102', { active: false }),
  externalLink: snapshot('103', { type: 'external_link' }),
  limited: snapshot('104', { name: 'Limited endpoint', rate_limit_per_minute: 2 }),
  otherKey: snapshot('105', { authorization_key_sha256: sha256Hex(otherKey) }),
  toggled: snapshot('106'),
};

/** Titles the stand-in "creates": one per alert of the body, like the processor (defaults applied). */
function titlesOf(payload: unknown): string[] {
  const titleOf = (alert: unknown) => {
    const title = (alert as { title?: unknown }).title;
    return typeof title === 'string' ? title : 'New: Alert';
  };
  if (Array.isArray(payload)) return payload.map(titleOf);
  const body = payload as { version?: unknown; alerts?: Array<{ labels?: { alertname?: string } }> };
  if (body.version === '4' && Array.isArray(body.alerts)) return body.alerts.map((alert) => alert.labels?.alertname ?? 'New: Alert');
  return [titleOf(payload)];
}

async function standInAnswer(value: RawAlertValue): Promise<StandInAnswer> {
  const title = (value.payload as { title?: unknown }).title;
  if (title === 'no reply') return 'no_reply';
  // Slow enough that the shutdown test's request is still waiting when the gateway is told to stop.
  if (title === 'in flight at shutdown') await new Promise((resolve) => setTimeout(resolve, 1_500));
  if (title === 'reject me') return { status: 'rejected', error: 'invalid_alert', message: 'start_time is not a timestamp' };
  return { status: 'processed', titles: titlesOf(value.payload) };
}

async function listen(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

describe('gateway: POST <integration url> (CONTRACT.md "Receiving alerts")', () => {
  let kafka: Kafka;
  let topics: TestTopics;
  let publisher: IntegrationPublisher;
  let standIn: ProcessorStandIn;
  let app: INestApplication;
  let baseUrl: string;
  const urlOf = (integration: Snapshot) => integrationUrl(baseUrl, integration.url_token);
  const env = (overrides: Record<string, string> = {}) =>
    loadConfig(
      GatewayEnv,
      serviceEnv({
        DATABASE_URL: 'postgresql://unused@127.0.0.1:5432/gateway_has_no_database',
        KAFKA_TOPIC_PREFIX: topics.prefix,
        GATEWAY_REPLY_TIMEOUT_MS: String(REPLY_TIMEOUT_MS),
        ...overrides,
      }),
    );

  /** Waits until the stand-in saw a later message of the same integration, then checks for the marker. */
  async function expectNothingPublishedWith(marker: string): Promise<void> {
    const probe = await post(urlOf(integrations.active), JSON.stringify({ title: `probe ${marker}` }), { headers: bearer(key) });
    expect(probe.status).toBe(200);
    expect(standIn.received.some((entry) => JSON.stringify(entry.value.payload).includes(`"${marker}"`))).toBe(false);
  }

  beforeAll(async () => {
    kafka = testKafka();
    topics = await createTestTopics();
    publisher = new IntegrationPublisher(kafka, { topicPrefix: topics.prefix });
    for (const integration of Object.values(integrations)) await publisher.publish(integration);
    standIn = new ProcessorStandIn(kafka, topics.prefix, standInAnswer);
    await standIn.start();
    app = await createGatewayApp(env());
    baseUrl = await listen(app);
  });

  afterAll(async () => {
    await app?.close();
    await standIn?.stop();
    await publisher?.disconnect();
    await topics?.drop();
  });

  describe('200: processed and stored', () => {
    it('answers [{iid, title}] and publishes the body with its integration, project and request id', async () => {
      const body = { title: 'Disk full', severity: 'high', hosts: ['db-1'], custom: { nested: [1, { deep: true }] } };
      const answer = await post(urlOf(integrations.active), JSON.stringify(body), { headers: bearer(key) });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([{ iid: expect.any(Number), title: 'Disk full' }]);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);

      const [message] = standIn.received.filter((entry) => (entry.value.payload as { title?: string }).title === 'Disk full');
      expect(message.key).toBe('101');
      expect(message.value).toEqual({
        // No X-Request-Id was sent: the one the gateway made names the request, and is its request_id.
        request_id: answer.headers['x-request-id'],
        integration_id: '101',
        project_id: '7',
        received_at: expect.any(String),
        reply_to: expect.stringMatching(UUID),
        // This instance's reply listener (an ephemeral port in tests) and its token.
        reply_endpoint: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/alert-replies$/), token: expect.stringMatching(/^[\w-]{43}$/) },
        authorization_key: 'current',
        payload: body,
      });
      expect(Math.abs(Date.parse(message.value.received_at) - Date.now())).toBeLessThan(60_000);
    });

    it('answers one element per alert of an array body, in request order', async () => {
      const body = [{ title: 'first' }, { title: 'second', severity: 'low' }, {}];
      const answer = await post(urlOf(integrations.active), JSON.stringify(body), { headers: bearer(key) });
      expect(answer.status).toBe(200);
      expect((answer.body as Array<{ title: string }>).map((alert) => alert.title)).toEqual(['first', 'second', 'New: Alert']);
      const message = standIn.received.find((entry) => JSON.stringify(entry.value.payload) === JSON.stringify(body));
      expect(message?.value.payload).toEqual(body);
    });

    it('passes an Alertmanager webhook body through unchanged', async () => {
      const body = {
        version: '4',
        groupKey: '{}:{alertname="HighLatency"}',
        status: 'firing',
        receiver: 'gateway',
        alerts: [{ status: 'firing', labels: { alertname: 'HighLatency', severity: 'warning' }, annotations: {}, startsAt: new Date().toISOString(), fingerprint: 'abc' }],
      };
      const answer = await post(urlOf(integrations.active), JSON.stringify(body), { headers: bearer(key) });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([{ iid: expect.any(Number), title: 'HighLatency' }]);
      expect(standIn.received.some((entry) => JSON.stringify(entry.value.payload) === JSON.stringify(body))).toBe(true);
    });

    it('accepts Basic credentials with a blank username and the key as password', async () => {
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'via basic' }), { headers: basic('', key) });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([{ iid: expect.any(Number), title: 'via basic' }]);
    });

    it('accepts credentials written in the URL (they arrive as Basic)', async () => {
      const url = new URL(urlOf(integrations.active));
      url.password = key;
      expect(url.toString()).toMatch(/^http:\/\/:[^@]+@127\.0\.0\.1/);
      const answer = await post(url.toString(), JSON.stringify({ title: 'via url' }));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([{ iid: expect.any(Number), title: 'via url' }]);
    });

    it('accepts nesting of exactly 100 levels', async () => {
      const body = `{"title":"deep","n":${'['.repeat(99)}${']'.repeat(99)}}`;
      const answer = await post(urlOf(integrations.active), body, { headers: bearer(key) });
      expect(answer.status).toBe(200);
    });

    it('accepts a body of exactly 1 MiB and publishes all of it', async () => {
      const prefix = '{"title":"one mebibyte","padding":"';
      const body = `${prefix}${'x'.repeat(MiB - prefix.length - 2)}"}`;
      expect(Buffer.byteLength(body)).toBe(MiB);
      const answer = await post(urlOf(integrations.active), body, { headers: bearer(key) });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([{ iid: expect.any(Number), title: 'one mebibyte' }]);
      const message = standIn.received.find((entry) => (entry.value.payload as { title?: string }).title === 'one mebibyte');
      expect((message?.value.payload as { padding: string }).padding).toHaveLength(MiB - prefix.length - 2);
    });

    it('answers every one of many concurrent requests, each published exactly once', async () => {
      const marker = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, n) => post(urlOf(integrations.active), JSON.stringify({ title: `burst ${n}`, marker }), { headers: bearer(key) })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(200));
      answers.forEach((answer, n) => expect(answer.body).toEqual([{ iid: expect.any(Number), title: `burst ${n}` }]));
      const published = standIn.received.filter((entry) => (entry.value.payload as { marker?: string }).marker === marker);
      expect(published).toHaveLength(200);
      expect(new Set(published.map((entry) => entry.value.request_id)).size).toBe(200);
    });
  });

  describe('202: stored in Kafka, not processed within the reply timeout', () => {
    it('answers {request_id} of the message that is in Kafka', async () => {
      const started = Date.now();
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'no reply' }), { headers: bearer(key) });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ request_id: expect.stringMatching(UUID) });
      expect(Date.now() - started).toBeGreaterThanOrEqual(REPLY_TIMEOUT_MS - 50);
      const { request_id: requestId } = answer.body as { request_id: string };
      expect(standIn.byRequestId(requestId)).toHaveLength(1);
    });
  });

  describe('422: the processor rejected the payload', () => {
    it('answers the rejection as {error, message}', async () => {
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'reject me' }), { headers: bearer(key) });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ error: 'invalid_alert', message: 'start_time is not a timestamp' });
    });
  });

  describe('401: no or wrong key', () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['no Authorization header', {}],
      ['a wrong Bearer key', bearer('wrong-key')],
      ["another integration's key", bearer(otherKey)],
      ['an empty Bearer', { Authorization: 'Bearer ' }],
      ['Basic with a wrong key', basic('', 'wrong-key')],
      ['Basic with the key but a non-blank username', basic('admin', key)],
      ['Basic with the key as username', basic(key, '')],
      ['another scheme', { Authorization: `Token ${key}` }],
      ['the bare key', { Authorization: key }],
    ];

    it.each(cases)('refuses %s without publishing anything', async (_name, headers) => {
      const marker = randomUUID();
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: marker }), { headers });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'unauthorized', message: expect.stringContaining('authorization key') });
      await expectNothingPublishedWith(marker);
    });

    it('refuses wrong credentials written in the URL', async () => {
      const url = new URL(urlOf(integrations.active));
      url.password = 'wrong-key';
      const answer = await post(url.toString(), JSON.stringify({ title: 'x' }));
      expect(answer.status).toBe(401);
    });

    it('authenticates before reading the body: a wrong key on an invalid body is still 401', async () => {
      const answer = await post(urlOf(integrations.active), 'not json at all', { headers: bearer('wrong') });
      expect(answer.status).toBe(401);
    });
  });

  describe('404: no such integration, or inactive', () => {
    it('refuses an unknown url token', async () => {
      const answer = await post(integrationUrl(baseUrl, 'no-such-token'), JSON.stringify({ title: 'x' }), { headers: bearer(key) });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'integration_not_found', message: expect.any(String) });
    });

    it('refuses an inactive integration even with its key', async () => {
      const marker = randomUUID();
      const answer = await post(urlOf(integrations.inactive), JSON.stringify({ title: marker }), { headers: bearer(key) });
      expect(answer.status).toBe(404);
      await expectNothingPublishedWith(marker);
    });

    it('refuses an external link integration (it has no receiving URL)', async () => {
      const answer = await post(urlOf(integrations.externalLink), JSON.stringify({ title: 'x' }), { headers: bearer(key) });
      expect(answer.status).toBe(404);
    });

    it('answers unknown paths with the error format too', async () => {
      const answer = await post(`${baseUrl}/alerts/notify/${integrations.active.url_token}`, '{}', { headers: bearer(key) });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'not_found', message: expect.any(String) });
    });

    it('follows integration changes: a disabled integration answers 404 within 2 s', async () => {
      expect((await post(urlOf(integrations.toggled), JSON.stringify({ title: 'before' }), { headers: bearer(key) })).status).toBe(200);
      await publisher.publish({ ...integrations.toggled, active: false, version: 2 });
      const changed = Date.now();
      await eventually(async () => {
        expect((await post(urlOf(integrations.toggled), JSON.stringify({ title: 'after' }), { headers: bearer(key) })).status).toBe(404);
      }, 2_000);
      expect(Date.now() - changed).toBeLessThan(2_000);
    });
  });

  describe('400: not JSON, not an object or array, or deeper than 100 levels', () => {
    const cases: Array<[string, string, string]> = [
      ['malformed JSON', '{"title": "x",', 'invalid_json'],
      ['text', 'hello', 'invalid_payload'],
      ['a JSON string', '"an alert"', 'invalid_payload'],
      ['a JSON number', '42', 'invalid_payload'],
      ['JSON null', 'null', 'invalid_payload'],
      ['an empty body', '', 'invalid_payload'],
      ['an array of scalars', '[{"title":"ok"}, 3]', 'invalid_payload'],
      ['an array of arrays', '[[{"title":"x"}]]', 'invalid_payload'],
      ['101 levels of arrays', `${'['.repeat(101)}${']'.repeat(101)}`, 'payload_too_deep'],
      ['101 levels of objects', `${'{"a":'.repeat(100)}{}${'}'.repeat(100)}`, 'payload_too_deep'],
      ['trailing garbage', '{"title":"x"} extra', 'invalid_json'],
    ];

    it.each(cases)('refuses %s', async (_name, body, code) => {
      const answer = await post(urlOf(integrations.active), body, { headers: bearer(key) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: code, message: expect.any(String) });
    });
  });

  describe('413: body larger than 1 MiB', () => {
    it('refuses 1 MiB + 1 byte', async () => {
      const prefix = '{"title":"too big","padding":"';
      const body = `${prefix}${'x'.repeat(MiB + 1 - prefix.length - 2)}"}`;
      expect(Buffer.byteLength(body)).toBe(MiB + 1);
      const answer = await post(urlOf(integrations.active), body, { headers: bearer(key) });
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({ error: 'payload_too_large', message: expect.stringContaining('1 MiB') });
      expect(answer.headers.connection).toBe('close');
    });

    it('refuses a chunked body (no Content-Length) as it streams, before the client has sent it all', async () => {
      const total = 32 * MiB;
      const url = new URL(urlOf(integrations.active));
      const outcome = await new Promise<{ status: number; sentWhenAnswered: number }>((resolve, reject) => {
        let sent = 0;
        const req = request(url, { method: 'POST', headers: { ...bearer(key), 'Content-Type': 'application/json' }, agent: false }, (res) => {
          resolve({ status: res.statusCode ?? 0, sentWhenAnswered: sent });
          res.resume();
        });
        req.on('error', () => undefined); // the server closes the connection after answering
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        req.write('[');
        const pump = () => {
          while (sent < total) {
            sent += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
          req.end();
        };
        pump();
        setTimeout(() => reject(new Error('no answer within 20 s')), 20_000).unref();
      });
      expect(outcome.status).toBe(413);
      expect(outcome.sentWhenAnswered).toBeLessThan(total);
    });

    it('refuses a declared Content-Length above 1 MiB without waiting for the body', async () => {
      const url = new URL(urlOf(integrations.active));
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(url, { method: 'POST', headers: { ...bearer(key), 'Content-Length': String(2 * MiB) }, agent: false }, (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
        });
        req.on('error', () => undefined);
        req.write('{"title":"'); // and never more: the answer must not wait for the rest
        setTimeout(() => reject(new Error('no answer within 5 s')), 5_000).unref();
      });
      expect(status).toBe(413);
    });
  });

  describe("429: over the integration's rate limit", () => {
    it('answers with Retry-After and a body naming the integration and the limit', async () => {
      const url = urlOf(integrations.limited);
      expect((await post(url, JSON.stringify({ title: 'one' }), { headers: bearer(key) })).status).toBe(200);
      expect((await post(url, JSON.stringify({ title: 'two' }), { headers: bearer(key) })).status).toBe(200);
      const marker = randomUUID();
      const answer = await post(url, JSON.stringify({ title: marker }), { headers: bearer(key) });
      expect(answer.status).toBe(429);
      const retryAfter = Number(answer.headers['retry-after']);
      // 2 per minute, counted in one-minute windows: the window ends within a minute.
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(answer.body).toEqual({ error: 'rate_limit_exceeded', message: expect.stringContaining('"Limited endpoint"') });
      expect((answer.body as { message: string }).message).toContain('2 requests per minute');
      expect(standIn.received.some((entry) => (entry.value.payload as { title?: string }).title === marker)).toBe(false);
    });

    it('limits each integration on its own', async () => {
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'unaffected' }), { headers: bearer(key) });
      expect(answer.status).toBe(200);
    });
  });

  describe('graceful shutdown', () => {
    it('answers requests in flight before it stops, and refuses new connections after', async () => {
      const second = await createGatewayApp(env({ GATEWAY_REPLY_TIMEOUT_MS: '10000' }));
      const secondUrl = await listen(second);
      const inFlight = post(integrationUrl(secondUrl, integrations.active.url_token), JSON.stringify({ title: 'in flight at shutdown' }), {
        headers: bearer(key),
      });
      await eventually(() => expect(standIn.received.some((entry) => (entry.value.payload as { title?: string }).title === 'in flight at shutdown')).toBe(true));
      await second.close();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([{ iid: expect.any(Number), title: 'in flight at shutdown' }]);
      await expect(post(integrationUrl(secondUrl, integrations.active.url_token), '{}', { headers: bearer(key) })).rejects.toThrow(/ECONNREFUSED/);
    });
  });

  describe('X-Request-Id (CONTRACT.md "Across all services")', () => {
    const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const received = (title: string) => standIn.received.filter((entry) => (entry.value.payload as { title?: string }).title === title);

    it("answers with the caller's id, and carries it to the processor beside a request_id of the request's own", async () => {
      const callerId = `caller-${randomUUID()}`;
      const first = await post(urlOf(integrations.active), JSON.stringify({ title: 'named by the caller' }), { headers: { ...bearer(key), 'X-Request-Id': callerId } });
      const again = await post(urlOf(integrations.active), JSON.stringify({ title: 'named by the caller' }), { headers: { ...bearer(key), 'X-Request-Id': callerId } });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect([first.headers['x-request-id'], again.headers['x-request-id']]).toEqual([callerId, callerId]);
      const messages = received('named by the caller');
      expect(messages.map((message) => message.value.x_request_id)).toEqual([callerId, callerId]);
      // The caller's id may repeat; the processor's idempotency key may not.
      const [one, two] = messages.map((message) => message.value.request_id);
      expect(one).toMatch(UUID_V4);
      expect(two).toMatch(UUID_V4);
      expect(one).not.toBe(two);
    });

    it("answers 202 with the caller's id as request_id", async () => {
      const callerId = 'trace:1234/ABC_def.~!';
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'no reply' }), { headers: { ...bearer(key), 'X-Request-Id': callerId } });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ request_id: callerId });
      expect(answer.headers['x-request-id']).toBe(callerId);
    });

    it('answers 202 with the id it made when the caller sent none: the same as the header and the request_id', async () => {
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'no reply' }), { headers: bearer(key) });
      expect(answer.status).toBe(202);
      const requestId = answer.headers['x-request-id'] as string;
      expect(requestId).toMatch(UUID_V4);
      expect(answer.body).toEqual({ request_id: requestId });
      expect(standIn.byRequestId(requestId).map((message) => message.value.x_request_id)).toEqual([undefined]);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'a'.repeat(256)],
      ['with a space', 'two words'],
      ['with a tab', 'a\tb'],
      ['with a non-ASCII character', 'caf\u00e9'],
    ])('replaces an unacceptable id (%s) by a new UUID v4', async (_, value) => {
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'id replaced' }), { headers: { ...bearer(key), 'X-Request-Id': value } });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-request-id']).toMatch(UUID_V4);
    });

    it('takes an id of exactly 255 printable characters', async () => {
      const callerId = `${'~'.repeat(254)}!`;
      const answer = await post(urlOf(integrations.active), JSON.stringify({ title: 'longest id' }), { headers: { ...bearer(key), 'X-Request-Id': callerId } });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-request-id']).toBe(callerId);
      expect(received('longest id')[0].value.x_request_id).toBe(callerId);
    });

    it('carries it on refusals, on the other routes and on unknown paths', async () => {
      const refusals = await Promise.all([
        post(urlOf(integrations.active), '{}', { headers: { ...bearer(otherKey), 'X-Request-Id': 'refused-401' } }),
        post(integrationUrl(baseUrl, 'no-such-token'), '{}', { headers: { ...bearer(key), 'X-Request-Id': 'refused-404' } }),
        post(urlOf(integrations.active), '{not json', { headers: { ...bearer(key), 'X-Request-Id': 'refused-400' } }),
      ]);
      expect(refusals.map((answer) => [answer.status, answer.headers['x-request-id']])).toEqual([
        [401, 'refused-401'],
        [404, 'refused-404'],
        [400, 'refused-400'],
      ]);
      for (const path of ['/healthz', '/no/such/path', `/alerts/notify/${integrations.active.url_token}.json`]) {
        const named = await fetch(`${baseUrl}${path}`, { headers: { 'X-Request-Id': `get-${path}` } });
        expect(named.headers.get('x-request-id')).toBe(`get-${path}`);
        const unnamed = await fetch(`${baseUrl}${path}`);
        expect(unnamed.headers.get('x-request-id')).toMatch(UUID_V4);
      }
    });
  });

  describe('GET /healthz', () => {
    it('answers 200 while Kafka answers and both consumers run', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        request(`${baseUrl}/healthz`, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
    });
  });
});
