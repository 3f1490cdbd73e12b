import { AlertView, RawAlert } from '@alert-ingestion/contracts';
import { requireTestEnv, ServiceProcess, TEST_ENV } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { bearer, HttpAnswer, post } from './support/http-client';
import { Pipeline, Project } from './support/pipeline';

/**
 * Idempotency-Key and visible, shareable rate limits (CONTRACT.md "Receiving alerts"), with two
 * gateway instances sharing their counts through the Redis on 127.0.0.1:6379 and one that counts alone.
 */
describe('end to end: Idempotency-Key and rate-limit headers', () => {
  let pipeline: Pipeline;
  let project: Project;
  let second: ServiceProcess;
  let alone: ServiceProcess;
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `alert-ingestion-test:${requireTestEnv(TEST_ENV.runId)}:${randomBytes(3).toString('hex')}:` };

  beforeAll(async () => {
    pipeline = await Pipeline.start({ gateway: redis });
    [second, alone] = await Promise.all([pipeline.startGateway(redis), pipeline.startGateway({ REDIS_URL: '' })]);
    project = await pipeline.createProject('premium');
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  /** The integration's URL at another gateway instance. */
  const at = (gateway: ServiceProcess) => project.integration.url.replace(/^http:\/\/[^/]+/, gateway.url);
  const send = (body: unknown, headers: Record<string, string> = {}, gateway?: ServiceProcess): Promise<HttpAnswer> =>
    post(gateway ? at(gateway) : project.integration.url, JSON.stringify(body), { headers: { ...bearer(project.integration.authorization_key), ...headers } });
  const alert = async (iid: number): Promise<AlertView> => pipeline.processorApi<AlertView>('GET', `/projects/${project.id}/alerts/${iid}`);
  /**
   * Sets the integration's limit and waits until the given gateways apply it: each one learns of the
   * change from the integrations topic a moment after the API answered. A wrong key is answered with
   * the integration's limit without counting, so asking costs nothing.
   */
  const setRateLimit = async (limit: number | null, gateways: ServiceProcess[] = []) => {
    await pipeline.management('PUT', `/projects/${project.id}/alert_integrations/${project.integration.id}`, { rate_limit_per_minute: limit });
    for (const gateway of gateways) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const answer = await post(at(gateway), '{}', { headers: bearer('not the key') });
        if (answer.headers['ratelimit-limit'] === String(limit) || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };

  describe('Idempotency-Key', () => {
    it('answers a repeat with the first answer and changes nothing', async () => {
      const body = { title: 'Repeated notification', fingerprint: `repeat-${randomBytes(3).toString('hex')}` };
      const first = await send(body, { 'Idempotency-Key': 'notification-1' });
      const repeat = await send(body, { 'Idempotency-Key': 'notification-1' });
      expect(first.status).toBe(200);
      expect(repeat).toMatchObject({ status: first.status, body: first.body });
      const [{ iid }] = first.body as Array<{ iid: number }>;
      expect((await alert(iid)).events).toBe(1);

      // Another key is another delivery: the same payload is grouped into the alert (events 2).
      expect((await send(body, { 'Idempotency-Key': 'notification-2' })).body).toEqual(first.body);
      expect((await alert(iid)).events).toBe(2);
    });

    it('answers repeats arriving at the same moment on different gateway instances once, with one answer', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, async (_, n) => {
          const body = { title: `Simultaneous ${n}`, fingerprint: `simultaneous-${n}-${randomBytes(3).toString('hex')}` };
          const headers = { 'Idempotency-Key': `simultaneous-${n}` };
          const [a, b, c] = await Promise.all([send(body, headers), send(body, headers, second), send(body, headers, alone)]);
          return { a, b, c };
        }),
      );
      for (const { a, b, c } of outcomes) {
        expect(a.status).toBe(200);
        expect(b).toMatchObject({ status: 200, body: a.body });
        expect(c).toMatchObject({ status: 200, body: a.body });
        const [{ iid }] = a.body as Array<{ iid: number }>;
        expect((await alert(iid)).events).toBe(1);
      }
    });

    it('treats a repeat after 24 hours as a new delivery', async () => {
      const body = { title: 'Day-old key', fingerprint: `day-old-${randomBytes(3).toString('hex')}` };
      const first = await send(body, { 'Idempotency-Key': 'day-old' });
      const [{ iid }] = first.body as Array<{ iid: number }>;
      const client = new Client({ connectionString: pipeline.database.url });
      await client.connect();
      try {
        const requestId = RawAlert.idempotentRequestId(String(project.integration.id), 'day-old');
        const { rowCount } = await client.query(`UPDATE processed_raw_alerts SET processed_at = now() - interval '25 hours' WHERE request_id = $1`, [requestId]);
        expect(rowCount).toBe(1);
      } finally {
        await client.end();
      }
      expect((await send(body, { 'Idempotency-Key': 'day-old' })).status).toBe(200);
      expect((await alert(iid)).events).toBe(2);
    });

    it('refuses an empty key or one longer than 255 characters (400)', async () => {
      for (const key of ['', 'k'.repeat(256)]) {
        const answer = await send({ title: 'bad key' }, { 'Idempotency-Key': key });
        expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_idempotency_key' } });
      }
      expect((await send({ title: 'longest key' }, { 'Idempotency-Key': 'k'.repeat(255) })).status).toBe(200);
    });
  });

  describe('rate limits', () => {
    afterAll(async () => {
      await setRateLimit(null);
    });

    it('carries RateLimit-Limit, -Remaining and -Reset on every answer for a known integration, none on a 404', async () => {
      await setRateLimit(1_000, [alone]);
      const accepted = await send({ title: 'counted' }, {}, alone);
      expect(accepted.status).toBe(200);
      expect(accepted.headers['ratelimit-limit']).toBe('1000');
      const remaining = Number(accepted.headers['ratelimit-remaining']);
      expect(remaining).toBeLessThan(1_000);
      const reset = Number(accepted.headers['ratelimit-reset']);
      expect(reset * 1000).toBeGreaterThan(Date.now());
      expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);

      const refusedJson = await post(at(alone), '{"not json', { headers: bearer(project.integration.authorization_key) });
      expect(refusedJson.status).toBe(400);
      expect(Number(refusedJson.headers['ratelimit-remaining'])).toBe(remaining - 1);
      // A wrong key is answered with the integration's state, without counting.
      const wrongKey = await post(at(alone), '{}', { headers: bearer('wrong') });
      expect(wrongKey).toMatchObject({ status: 401, headers: { 'ratelimit-limit': '1000', 'ratelimit-remaining': String(remaining - 1) } });
      const unknown = await post(at(alone).replace(/[^/]+\.json$/, 'unknown.json'), '{}', { headers: bearer('x') });
      expect(unknown.status).toBe(404);
      expect(unknown.headers['ratelimit-limit']).toBeUndefined();
    });

    it('shares the limit between gateways with Redis, and counts per instance without it', async () => {
      // An integration of its own: a limit counts every request of the current minute, also earlier ones.
      project = await pipeline.createProject('premium');
      await setRateLimit(4, [pipeline.gateway, second]);
      const shared = [pipeline.gateway, second, pipeline.gateway, second];
      for (const [n, gateway] of shared.entries()) {
        const answer = await send({ title: `shared ${n}` }, {}, gateway);
        expect(answer).toMatchObject({ status: 200, headers: { 'ratelimit-limit': '4', 'ratelimit-remaining': String(3 - n) } });
      }
      const over = await send({ title: 'one too many' }, {}, second);
      expect(over).toMatchObject({ status: 429, body: { error: 'rate_limit_exceeded' }, headers: { 'ratelimit-remaining': '0' } });
      expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await send({ title: 'also too many' }, {}, pipeline.gateway)).status).toBe(429);

      // The instance without Redis has counted only what it received itself.
      expect((await send({ title: 'alone' }, {}, alone)).status).toBe(200);
    });
  });
});
