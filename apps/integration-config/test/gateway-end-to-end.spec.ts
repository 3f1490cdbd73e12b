import { createTestDatabase, createTestTopics, eventually, serviceEnv, ServiceProcess, startService, TestDatabase, TestTopics } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

interface Integration {
  id: number;
  url: string;
  authorization_key: string;
}

/**
 * integration-config with the real gateway and processor (built services, own processes): what a
 * maintainer configures reaches the receiving side, and a test alert goes through the same pipeline
 * as a real one (spec 4.2).
 */
describe('integration-config with the gateway and the processor', () => {
  let database: TestDatabase;
  let topics: TestTopics;
  let gateway: ServiceProcess;
  let processor: ServiceProcess;
  let api: ManagementApi;
  let project: number;
  let developer: string;

  const route = (rest = '') => `/projects/${project}/alert_integrations${rest}`;
  const sendAlert = (url: string, key: string, body: unknown) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });

  beforeAll(async () => {
    database = await createTestDatabase();
    topics = await createTestTopics();
    // One INTEGRATION_KEY_ENCRYPTION_KEY for both, as deployed: the gateway reads the signing secrets integration-config encrypts.
    const INTEGRATION_KEY_ENCRYPTION_KEY = randomBytes(32).toString('base64');
    const env = serviceEnv({ DATABASE_URL: database.url, KAFKA_TOPIC_PREFIX: topics.prefix, ADMIN_TOKEN, INTEGRATION_KEY_ENCRYPTION_KEY });
    [gateway, processor] = await Promise.all([
      startService('gateway', { ...env, GATEWAY_REPLY_TIMEOUT_MS: '10000' }),
      startService('alert-processor', env),
    ]);
    api = await ManagementApi.start({ GATEWAY_PUBLIC_URL: gateway.url, INTEGRATION_KEY_ENCRYPTION_KEY }, { database, topics });
    project = await api.createProject('e2e/premium', 'premium');
    developer = await api.member(project, 'developer');
  }, 180_000);

  afterAll(async () => {
    await api?.stop(true);
    await Promise.all([gateway?.stop(), processor?.stop()]);
    await database?.drop();
    await topics?.drop();
  });

  const createIntegration = async (body: Record<string, unknown>): Promise<Integration> => {
    const answer = await api.request<Integration>('POST', route(), { token: ADMIN_TOKEN, body: { active: true, ...body } });
    expect(answer.status).toBe(201);
    return answer.body;
  };

  it('the integration URL and key work at the gateway; after a key reset the old key gets 401 within 2 s', async () => {
    const integration = await createIntegration({ name: 'Reset me' });
    await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, { title: 'Before reset' })).status).toBe(200), 10_000, 100);

    const reset = await api.request<Integration>('POST', route(`/${integration.id}/reset_authorization_key`), { token: ADMIN_TOKEN });
    expect(reset.status).toBe(200);
    const resetAt = Date.now();
    // The new key works as soon as the reset is answered (read-your-writes at the gateway).
    const withNewKey = await sendAlert(integration.url, reset.body.authorization_key, { title: 'New key' });
    expect(withNewKey.status).toBe(200);
    expect(await withNewKey.json()).toEqual([{ iid: expect.any(Number), title: 'New key' }]);
    // CONTRACT.md: the old key stops working at the gateway within 2 seconds.
    await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, { title: 'Old key' })).status).toBe(401), 2_000, 50);
    expect(Date.now() - resetAt).toBeLessThan(2_000);
  });

  it('accepts a URL as soon as its create has been answered: 200 create-then-send in a row, no 404', async () => {
    const statuses = new Map<number, number>();
    for (let n = 0; n < 200; n++) {
      const integration = await createIntegration({ name: `Fresh ${n}` });
      const status = (await sendAlert(integration.url, integration.authorization_key, { title: `First alert ${n}` })).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 200 });
  }, 120_000);

  it('accepts a URL as soon as its activation has been answered', async () => {
    const integration = await createIntegration({ name: 'Activate me', active: false });
    expect((await sendAlert(integration.url, integration.authorization_key, {})).status).toBe(404);
    for (let round = 0; round < 10; round++) {
      expect((await api.request('PUT', route(`/${integration.id}`), { token: ADMIN_TOKEN, body: { active: true } })).status).toBe(200);
      expect((await sendAlert(integration.url, integration.authorization_key, { title: `Active ${round}` })).status).toBe(200);
      expect((await api.request('PUT', route(`/${integration.id}`), { token: ADMIN_TOKEN, body: { active: false } })).status).toBe(200);
      await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, {})).status).toBe(404), 2_000, 50);
    }
  }, 60_000);

  it('a disabled or deleted integration stops receiving (404 at the gateway)', async () => {
    const integration = await createIntegration({ name: 'Toggle me' });
    await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, {})).status).toBe(200), 10_000, 100);
    await api.request('PUT', route(`/${integration.id}`), { token: ADMIN_TOKEN, body: { active: false } });
    await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, {})).status).toBe(404), 2_000, 50);
    await api.request('PUT', route(`/${integration.id}`), { token: ADMIN_TOKEN, body: { active: true } });
    await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, {})).status).toBe(200), 2_000, 50);
    await api.request('DELETE', route(`/${integration.id}`), { token: ADMIN_TOKEN });
    // A request the gateway accepted just before the tombstone reached it can wait at the processor
    // (which no longer finds the integration) for its lookup timeout, hence the longer window here.
    await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, {})).status).toBe(404), 15_000, 50);
  });

  describe('POST :iid/test_alert (spec 4.2)', () => {
    it('sends the test payload through the gateway and answers the alerts created or grouped into', async () => {
      const integration = await createIntegration({ name: 'Test alerts' });
      const answer = await api.request('POST', route(`/${integration.id}/test_alert`), {
        token: developer,
        body: { payload: JSON.stringify({ title: 'Test alert from settings', fingerprint: 'test-1' }) },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        message: expect.stringContaining('Test alert from settings'),
        alerts: [{ iid: expect.any(Number), title: 'Test alert from settings' }],
      });
      const [first] = (answer.body as { alerts: Array<{ iid: number }> }).alerts;

      // The same payload again is grouped into the same alert (Premium), as for a real alert.
      const again = await api.request<{ alerts: Array<{ iid: number }> }>('POST', route(`/${integration.id}/test_alert`), {
        token: developer,
        body: { payload: JSON.stringify({ title: 'Test alert from settings', fingerprint: 'test-1' }) },
      });
      expect(again.status).toBe(200);
      expect(again.body.alerts).toEqual([{ iid: first.iid, title: 'Test alert from settings' }]);
    });

    it('signs the test alert with the signing secret, freshly for each one, so the gateway takes it', async () => {
      const integration = await createIntegration({ name: 'Signed test alerts' });
      const secret = `grafana-secret-${Date.now()}`;
      expect((await api.request('PUT', route(`/${integration.id}`), { token: ADMIN_TOKEN, body: { signing_secret: secret } })).status).toBe(200);
      // An unsigned request is refused from now on (the gateway's rule), so the test alert must be signed.
      await eventually(async () => expect((await sendAlert(integration.url, integration.authorization_key, { title: 'Unsigned' })).status).toBe(401), 5_000, 100);

      for (const title of ['Signed test alert', 'Signed test alert again, é 🔥']) {
        const answer = await api.request<{ message: string; alerts: Array<{ iid: number; title: string }> }>('POST', route(`/${integration.id}/test_alert`), {
          token: developer,
          body: { payload: JSON.stringify({ title }) },
        });
        expect([answer.status, answer.body]).toEqual([200, { message: expect.stringContaining(title), alerts: [{ iid: expect.any(Number), title }] }]);
      }
      await eventually(async () => {
        const deliveries = (await (
          await fetch(`${processor.url}/api/v4${route(`/${integration.id}/deliveries`)}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
        ).json()) as Array<{ status: number; error: string | null; body: string }>;
        const testAlerts = deliveries.filter((delivery) => delivery.body.includes('Signed test alert'));
        expect(testAlerts.map(({ status, error }) => ({ status, error }))).toEqual([
          { status: 200, error: null },
          { status: 200, error: null },
        ]);
      }, 10_000, 100);
    });

    it('applies the payload field mapping, like the real pipeline', async () => {
      const integration = await createIntegration({
        name: 'Mapped test alerts',
        sample_payload: JSON.stringify({ summary: 'x', labels: { host: 'h' } }),
        payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }],
      });
      const answer = await api.request<{ alerts: Array<{ title: string }> }>('POST', route(`/${integration.id}/test_alert`), {
        token: developer,
        body: { payload: JSON.stringify({ summary: 'Mapped title', labels: { host: 'db-9' } }) },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.alerts).toEqual([{ iid: expect.any(Number), title: 'Mapped title' }]);
    });

    it('answers 400 with a message the UI can show when the payload is not valid JSON', async () => {
      const integration = await createIntegration({ name: 'Invalid test payload' });
      const answer = await api.request('POST', route(`/${integration.id}/test_alert`), { token: developer, body: { payload: '{"title": "x",' } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_json', message: expect.stringMatching(/^The test payload is not valid JSON/) });
      expect((await api.request('POST', route(`/${integration.id}/test_alert`), { token: developer, body: {} })).status).toBe(400);
    });

    it("passes on the gateway's refusal: the test alert cannot bypass the gateway's rules", async () => {
      const integration = await createIntegration({ name: 'Refused test payload' });
      // Valid JSON, but not an object or an array: the gateway refuses it (CONTRACT.md "Receiving alerts").
      const answer = await api.request<{ error: string; message: string }>('POST', route(`/${integration.id}/test_alert`), {
        token: developer,
        body: { payload: '"just a string"' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/^The test alert failed: /);
    });
  });
});
