import { MAX_ALERT_BODY_BYTES } from '@alert-ingestion/contracts';
import { eventually } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { basic, bearer, post } from './support/http-client';
import { ADMIN_TOKEN, Pipeline, Project } from './support/pipeline';

interface Delivery {
  id: number;
  received_at: string;
  request_id: string;
  status: number;
  error: string | null;
  alerts: Array<{ iid: number; title: string }>;
  body: string;
  body_size: number;
  body_truncated: boolean;
  authorization_key: 'current' | 'previous' | null;
  authorization_key_expires_at: string | null;
}

/**
 * Deliveries (CONTRACT.md "deliveries"): what monitoring tools sent to an integration's URL and what
 * became of it, refusals included, recorded off the request path and never with a credential.
 */
describe('end to end: deliveries', () => {
  let pipeline: Pipeline;
  let project: Project;

  beforeAll(async () => {
    pipeline = await Pipeline.start({ gateway: { GATEWAY_REPLY_TIMEOUT_MS: '1500' } });
    project = await pipeline.createProject('premium');
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  const url = () => project.integration.url;
  const key = () => project.integration.authorization_key;
  const deliveries = () =>
    pipeline.processorApi<Delivery[]>('GET', `/projects/${project.id}/alert_integrations/${project.integration.id}/deliveries`);
  const deliveryOf = async (match: (delivery: Delivery) => boolean): Promise<Delivery> => {
    let found: Delivery | undefined;
    await eventually(async () => {
      found = (await deliveries()).find(match);
      expect(found).toBeDefined();
    }, 15_000, 100);
    return found!;
  };

  it('records an accepted alert with its answer and the body exactly as sent', async () => {
    const body = `{ "title" : "Disk full",\n  "hosts": [ "db-1" ] }`;
    const answer = await post(url(), body, { headers: bearer(key()) });
    expect(answer.status).toBe(200);
    const delivery = await deliveryOf((entry) => entry.body === body);
    expect(delivery).toEqual({
      id: expect.any(Number),
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      request_id: expect.any(String),
      status: 200,
      error: null,
      alerts: answer.body,
      body,
      body_size: Buffer.byteLength(body),
      body_truncated: false,
      authorization_key: 'current',
      authorization_key_expires_at: null,
    });
  });

  it('records refusals of the URL (400, 401, 413) with what was read of the body, and not a 404', async () => {
    const marker = randomBytes(4).toString('hex');
    const notJson = `{"title": "broken ${marker}"`;
    expect((await post(url(), notJson, { headers: bearer(key()) })).status).toBe(400);
    const unauthorised = JSON.stringify({ title: `no key ${marker}` });
    expect((await post(url(), unauthorised, { headers: bearer('wrong-key') })).status).toBe(401);
    const tooLarge = Buffer.from(`{"title":"big ${marker}","blob":"${'x'.repeat(MAX_ALERT_BODY_BYTES)}"}`);
    expect((await post(url(), tooLarge, { headers: bearer(key()), chunkBytes: 64 * 1024 })).status).toBe(413);
    expect((await post(url().replace(/[^/]+\.json$/, 'no-such-token.json'), JSON.stringify({ title: marker }), { headers: bearer(key()) })).status).toBe(404);

    expect(await deliveryOf((entry) => entry.body === notJson)).toMatchObject({ status: 400, error: 'invalid_json', alerts: [], body_truncated: false });
    // Refused before the body is read: the size is the declared one, the body is not kept.
    expect(await deliveryOf((entry) => entry.status === 401)).toMatchObject({
      error: 'unauthorized',
      body: '',
      body_size: Buffer.byteLength(unauthorised),
      body_truncated: true,
    });
    const large = await deliveryOf((entry) => entry.status === 413);
    expect(large).toMatchObject({ error: 'payload_too_large', body_truncated: true });
    expect(Buffer.byteLength(large.body)).toBe(64 * 1024);
    expect(large.body.startsWith(`{"title":"big ${marker}"`)).toBe(true);
    expect(large.body_size).toBeGreaterThan(MAX_ALERT_BODY_BYTES);
    expect((await deliveries()).some((entry) => entry.body.includes(`"title":"${marker}"`))).toBe(false);
  });

  it('records a 202 at once and updates it once the alert is processed', async () => {
    // A lock the batch transaction waits for keeps the alert from being processed in time.
    const blocker = new Client({ connectionString: pipeline.database.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE alert_iid_counters IN ACCESS EXCLUSIVE MODE');
    const body = JSON.stringify({ title: `Slow ${randomBytes(4).toString('hex')}` });
    try {
      const answer = await post(url(), body, { headers: bearer(key()) });
      expect(answer.status).toBe(202);
      const pending = await deliveryOf((entry) => entry.body === body);
      expect(pending).toMatchObject({ status: 202, request_id: (answer.body as { request_id: string }).request_id, alerts: [] });
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    await eventually(async () => {
      const processed = (await deliveries()).find((entry) => entry.body === body);
      expect(processed).toMatchObject({ status: 200, alerts: [{ iid: expect.any(Number), title: JSON.parse(body).title }] });
    }, 20_000, 200);
  });

  it('never stores a credential: not the key, not its Basic form, not credentials written in the URL', async () => {
    const title = `credentials ${randomBytes(4).toString('hex')}`;
    expect((await post(url(), JSON.stringify({ title }), { headers: basic('', key()) })).status).toBe(200);
    const withCredentials = url().replace('://', `://:${key()}@`);
    expect((await post(withCredentials, JSON.stringify({ title }), {})).status).toBe(200);
    expect((await post(url(), JSON.stringify({ title }), { headers: basic('', 'wrong') })).status).toBe(401);
    const client = new Client({ connectionString: pipeline.database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ everything: string }>('SELECT string_agg(row_to_json(d)::text, E\'\\n\') AS everything FROM alert_deliveries d');
      for (const secret of [key(), Buffer.from(`:${key()}`).toString('base64'), Buffer.from(':wrong').toString('base64')]) {
        expect(rows[0].everything).not.toContain(secret);
      }
    } finally {
      await client.end();
    }
  });

  it('lists the newest first, and answers 404 for an integration of another project', async () => {
    const listed = await deliveries();
    const times = listed.map((entry) => Date.parse(entry.received_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const other = await pipeline.createProject('free');
    const response = await fetch(`${pipeline.processor.url}/api/v4/projects/${other.id}/alert_integrations/${project.integration.id}/deliveries`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'integration_not_found', message: 'Integration not found.' });
  });
});
