import { IntegrationSnapshot, Topic } from '@alert-ingestion/contracts';
import { eventually, testKafka, TopicCollector } from '@alert-ingestion/testing';
import { logLevel } from 'kafkajs';
import { createHmac, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { bearer, post } from './support/http-client';
import { Pipeline, Project } from './support/pipeline';

interface Delivery {
  status: number;
  error: string | null;
  body: string;
  authorization_key: 'current' | 'previous' | null;
  authorization_key_expires_at: string | null;
}

interface IntegrationAnswer {
  id: number;
  url: string;
  authorization_key: string;
  previous_authorization_key: { authorization_key: string; expires_at: string } | null;
  previous_authorization_keys: Array<{ authorization_key: string; expires_at: string }>;
  signing_secret: string | null;
}

/**
 * Key rotation with a grace period and signed webhooks, through the real stack (integration-config,
 * gateway and processor as processes, PostgreSQL and Kafka): the previous key works until its
 * expiry and not after, deliveries say which key a request used, and an integration with a signing
 * secret takes only requests whose HMAC-SHA256 signature is valid and fresh.
 */
describe('end to end: key rotation with a grace period and signed webhooks', () => {
  let pipeline: Pipeline;

  beforeAll(async () => {
    pipeline = await Pipeline.start();
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  /** A management call's status and body, whatever the status. */
  const call = <T>(method: string, path: string, body?: unknown) => pipeline.managementAnswer<T>(method, path, body);

  const integrationPath = (project: Project) => `/projects/${project.id}/alert_integrations/${project.integration.id}`;
  const reset = (project: Project, body?: unknown) => call<IntegrationAnswer>('POST', `${integrationPath(project)}/reset_authorization_key`, body);
  const send = (project: Project, key: string, body: string, headers: Record<string, string> = {}) =>
    post(project.integration.url, body, { headers: { ...bearer(key), ...headers } });
  const deliveryOf = async (project: Project, body: string): Promise<Delivery> => {
    let found: Delivery | undefined;
    await eventually(async () => {
      found = (await pipeline.processorApi<Delivery[]>('GET', `${integrationPath(project)}/deliveries`)).find((entry) => entry.body === body);
      expect(found).toBeDefined();
    }, 15_000, 100);
    return found!;
  };
  const alert = (title: string) => JSON.stringify({ title: `${title} ${randomBytes(4).toString('hex')}` });

  describe('key rotation', () => {
    it('keeps the old key working during the grace period and names the key in deliveries', async () => {
      const project = await pipeline.createProject('free');
      const oldKey = project.integration.authorization_key;
      const before = Date.now();
      const rotated = await reset(project, { grace_period_minutes: 60 });
      expect(rotated.status).toBe(200);
      const newKey = rotated.body.authorization_key;
      expect(newKey).not.toBe(oldKey);
      expect(rotated.body.previous_authorization_key?.authorization_key).toBe(oldKey);
      const expiresAt = Date.parse(rotated.body.previous_authorization_key?.expires_at ?? '');
      expect(expiresAt).toBeGreaterThanOrEqual(before + 60 * 60_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 60 * 60_000);

      const byOld = alert('Old key');
      const byNew = alert('New key');
      const byWrong = alert('Wrong key');
      expect((await send(project, oldKey, byOld)).status).toBe(200);
      expect((await send(project, newKey, byNew)).status).toBe(200);
      expect((await send(project, 'not-a-key-of-this-integration', byWrong)).status).toBe(401);
      expect(await deliveryOf(project, byOld)).toMatchObject({ status: 200, authorization_key: 'previous', authorization_key_expires_at: new Date(expiresAt).toISOString() });
      expect(await deliveryOf(project, byNew)).toMatchObject({ status: 200, authorization_key: 'current', authorization_key_expires_at: null });
      // A refusal is recorded before its body is read: found by its status, with no key named.
      await eventually(async () => {
        const refused = (await pipeline.processorApi<Delivery[]>('GET', `${integrationPath(project)}/deliveries`)).filter((entry) => entry.status === 401);
        expect(refused).toEqual([expect.objectContaining({ error: 'unauthorized', authorization_key: null })]);
      }, 15_000, 100);

      const shown = await call<IntegrationAnswer>('GET', integrationPath(project));
      expect(shown.body.previous_authorization_key).toEqual(rotated.body.previous_authorization_key);
    });

    it('refuses the old key with 401 right after its expiry, decided by the gateway at request time', async () => {
      const project = await pipeline.createProject('free');
      const oldKey = project.integration.authorization_key;
      expect((await reset(project, { grace_period_minutes: 1 })).status).toBe(200);
      // Waiting out a whole minute is slow: bring the stored expiry forward to 3 s from now and
      // publish the integration's snapshot once more (a no-op update). No snapshot follows the
      // expiry instant: the gateway itself refuses the key once the instant has passed.
      const db = new Client({ connectionString: pipeline.database.url });
      await db.connect();
      let expiresAt: number;
      try {
        const updated = await db.query<{ expires_at: Date }>(
          `UPDATE alert_integration_previous_keys SET expires_at = now() + interval '3 seconds' WHERE integration_id = $1 RETURNING expires_at`,
          [project.integration.id],
        );
        expiresAt = updated.rows[0].expires_at.getTime();
      } finally {
        await db.end();
      }
      const republished = await call<IntegrationAnswer>('PUT', integrationPath(project), { active: true });
      expect(republished.body.previous_authorization_key?.expires_at).toBe(new Date(expiresAt).toISOString());

      const beforeExpiry = alert('Before expiry');
      expect((await send(project, oldKey, beforeExpiry)).status).toBe(200);
      expect(Date.now()).toBeLessThan(expiresAt);

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
      const afterExpiry = await send(project, oldKey, alert('After expiry'));
      expect(afterExpiry.status).toBe(401);
      expect(afterExpiry.body).toMatchObject({ error: 'unauthorized' });
      expect((await call<IntegrationAnswer>('GET', integrationPath(project))).body.previous_authorization_key).toBeNull();
      expect(await deliveryOf(project, beforeExpiry)).toMatchObject({ status: 200, authorization_key: 'previous' });
    });

    it('stops the old key at once without a grace period', async () => {
      const project = await pipeline.createProject('free');
      const first = project.integration.authorization_key;
      const immediate = await reset(project);
      expect(immediate.body.previous_authorization_key).toBeNull();
      expect(immediate.body.previous_authorization_keys).toEqual([]);
      expect((await send(project, first, alert('Reset key'))).status).toBe(401);
      expect((await send(project, immediate.body.authorization_key, alert('New key'))).status).toBe(200);
    });

    it('keeps both previous keys of two resets working, each until its own expiry, names each in deliveries, and refuses a third unless revoking', async () => {
      const project = await pipeline.createProject('free');
      const first = project.integration.authorization_key;
      const once = await reset(project, { grace_period_minutes: 60 });
      const second = once.body.authorization_key;
      const twice = await reset(project, { grace_period_minutes: 30 });
      const third = twice.body.authorization_key;
      expect(twice.status).toBe(200);
      const [newer, older] = twice.body.previous_authorization_keys;
      expect([newer.authorization_key, older.authorization_key]).toEqual([second, first]);
      expect(older.expires_at).toBe(once.body.previous_authorization_key?.expires_at);

      const byFirst = alert('First key');
      const bySecond = alert('Second key');
      const byThird = alert('Current key');
      expect((await send(project, first, byFirst)).status).toBe(200);
      expect((await send(project, second, bySecond)).status).toBe(200);
      expect((await send(project, third, byThird)).status).toBe(200);
      // Deliveries tell the previous keys apart by their expiry, as the integration lists them.
      expect(await deliveryOf(project, byFirst)).toMatchObject({ status: 200, authorization_key: 'previous', authorization_key_expires_at: older.expires_at });
      expect(await deliveryOf(project, bySecond)).toMatchObject({ status: 200, authorization_key: 'previous', authorization_key_expires_at: newer.expires_at });
      expect(await deliveryOf(project, byThird)).toMatchObject({ status: 200, authorization_key: 'current', authorization_key_expires_at: null });

      const refused = await call<{ error: string; message: string }>('POST', `${integrationPath(project)}/reset_authorization_key`, { grace_period_minutes: 60 });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('too_many_previous_keys');
      expect(refused.body.message).toContain(older.expires_at);
      expect(refused.body.message).toContain(newer.expires_at);
      expect((await send(project, first, alert('First key after the refused reset'))).status).toBe(200);

      const revoking = await reset(project, { grace_period_minutes: 60, revoke_previous_keys: true });
      expect(revoking.status).toBe(200);
      expect(revoking.body.previous_authorization_keys.map((key) => key.authorization_key)).toEqual([third]);
      await eventually(async () => expect((await send(project, first, alert('Revoked first key'))).status).toBe(401), 5_000, 100);
      expect((await send(project, second, alert('Revoked second key'))).status).toBe(401);
      expect((await send(project, third, alert('Previous key after revoking'))).status).toBe(200);
    });

    it('refuses the older of two previous keys after its own expiry while the newer one keeps working', async () => {
      const project = await pipeline.createProject('free');
      const first = project.integration.authorization_key;
      const second = (await reset(project, { grace_period_minutes: 60 })).body.authorization_key;
      await reset(project, { grace_period_minutes: 60 });
      // Bring the first key's expiry forward to 3 s from now and publish once more (a no-op update).
      const db = new Client({ connectionString: pipeline.database.url });
      await db.connect();
      let expiresAt: number;
      try {
        const updated = await db.query<{ expires_at: Date }>(
          `UPDATE alert_integration_previous_keys SET expires_at = now() + interval '3 seconds'
           WHERE id = (SELECT id FROM alert_integration_previous_keys WHERE integration_id = $1 ORDER BY replaced_at LIMIT 1) RETURNING expires_at`,
          [project.integration.id],
        );
        expiresAt = updated.rows[0].expires_at.getTime();
      } finally {
        await db.end();
      }
      await call<IntegrationAnswer>('PUT', integrationPath(project), { active: true });
      expect((await send(project, first, alert('First key before its expiry'))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
      expect((await send(project, first, alert('First key after its expiry'))).status).toBe(401);
      expect((await send(project, second, alert('Second key'))).status).toBe(200);
      const shown = await call<IntegrationAnswer>('GET', integrationPath(project));
      expect(shown.body.previous_authorization_keys.map((key) => key.authorization_key)).toEqual([second]);
    });

    it('takes grace periods of 0 to 10080 minutes only', async () => {
      const project = await pipeline.createProject('free');
      for (const grace_period_minutes of [-1, 10_081, 1.5, '60']) {
        const refused = await reset(project, { grace_period_minutes });
        expect(refused.status).toBe(400);
      }
      const longest = await reset(project, { grace_period_minutes: 10_080 });
      expect(longest.status).toBe(200);
      expect(Date.parse(longest.body.previous_authorization_key?.expires_at ?? '')).toBeGreaterThan(Date.now() + 7 * 24 * 3_600_000 - 60_000);
    });
  });

  describe('signed webhooks', () => {
    const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

    it('requires a valid, fresh signature once a signing secret is set, and records each refusal with its reason', async () => {
      const project = await pipeline.createProject('premium');
      const key = project.integration.authorization_key;
      const collector = await TopicCollector.published<IntegrationSnapshot.IntegrationSnapshotValue>(testKafka({ logLevel: logLevel.NOTHING }), pipeline.topics.prefix, Topic.Integrations);
      try {
        expect((await call('PUT', integrationPath(project), { signing_secret: 'too-short' })).status).toBe(400);
        const secret = `grafana-secret-${randomBytes(12).toString('hex')}`;
        const set = await call<IntegrationAnswer>('PUT', integrationPath(project), { signing_secret: secret });
        expect(set.status).toBe(200);
        expect(set.body.signing_secret).toBe(secret);
        expect((await call<IntegrationAnswer>('GET', integrationPath(project))).body.signing_secret).toBe(secret);

        // Like a key reset, a new secret takes effect at the gateway within moments of the answer.
        await eventually(async () => expect((await send(project, key, alert('Probe'))).status).toBe(401), 5_000, 100);

        // The secret travels to the gateway encrypted, never in clear.
        const [snapshot] = await collector.waitFor((message) => message.key === String(project.integration.id) && message.value?.signing_secret_encrypted !== undefined);
        expect(JSON.stringify(snapshot.value)).not.toContain(secret);

        const now = () => String(Math.floor(Date.now() / 1000));
        const unsigned = alert('Unsigned');
        const wrong = alert('Wrong signature');
        const stale = alert('Stale signature');
        const grafana = alert('Grafana signed');
        const grafanaTimed = alert('Grafana signed with a timestamp');
        const github = alert('GitHub signed');
        const staleAt = String(Math.floor(Date.now() / 1000) - 6 * 60);

        const refusedUnsigned = await send(project, key, unsigned);
        expect(refusedUnsigned).toMatchObject({ status: 401, body: { error: 'missing_signature' } });
        const wrongAt = now();
        const refusedWrong = await send(project, key, wrong, {
          'X-Grafana-Alerting-Signature': hmac('another-secret-entirely', `${wrongAt}:${wrong}`),
          'X-Grafana-Alerting-Signature-Timestamp': wrongAt,
        });
        expect(refusedWrong).toMatchObject({ status: 401, body: { error: 'invalid_signature' } });
        const refusedStale = await send(project, key, stale, {
          'X-Grafana-Alerting-Signature': hmac(secret, `${staleAt}:${stale}`),
          'X-Grafana-Alerting-Signature-Timestamp': staleAt,
        });
        expect(refusedStale).toMatchObject({ status: 401, body: { error: 'stale_signature' } });
        expect(typeof (refusedStale.body as { message: unknown }).message).toBe('string');

        // Grafana's form needs its timestamp unless the integration allows it (signature-replay.spec.ts).
        expect(await send(project, key, grafana, { 'X-Grafana-Alerting-Signature': hmac(secret, grafana) })).toMatchObject({ status: 401, body: { error: 'missing_signature_timestamp' } });
        const timestamp = now();
        const timedAnswer = await send(project, key, grafanaTimed, {
          'X-Grafana-Alerting-Signature': hmac(secret, `${timestamp}:${grafanaTimed}`),
          'X-Grafana-Alerting-Signature-Timestamp': timestamp,
        });
        expect(timedAnswer.status).toBe(200);
        expect((await send(project, key, github, { 'X-Hub-Signature-256': `sha256=${hmac(secret, github)}` })).status).toBe(200);

        expect(await deliveryOf(project, unsigned)).toMatchObject({ status: 401, error: 'missing_signature', authorization_key: 'current' });
        expect(await deliveryOf(project, wrong)).toMatchObject({ status: 401, error: 'invalid_signature' });
        expect(await deliveryOf(project, stale)).toMatchObject({ status: 401, error: 'stale_signature' });
        expect(await deliveryOf(project, github)).toMatchObject({ status: 200, error: null, authorization_key: 'current' });
        // The key is checked first: a signed request with a wrong key is still a 401 unauthorized.
        expect((await send(project, 'wrong-key', grafana, { 'X-Grafana-Alerting-Signature': hmac(secret, grafana) })).body).toMatchObject({ error: 'unauthorized' });
      } finally {
        await collector.stop();
      }
    });

    it('generates a new secret on reset_signing_secret, and takes unsigned requests again once it is removed', async () => {
      const project = await pipeline.createProject('free');
      const key = project.integration.authorization_key;
      const first = await call<IntegrationAnswer>('POST', `${integrationPath(project)}/reset_signing_secret`);
      expect(first.status).toBe(200);
      expect(first.body.signing_secret).toMatch(/^[0-9a-f]{64}$/);
      const second = await call<IntegrationAnswer>('POST', `${integrationPath(project)}/reset_signing_secret`);
      const secret = second.body.signing_secret ?? '';
      expect(secret).not.toBe(first.body.signing_secret);

      const body = alert('Signed');
      await eventually(async () => {
        const probe = alert('Signed with the first secret');
        expect((await send(project, key, probe, { 'X-Hub-Signature-256': `sha256=${hmac(first.body.signing_secret ?? '', probe)}` })).status).toBe(401);
      }, 5_000, 100);
      expect((await send(project, key, body, { 'X-Hub-Signature-256': `sha256=${hmac(secret, body)}` })).status).toBe(200);

      const removed = await call<IntegrationAnswer>('PUT', integrationPath(project), { signing_secret: null });
      expect(removed.body.signing_secret).toBeNull();
      await eventually(async () => expect((await send(project, key, alert('Unsigned again'))).status).toBe(200), 5_000, 100);
    });
  });
});
