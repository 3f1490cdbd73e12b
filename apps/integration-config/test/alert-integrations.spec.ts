import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { createHash } from 'node:crypto';
import { eventually } from '@alert-ingestion/testing';
import { startTopicReader } from './support/integrations-topic';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

interface Integration {
  id: number;
  name: string;
  type: 'http' | 'external_link';
  active: boolean;
  url: string | null;
  authorization_key: string | null;
  sample_payload: string | null;
  payload_field_mapping: Array<{ field_name: string; path: Array<string | number>; type: string }>;
  api_url: string | null;
  link_deprecation?: { deprecated_in: string; message: string };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const SAMPLE = JSON.stringify({
  summary: 'Disk almost full',
  startsAt: '2026-11-21T10:00:00Z',
  endsAt: null,
  labels: { instance: 'db-1', severity: 'high' },
  targets: ['db-1', 'db-2'],
});

describe('alert integrations (CONTRACT.md "Integrations")', () => {
  let api: ManagementApi;
  let topic: IntegrationRegistry;
  let premium: number;
  let free: number;
  let maintainer: string;

  const path = (project: number, rest = '') => `/projects/${project}/alert_integrations${rest}`;
  const create = (project: number, body: unknown, token = ADMIN_TOKEN) => api.request<Integration>('POST', path(project), { token, body });

  beforeAll(async () => {
    api = await ManagementApi.start({ GATEWAY_PUBLIC_URL: 'https://alerts.example.test/' });
    topic = await startTopicReader(api.topics.prefix);
    premium = await api.createProject('acme/premium', 'premium');
    free = await api.createProject('acme/free', 'free');
    maintainer = await api.member(premium, 'maintainer');
  });

  afterAll(async () => {
    await topic.stop();
    await api.stop();
  });

  describe('roles (spec 1.7, 5.2): maintainer+ manages, developer+ lists without credentials and sends a test alert', () => {
    let project: number;
    let integrationId: number;
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      project = await api.createProject('acme/roles', 'premium');
      for (const level of ['guest', 'reporter', 'developer', 'maintainer', 'owner']) tokens[level] = await api.member(project, level);
      tokens['outsider'] = (await api.createUser('outsider')).token;
      integrationId = (await create(project, { name: 'Roles', active: false })).body.id;
    });

    /** The maintainer+ routes: everything but the list and the test alert. */
    const routes = (): Array<[string, string, unknown]> => [
      ['POST', path(project), { name: `By role ${Math.random()}` }],
      ['GET', path(project, `/${integrationId}`), undefined],
      ['PUT', path(project, `/${integrationId}`), { active: false }],
      ['POST', path(project, `/${integrationId}/reset_authorization_key`), undefined],
      ['POST', path(project, '/parse_sample_payload'), { sample_payload: SAMPLE }],
    ];

    it.each(['guest', 'reporter'])('answers 403 to a %s on the integration list, which is developer+', async (level) => {
      const answer = await api.request('GET', path(project), { token: tokens[level] });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: 'insufficient_role', message: expect.stringContaining('developer') });
    });

    // Our widening of the contract's maintainer+: a developer may send a test alert, so may see which
    // integrations there are, by name, type and status, and nothing that configures or reaches them.
    it.each(['developer', 'maintainer', 'owner'])('lets a %s list the integrations as {id, name, type, active} only', async (level) => {
      const answer = await api.request<Array<Record<string, unknown>>>('GET', path(project), { token: tokens[level] });
      expect(answer.status).toBe(200);
      expect(answer.body).toContainEqual({ id: integrationId, name: 'Roles', type: 'http', active: false });
      for (const item of answer.body) expect(Object.keys(item).sort()).toEqual(['active', 'id', 'name', 'type']);
      expect(JSON.stringify(answer.body)).not.toMatch(/authorization_key|url|sample_payload|payload_field_mapping/);
    });

    it.each(['guest', 'reporter', 'developer'])('answers 403 to a %s on every management route', async (level) => {
      for (const [method, route, body] of routes()) {
        const answer = await api.request(method, route, { token: tokens[level], body });
        expect([method, route, answer.status]).toEqual([method, route, 403]);
        expect(answer.body).toEqual({ error: 'insufficient_role', message: expect.stringContaining('maintainer') });
      }
      expect((await api.request('DELETE', path(project, `/${integrationId}`), { token: tokens[level] })).status).toBe(403);
    });

    it.each(['maintainer', 'owner'])('lets a %s use every management route', async (level) => {
      for (const [method, route, body] of routes()) {
        const answer = await api.request(method, route, { token: tokens[level], body });
        expect([method, route, answer.status]).toEqual([method, route, method === 'POST' && route === path(project) ? 201 : 200]);
      }
    });

    it('answers 404 to a user who is not a member, and for an unknown project; 401 without a valid token', async () => {
      for (const [method, route, body] of [...routes(), ['GET', path(project), undefined] as [string, string, unknown]]) {
        expect((await api.request(method, route, { token: tokens['outsider'], body })).status).toBe(404);
        expect((await api.request(method, route, { body })).status).toBe(401);
        expect((await api.request(method, route, { token: 'wrong', body })).status).toBe(401);
      }
      const unknown = await api.request('GET', path(987654), { token: ADMIN_TOKEN });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'project_not_found', message: 'Project not found.' });
    });

    it('lets a developer, but not a reporter, send a test alert', async () => {
      const route = path(project, `/${integrationId}/test_alert`);
      expect((await api.request('POST', route, { token: tokens['reporter'], body: { payload: '{}' } })).status).toBe(403);
      // The integration is disabled, so the developer gets past the role check to the integration's state.
      const answer = await api.request('POST', route, { token: tokens['developer'], body: { payload: '{"title":"x"}' } });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ error: 'integration_inactive', message: expect.stringContaining('disabled') });
      expect((await api.request('POST', route, { token: tokens['outsider'], body: { payload: '{}' } })).status).toBe(404);
    });
  });

  describe('HTTP Endpoint on the Free tier (spec 1.4, 2.1)', () => {
    it('creates the single endpoint with the default name, its URL and authorization key', async () => {
      const answer = await create(free, { type: 'http', active: true });
      expect(answer.status).toBe(201);
      const integration = answer.body;
      expect(integration).toEqual({
        id: expect.any(Number),
        name: 'HTTP Endpoint',
        type: 'http',
        rate_limit_per_minute: null,
        previous_authorization_key: null,
        previous_authorization_keys: [],
        signing_secret: null,
        allow_signature_without_timestamp: false,
        active: true,
        url: expect.stringMatching(/^https:\/\/alerts\.example\.test\/alerts\/notify\/[A-Za-z0-9_-]{32}\.json$/),
        authorization_key: expect.stringMatching(/^[0-9a-f]{64}$/),
        sample_payload: null,
        payload_field_mapping: [],
        api_url: null,
        heartbeat_interval_minutes: null,
        last_request_at: null,
        heartbeat_status: 'off',
      });

      // The key is kept encrypted (AES-256-GCM) and as SHA-256 for the gateway, never in clear.
      const [row] = await api.sql<{ authorization_key_encrypted: string; authorization_key_sha256: string; url_token: string }>(
        'SELECT authorization_key_encrypted, authorization_key_sha256, url_token FROM alert_integrations WHERE id = $1',
        [integration.id],
      );
      expect(row.authorization_key_encrypted).not.toContain(integration.authorization_key);
      expect(row.authorization_key_encrypted).toMatch(/^v1\./);
      expect(row.authorization_key_sha256).toBe(sha256(integration.authorization_key!));
      expect(integration.url).toContain(row.url_token);

      // Published for the gateway and the processor.
      await eventually(
        () =>
          expect(topic.findById(String(integration.id))).toMatchObject({
            project_id: String(free),
            project_tier: 'free',
            type: 'http',
            name: 'HTTP Endpoint',
            active: true,
            url_token: row.url_token,
            authorization_key_sha256: sha256(integration.authorization_key!),
            payload_field_mapping: [],
            version: 1,
          }),
        5_000,
      );
    });

    it('refuses a second HTTP Endpoint with 403', async () => {
      const answer = await create(free, { type: 'http' });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: 'free_tier_limit', message: expect.stringContaining('single HTTP Endpoint') });
    });

    it('refuses a sample payload, a payload field mapping and the external link with 403', async () => {
      const project = await api.createProject('acme/free-rules', 'free');
      for (const body of [
        { sample_payload: SAMPLE },
        { payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }] },
        { type: 'external_link', api_url: 'https://ops.example.test' },
      ]) {
        const answer = await create(project, body);
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ error: 'premium_required', message: expect.stringContaining('Premium') });
      }
      expect((await api.request<Integration[]>('GET', path(project), { token: ADMIN_TOKEN })).body).toEqual([]);

      const created = await create(project, {});
      expect(created.status).toBe(201);
      const update = await api.request('PUT', path(project, `/${created.body.id}`), { token: ADMIN_TOKEN, body: { sample_payload: SAMPLE } });
      expect(update.status).toBe(403);
      expect((await api.request('POST', path(project, '/parse_sample_payload'), { token: ADMIN_TOKEN, body: { sample_payload: SAMPLE } })).status).toBe(403);
    });
  });

  describe('HTTP Endpoints on the Premium tier', () => {
    it('creates several, each uniquely named (409 for a taken name, 400 without a name)', async () => {
      const first = await create(premium, { name: 'Prometheus', active: true }, maintainer);
      const second = await create(premium, { name: 'Grafana', active: true }, maintainer);
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(first.body.url).not.toBe(second.body.url);
      expect(first.body.authorization_key).not.toBe(second.body.authorization_key);

      const taken = await create(premium, { name: 'Prometheus' }, maintainer);
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ error: 'name_taken', message: expect.stringContaining('Prometheus') });
      const nameless = await create(premium, { type: 'http' }, maintainer);
      expect(nameless.status).toBe(400);
      expect(nameless.body).toMatchObject({ error: 'invalid_name' });
    });

    it('lists integrations as {id, name, type, active}', async () => {
      const project = await api.createProject('acme/list', 'premium');
      const a = await create(project, { name: 'A', active: true });
      const b = await create(project, { name: 'B' });
      const list = await api.request('GET', path(project), { token: ADMIN_TOKEN });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        { id: a.body.id, name: 'A', type: 'http', active: true },
        { id: b.body.id, name: 'B', type: 'http', active: false },
      ]);
    });

    it('takes a sample payload and a payload field mapping, null leaves included, and publishes the mapping', async () => {
      const mapping = [
        { field_name: 'title', path: ['summary'], type: 'string' },
        { field_name: 'start_time', path: ['startsAt'], type: 'datetime' },
        { field_name: 'end_time', path: ['endsAt'], type: 'datetime' },
        { field_name: 'hosts', path: ['targets'], type: 'array' },
        { field_name: 'severity', path: ['labels', 'severity'], type: 'string' },
        { field_name: 'fingerprint', path: ['labels', 'instance'], type: 'string' },
      ];
      const answer = await create(premium, { name: 'Mapped', sample_payload: SAMPLE, payload_field_mapping: mapping }, maintainer);
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ sample_payload: SAMPLE, payload_field_mapping: mapping });
      await eventually(() => expect(topic.findById(String(answer.body.id))?.payload_field_mapping).toEqual(mapping), 5_000);
    });

    it('answers 400 for a sample payload that is not valid JSON, not an object, too deep or too large', async () => {
      const deep = '{"a":'.repeat(101) + '1' + '}'.repeat(101);
      const large = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
      for (const sample of ['{"summary": ', '[1, 2]', deep, large]) {
        const answer = await create(premium, { name: `Bad sample ${sample.length}`, sample_payload: sample }, maintainer);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ error: 'invalid_sample_payload', message: expect.stringMatching(/sample payload/) });
      }
      const notText = await create(premium, { name: 'Object sample', sample_payload: { a: 1 } }, maintainer);
      expect(notText.status).toBe(400);
    });

    it('answers 400 for a mapping whose path is missing from the sample payload or whose type does not fit', async () => {
      const cases = [
        [{ field_name: 'title', path: ['nothing'], type: 'string' }, /does not exist/],
        [{ field_name: 'start_time', path: ['summary'], type: 'datetime' }, /not a datetime/],
        [{ field_name: 'title', path: ['targets'], type: 'array' }, /title accepts string/],
        [{ field_name: 'priority', path: ['summary'], type: 'string' }, /field_name must be one of/],
        [{ field_name: 'title', path: ['labels'], type: 'string' }, /points at an object/],
      ] as const;
      for (const [entry, message] of cases) {
        const answer = await create(premium, { name: 'Bad mapping', sample_payload: SAMPLE, payload_field_mapping: [entry] }, maintainer);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ error: 'invalid_payload_field_mapping', message: expect.stringMatching(message) });
      }
      const withoutSample = await create(premium, { name: 'No sample', payload_field_mapping: [{ field_name: 'title', path: ['a'], type: 'string' }] }, maintainer);
      expect(withoutSample.status).toBe(400);
      // Nothing was half-written by any of these.
      const rows = await api.sql(`SELECT id FROM alert_integrations WHERE name IN ('Bad mapping', 'No sample') OR name LIKE 'Bad sample%'`);
      expect(rows).toEqual([]);
    });

    it('GET one returns the integration with url and authorization_key; 404 for another project or an unknown id', async () => {
      const created = await create(premium, { name: 'Viewable', active: true }, maintainer);
      const answer = await api.request<Integration>('GET', path(premium, `/${created.body.id}`), { token: maintainer });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(created.body);

      const other = await api.createProject('acme/other', 'premium');
      expect((await api.request('GET', path(other, `/${created.body.id}`), { token: ADMIN_TOKEN })).status).toBe(404);
      const unknown = await api.request('GET', path(premium, '/999999'), { token: maintainer });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'integration_not_found', message: 'Integration not found.' });
      expect((await api.request('GET', path(premium, '/not-a-number'), { token: maintainer })).status).toBe(404);
    });

    it('PUT changes name and active, publishing a new version', async () => {
      const created = await create(premium, { name: 'Before' }, maintainer);
      const answer = await api.request<Integration>('PUT', path(premium, `/${created.body.id}`), { token: maintainer, body: { name: 'After', active: true } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id: created.body.id, name: 'After', active: true, authorization_key: created.body.authorization_key });
      await eventually(() => expect(topic.findById(String(created.body.id))).toMatchObject({ name: 'After', active: true, version: 2 }), 5_000);

      expect((await api.request('PUT', path(premium, `/${created.body.id}`), { token: maintainer, body: { name: 'Prometheus' } })).status).toBe(409);
      expect((await api.request('PUT', path(premium, `/${created.body.id}`), { token: maintainer, body: { active: 'yes' } })).status).toBe(400);
      expect((await api.request('PUT', path(premium, `/${created.body.id}`), { token: maintainer, body: { url: 'x' } })).status).toBe(400);
      expect((await api.request('PUT', path(premium, '/999999'), { token: maintainer, body: { active: true } })).status).toBe(404);
    });

    it('PUT with a changed sample payload clears the mapping unless a new mapping comes with it (spec 2.1)', async () => {
      const mapping = [{ field_name: 'title', path: ['summary'], type: 'string' }];
      const created = await create(premium, { name: 'Remap', sample_payload: SAMPLE, payload_field_mapping: mapping }, maintainer);
      const route = path(premium, `/${created.body.id}`);

      const same = await api.request<Integration>('PUT', route, { token: maintainer, body: { sample_payload: SAMPLE } });
      expect(same.body.payload_field_mapping).toEqual(mapping);

      const changedSample = JSON.stringify({ message: 'CPU', host: 'web-1' });
      const cleared = await api.request<Integration>('PUT', route, { token: maintainer, body: { sample_payload: changedSample } });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ sample_payload: changedSample, payload_field_mapping: [] });

      const newMapping = [{ field_name: 'hosts', path: ['host'], type: 'string' }];
      const otherSample = JSON.stringify({ message: 'CPU', host: 'web-2' });
      const remapped = await api.request<Integration>('PUT', route, { token: maintainer, body: { sample_payload: otherSample, payload_field_mapping: newMapping } });
      expect(remapped.body).toMatchObject({ sample_payload: otherSample, payload_field_mapping: newMapping });
      await eventually(() => expect(topic.findById(String(created.body.id))?.payload_field_mapping).toEqual(newMapping), 5_000);
    });

    it('a PUT that breaks a rule changes nothing (one transaction)', async () => {
      const mapping = [{ field_name: 'title', path: ['summary'], type: 'string' }];
      const created = await create(premium, { name: 'Atomic', sample_payload: SAMPLE, payload_field_mapping: mapping }, maintainer);
      const route = path(premium, `/${created.body.id}`);
      const answer = await api.request('PUT', route, {
        token: maintainer,
        body: { name: 'Atomic renamed', active: true, sample_payload: '{"other": 1}', payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }] },
      });
      expect(answer.status).toBe(400);
      const after = await api.request<Integration>('GET', route, { token: maintainer });
      expect(after.body).toEqual(created.body);
      const [row] = await api.sql<{ version: number }>('SELECT version FROM alert_integrations WHERE id = $1', [created.body.id]);
      expect(row.version).toBe(1);
    });

    it('DELETE removes the integration (204) and publishes a tombstone', async () => {
      const created = await create(premium, { name: 'Doomed', active: true }, maintainer);
      await eventually(() => expect(topic.findById(String(created.body.id))).toBeDefined(), 5_000);
      const answer = await api.request('DELETE', path(premium, `/${created.body.id}`), { token: maintainer });
      expect(answer.status).toBe(204);
      expect(answer.body).toBeUndefined();
      expect((await api.request('GET', path(premium, `/${created.body.id}`), { token: maintainer })).status).toBe(404);
      expect((await api.request('DELETE', path(premium, `/${created.body.id}`), { token: maintainer })).status).toBe(404);
      await eventually(() => expect(topic.findById(String(created.body.id))).toBeUndefined(), 5_000);
    });

    it('reset_authorization_key issues a new key and publishes its hash', async () => {
      const created = await create(premium, { name: 'Resettable', active: true }, maintainer);
      const answer = await api.request<Integration>('POST', path(premium, `/${created.body.id}/reset_authorization_key`), { token: maintainer });
      expect(answer.status).toBe(200);
      expect(answer.body.authorization_key).toMatch(/^[0-9a-f]{64}$/);
      expect(answer.body.authorization_key).not.toBe(created.body.authorization_key);
      expect(answer.body).toMatchObject({ id: created.body.id, url: created.body.url, name: 'Resettable' });
      await eventually(
        () => expect(topic.findById(String(created.body.id))?.authorization_key_sha256).toBe(sha256(answer.body.authorization_key!)),
        2_000,
      );
      const viewed = await api.request<Integration>('GET', path(premium, `/${created.body.id}`), { token: maintainer });
      expect(viewed.body.authorization_key).toBe(answer.body.authorization_key);
      expect((await api.request('POST', path(premium, '/999999/reset_authorization_key'), { token: maintainer })).status).toBe(404);
    });
  });

  describe('key rotation: every previous key until its own expiry, at most two', () => {
    interface Rotated extends Integration {
      previous_authorization_key: { authorization_key: string; expires_at: string } | null;
      previous_authorization_keys: Array<{ authorization_key: string; expires_at: string }>;
    }
    const reset = (id: number, body?: unknown) => api.request<Rotated>('POST', path(premium, `/${id}/reset_authorization_key`), { token: maintainer, body });

    it('keeps the first previous key through a second reset, lists both, and publishes both hashes', async () => {
      const created = await create(premium, { name: 'Rotated twice', active: true }, maintainer);
      const first = created.body.authorization_key!;
      const once = await reset(created.body.id, { grace_period_minutes: 120 });
      const second = once.body.authorization_key!;
      const twice = await reset(created.body.id, { grace_period_minutes: 30 });
      expect(twice.status).toBe(200);
      const [newest, oldest] = twice.body.previous_authorization_keys;
      expect(twice.body.previous_authorization_keys.map((key) => key.authorization_key)).toEqual([second, first]);
      // Each keeps the expiry its own reset promised: the first one's 2 hours are not cut short.
      expect(oldest.expires_at).toBe(once.body.previous_authorization_key?.expires_at);
      expect(Date.parse(newest.expires_at)).toBeLessThan(Date.parse(oldest.expires_at));
      expect(twice.body.previous_authorization_key).toEqual(newest);
      expect((await api.request<Rotated>('GET', path(premium, `/${created.body.id}`), { token: maintainer })).body.previous_authorization_keys).toEqual(
        twice.body.previous_authorization_keys,
      );
      await eventually(
        () =>
          expect(topic.findById(String(created.body.id))).toMatchObject({
            authorization_key_sha256: sha256(twice.body.authorization_key!),
            previous_authorization_keys: [
              { authorization_key_sha256: sha256(second), expires_at: newest.expires_at },
              { authorization_key_sha256: sha256(first), expires_at: oldest.expires_at },
            ],
            previous_authorization_key_sha256: sha256(second),
          }),
        5_000,
      );
    });

    it('refuses a reset that would need a third previous key with 409 naming both expiries, unless it revokes them', async () => {
      const created = await create(premium, { name: 'Rotated thrice', active: true }, maintainer);
      await reset(created.body.id, { grace_period_minutes: 60 });
      const twice = await reset(created.body.id, { grace_period_minutes: 60 });
      const refused = await api.request<{ error: string; message: string }>('POST', path(premium, `/${created.body.id}/reset_authorization_key`), {
        token: maintainer,
        body: { grace_period_minutes: 60 },
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: 'too_many_previous_keys', message: expect.stringContaining('revoke_previous_keys') });
      for (const key of twice.body.previous_authorization_keys) expect(refused.body.message).toContain(key.expires_at);
      // Nothing changed: the current key and both previous keys stand.
      const unchanged = await api.request<Rotated>('GET', path(premium, `/${created.body.id}`), { token: maintainer });
      expect(unchanged.body.authorization_key).toBe(twice.body.authorization_key);
      expect(unchanged.body.previous_authorization_keys).toEqual(twice.body.previous_authorization_keys);

      expect((await reset(created.body.id, { grace_period_minutes: 60, revoke_previous_keys: 'yes' })).status).toBe(400);
      // Without a grace period no third is needed: the current key stops, the previous two keep working.
      const immediate = await reset(created.body.id, { grace_period_minutes: 0 });
      expect(immediate.status).toBe(200);
      expect(immediate.body.previous_authorization_keys).toEqual(twice.body.previous_authorization_keys);

      const revoking = await reset(created.body.id, { grace_period_minutes: 60, revoke_previous_keys: true });
      expect(revoking.status).toBe(200);
      expect(revoking.body.previous_authorization_keys.map((key) => key.authorization_key)).toEqual([immediate.body.authorization_key]);
      await eventually(() => expect(topic.findById(String(created.body.id))?.previous_authorization_keys).toHaveLength(1), 5_000);
    });

    it('no longer counts a previous key once it has expired', async () => {
      const created = await create(premium, { name: 'Rotated after expiry', active: true }, maintainer);
      await reset(created.body.id, { grace_period_minutes: 60 });
      await reset(created.body.id, { grace_period_minutes: 60 });
      // Waiting out an hour is slow: the oldest previous key expires now.
      await api.sql(
        `UPDATE alert_integration_previous_keys SET expires_at = now() - interval '1 second'
         WHERE id = (SELECT id FROM alert_integration_previous_keys WHERE integration_id = $1 ORDER BY replaced_at LIMIT 1)`,
        [created.body.id],
      );
      const shown = await api.request<Rotated>('GET', path(premium, `/${created.body.id}`), { token: maintainer });
      expect(shown.body.previous_authorization_keys).toHaveLength(1);
      const third = await reset(created.body.id, { grace_period_minutes: 60 });
      expect(third.status).toBe(200);
      expect(third.body.previous_authorization_keys).toHaveLength(2);
    });
  });

  describe('POST parse_sample_payload ("Parse payload for custom mapping")', () => {
    it('lists every leaf and array of the sample payload, null leaves included', async () => {
      const answer = await api.request('POST', path(premium, '/parse_sample_payload'), { token: maintainer, body: { sample_payload: SAMPLE } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        payload_alert_fields: [
          { path: ['summary'], label: 'summary', type: 'string' },
          { path: ['startsAt'], label: 'startsAt', type: 'datetime' },
          { path: ['endsAt'], label: 'endsAt', type: 'string' },
          { path: ['labels', 'instance'], label: 'labels.instance', type: 'string' },
          { path: ['labels', 'severity'], label: 'labels.severity', type: 'string' },
          { path: ['targets'], label: 'targets', type: 'array' },
          { path: ['targets', 0], label: 'targets[0]', type: 'string' },
          { path: ['targets', 1], label: 'targets[1]', type: 'string' },
        ],
      });
    });

    it('answers 400 when the sample payload is not valid JSON or missing', async () => {
      const answer = await api.request('POST', path(premium, '/parse_sample_payload'), { token: maintainer, body: { sample_payload: '{"a": }' } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_sample_payload', message: expect.stringContaining('not valid JSON') });
      expect((await api.request('POST', path(premium, '/parse_sample_payload'), { token: maintainer, body: {} })).status).toBe(400);
    });
  });

  describe('POST :iid/preview (what a payload would become; nothing stored)', () => {
    const mapping = [
      { field_name: 'title', path: ['summary'], type: 'string' },
      { field_name: 'hosts', path: ['targets'], type: 'array' },
    ];
    let mapped: Integration;

    beforeAll(async () => {
      mapped = (await create(premium, { name: 'Preview me', sample_payload: SAMPLE, payload_field_mapping: mapping })).body;
    });

    it('applies the saved mapping, with every normalised field', async () => {
      const answer = await api.request('POST', path(premium, `/${mapped.id}/preview`), { token: maintainer, body: { payload: SAMPLE } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        alerts: [
          {
            title: 'Disk almost full',
            description: null,
            severity: 'critical',
            started_at: expect.any(String),
            ended_at: null,
            service: null,
            monitoring_tool: null,
            hosts: ['db-1', 'db-2'],
            fingerprint: null,
            grouping_key: expect.stringMatching(/^[0-9a-f]{64}$/),
            platform_environment_name: null,
            payload: JSON.parse(SAMPLE),
          },
        ],
      });
    });

    it('applies a proposed mapping instead, without saving it', async () => {
      const proposed = [
        { field_name: 'title', path: ['labels', 'instance'], type: 'string' },
        { field_name: 'severity', path: ['labels', 'severity'], type: 'string' },
        { field_name: 'start_time', path: ['startsAt'], type: 'datetime' },
      ];
      const answer = await api.request<{ alerts: Array<Record<string, unknown>> }>('POST', path(premium, `/${mapped.id}/preview`), {
        token: maintainer,
        body: { payload: SAMPLE, payload_field_mapping: proposed },
      });
      expect(answer.body.alerts[0]).toMatchObject({ title: 'db-1', severity: 'high', started_at: '2026-11-21T10:00:00.000Z', hosts: [] });
      expect((await api.request<Integration>('GET', path(premium, `/${mapped.id}`), { token: maintainer })).body.payload_field_mapping).toEqual(mapping);
      expect(await api.sql('SELECT 1 FROM alerts')).toEqual([]);
    });

    it('answers 400 for a payload that is not JSON or a mapping that does not fit it, 403 below maintainer and for a mapping on Free', async () => {
      expect((await api.request('POST', path(premium, `/${mapped.id}/preview`), { token: maintainer, body: { payload: '{"summary":' } })).body).toMatchObject({
        error: 'invalid_json',
      });
      const missingPath = [{ field_name: 'title', path: ['nowhere'], type: 'string' }];
      expect((await api.request('POST', path(premium, `/${mapped.id}/preview`), { token: maintainer, body: { payload: SAMPLE, payload_field_mapping: missingPath } })).status).toBe(400);
      const developer = await api.member(premium, 'developer');
      expect((await api.request('POST', path(premium, `/${mapped.id}/preview`), { token: developer, body: { payload: SAMPLE } })).status).toBe(403);
      const freeEndpoint = (await create(free, { active: false })).body;
      const freeId = freeEndpoint.id ?? (await api.request<Integration[]>('GET', path(free), { token: ADMIN_TOKEN })).body[0].id;
      const onFree = await api.request('POST', path(free, `/${freeId}/preview`), {
        token: ADMIN_TOKEN,
        body: { payload: SAMPLE, payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }] },
      });
      expect(onFree).toMatchObject({ status: 403, body: { error: 'premium_required' } });
      expect((await api.request('POST', path(free, `/${freeId}/preview`), { token: ADMIN_TOKEN, body: { payload: SAMPLE } })).body).toMatchObject({
        alerts: [{ title: 'New: Alert' }],
      });
    });
  });

  describe('GET :iid/test_alert and POST :iid/test_alert/preview (developer+: what a test alert is written from, under the own mapping)', () => {
    const mapping = [
      { field_name: 'title', path: ['summary'], type: 'string' },
      { field_name: 'severity', path: ['labels', 'severity'], type: 'string' },
    ];
    let project: number;
    let mapped: Integration;
    let developer: string;
    let reporter: string;

    beforeAll(async () => {
      project = await api.createProject('acme/test-alert-sample', 'premium');
      mapped = (await create(project, { name: 'Test alert sample', sample_payload: SAMPLE, payload_field_mapping: mapping, active: true })).body;
      developer = await api.member(project, 'developer');
      reporter = await api.member(project, 'reporter');
    });

    it('gives a developer the sample payload and whether a custom mapping applies, never the URL, key or mapping', async () => {
      const answer = await api.request('GET', path(project, `/${mapped.id}/test_alert`), { token: developer });
      expect(answer).toMatchObject({ status: 200, body: { sample_payload: SAMPLE, custom_mapping: true } });
      expect(Object.keys(answer.body as object).sort()).toEqual(['custom_mapping', 'sample_payload']);
      expect(JSON.stringify(answer.body)).not.toContain(mapped.authorization_key!);
      expect(JSON.stringify(answer.body)).not.toContain(mapped.url!.split('/').pop()!.replace('.json', ''));

      const plain = (await create(project, { name: 'No sample' })).body;
      expect((await api.request('GET', path(project, `/${plain.id}/test_alert`), { token: developer })).body).toEqual({ sample_payload: null, custom_mapping: false });
      const link = (await create(project, { type: 'external_link', name: 'Link', active: false, api_url: 'https://incidents.example.test/api' })).body;
      expect((await api.request('GET', path(project, `/${link.id}/test_alert`), { token: developer })).status).toBe(409);
    });

    it("previews a test payload for a developer under the integration's own mapping, the maintainers' preview's answer", async () => {
      const answer = await api.request<{ alerts: Array<Record<string, unknown>> }>('POST', path(project, `/${mapped.id}/test_alert/preview`), {
        token: developer,
        body: { payload: SAMPLE },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.alerts).toHaveLength(1);
      expect(answer.body.alerts[0]).toMatchObject({ title: 'Disk almost full', severity: 'high', payload: JSON.parse(SAMPLE) });
      const maintainers = await api.request('POST', path(project, `/${mapped.id}/preview`), { token: ADMIN_TOKEN, body: { payload: SAMPLE } });
      expect({ ...answer.body.alerts[0], started_at: null }).toEqual({ ...(maintainers.body as { alerts: object[] }).alerts[0], started_at: null });
      expect(await api.sql('SELECT 1 FROM alerts WHERE integration_id = $1', [mapped.id])).toEqual([]);
    });

    it('lets a developer try no other mapping, and refuses a payload that is not JSON', async () => {
      const proposed = [{ field_name: 'title', path: ['labels', 'instance'], type: 'string' }];
      const answer = await api.request('POST', path(project, `/${mapped.id}/test_alert/preview`), { token: developer, body: { payload: SAMPLE, payload_field_mapping: proposed } });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: expect.any(String), message: expect.stringContaining('payload_field_mapping') });
      expect((await api.request('POST', path(project, `/${mapped.id}/test_alert/preview`), { token: developer, body: { payload: '{"summary":' } })).body).toMatchObject({
        error: 'invalid_json',
      });
      // The integration's settings, its preview under other mappings and its key stay maintainer+.
      for (const [method, route, body] of [
        ['GET', `/${mapped.id}`, undefined],
        ['POST', `/${mapped.id}/preview`, { payload: SAMPLE, payload_field_mapping: proposed }],
        ['PUT', `/${mapped.id}`, { payload_field_mapping: proposed }],
        ['POST', `/${mapped.id}/reset_authorization_key`, undefined],
      ] as Array<[string, string, unknown]>) {
        expect([method, route, (await api.request(method, path(project, route), { token: developer, body })).status]).toEqual([method, route, 403]);
      }
    });

    it('answers 403 to a reporter on both, 404 for an integration of another project', async () => {
      expect((await api.request('GET', path(project, `/${mapped.id}/test_alert`), { token: reporter })).status).toBe(403);
      const preview = await api.request('POST', path(project, `/${mapped.id}/test_alert/preview`), { token: reporter, body: { payload: SAMPLE } });
      expect(preview).toMatchObject({ status: 403, body: { error: 'insufficient_role', message: expect.stringContaining('developer') } });
      expect((await api.request('GET', path(free, `/${mapped.id}/test_alert`), { token: ADMIN_TOKEN })).status).toBe(404);
    });
  });

  describe('rate_limit_per_minute (the gateway takes this many requests per minute)', () => {
    it('is shown, set, cleared and published in the snapshot', async () => {
      const created = (await create(premium, { name: 'Limited', rate_limit_per_minute: 600 })).body as Integration & { rate_limit_per_minute: number | null };
      expect(created.rate_limit_per_minute).toBe(600);
      await eventually(() => expect(topic.findById(String(created.id))?.rate_limit_per_minute).toBe(600));
      const changed = await api.request<{ rate_limit_per_minute: number | null }>('PUT', path(premium, `/${created.id}`), { token: maintainer, body: { rate_limit_per_minute: null } });
      expect(changed.body.rate_limit_per_minute).toBeNull();
      await eventually(() => expect(topic.findById(String(created.id))?.rate_limit_per_minute).toBeUndefined());
      for (const limit of [0, 1.5, 'many']) {
        expect((await api.request('PUT', path(premium, `/${created.id}`), { token: maintainer, body: { rate_limit_per_minute: limit } })).status).toBe(400);
      }
    });
  });

  describe('heartbeat_interval_minutes (a request is expected at least this often)', () => {
    it('is shown with the status, set, cleared and published in the snapshot; 1 to 1440 minutes', async () => {
      const created = (await create(premium, { name: 'Watched', active: true, heartbeat_interval_minutes: 5 })).body;
      expect(created).toMatchObject({ heartbeat_interval_minutes: 5, last_request_at: null, heartbeat_status: 'waiting' });
      await eventually(() => expect(topic.findById(String(created.id))?.heartbeat_interval_minutes).toBe(5));
      const inactive = await api.request<Integration>('PUT', path(premium, `/${created.id}`), { token: maintainer, body: { active: false } });
      expect(inactive.body).toMatchObject({ heartbeat_interval_minutes: 5, heartbeat_status: 'off' });
      const cleared = await api.request<Integration>('PUT', path(premium, `/${created.id}`), { token: maintainer, body: { heartbeat_interval_minutes: null } });
      expect(cleared.body).toMatchObject({ heartbeat_interval_minutes: null, heartbeat_status: 'off' });
      await eventually(() => expect(topic.findById(String(created.id))?.heartbeat_interval_minutes).toBeUndefined());
      for (const minutes of [0, 1441, 1.5, 'often']) {
        expect((await api.request('PUT', path(premium, `/${created.id}`), { token: maintainer, body: { heartbeat_interval_minutes: minutes } })).status).toBe(400);
      }
      expect((await api.request('PUT', path(premium, `/${created.id}`), { token: maintainer, body: { heartbeat_interval_minutes: 0 } })).body).toMatchObject({
        error: 'invalid_heartbeat_interval',
      });
    });
  });

  describe('external link integration (spec 2.3, Premium)', () => {
    let project: number;

    beforeAll(async () => {
      project = await api.createProject('acme/external', 'premium');
    });

    it('needs an http(s) api_url (400)', async () => {
      for (const body of [{ type: 'external_link' }, { type: 'external_link', api_url: 'ftp://ops.example.test' }, { type: 'external_link', api_url: 'nope' }]) {
        const answer = await create(project, body);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: 'invalid_api_url' });
      }
    });

    it('cannot be active while another integration is active, and the other way round (409 naming the conflict)', async () => {
      const http = await create(project, { name: 'Active endpoint', active: true });
      const link = await create(project, { type: 'external_link', api_url: 'https://ops.example.test/alerts', active: true });
      expect(link.status).toBe(409);
      expect(link.body).toEqual({ error: 'active_integration_conflict', message: expect.stringContaining(`"Active endpoint" (id ${http.body.id})`) });

      const inactiveLink = await create(project, { type: 'external_link', api_url: 'https://ops.example.test/alerts', active: false });
      expect(inactiveLink.status).toBe(201);
      expect(inactiveLink.body).toEqual({
        id: expect.any(Number),
        name: 'External incident management',
        type: 'external_link',
        rate_limit_per_minute: null,
        previous_authorization_key: null,
        previous_authorization_keys: [],
        signing_secret: null,
        allow_signature_without_timestamp: false,
        active: false,
        url: null,
        authorization_key: null,
        sample_payload: null,
        payload_field_mapping: [],
        api_url: 'https://ops.example.test/alerts',
        heartbeat_interval_minutes: null,
        last_request_at: null,
        heartbeat_status: 'off',
        link_deprecation: { deprecated_in: '13.8', message: expect.stringContaining('deprecated from release 13.8') },
      });
      const linkRoute = path(project, `/${inactiveLink.body.id}`);
      expect((await api.request('PUT', linkRoute, { token: ADMIN_TOKEN, body: { active: true } })).status).toBe(409);

      await api.request('PUT', path(project, `/${http.body.id}`), { token: ADMIN_TOKEN, body: { active: false } });
      const enabled = await api.request<Integration>('PUT', linkRoute, { token: ADMIN_TOKEN, body: { active: true } });
      expect(enabled.status).toBe(200);
      expect(enabled.body.active).toBe(true);

      const blocked = await api.request('PUT', path(project, `/${http.body.id}`), { token: ADMIN_TOKEN, body: { active: true } });
      expect(blocked.status).toBe(409);
      expect(blocked.body).toMatchObject({ error: 'active_integration_conflict', message: expect.stringContaining('external link integration') });
      expect((await create(project, { name: 'New active', active: true })).status).toBe(409);
      expect((await create(project, { name: 'New inactive', active: false })).status).toBe(201);
    });

    it('exists once per project and takes no sample payload (409, 400)', async () => {
      expect((await create(project, { type: 'external_link', api_url: 'https://x.example.test' })).status).toBe(409);
      const other = await api.createProject('acme/external-2', 'premium');
      expect((await create(other, { type: 'external_link', api_url: 'https://x.example.test', sample_payload: SAMPLE })).status).toBe(400);
    });
  });
});
