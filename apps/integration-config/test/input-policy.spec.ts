import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

/** A stand-in for alert-processor's alerts API that counts what reaches it. */
async function startProcessorStandIn(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server: Server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const nul = (field: string, where = 'The field') => ({
  error: 'invalid_text',
  message: `${where} ${field} contains a NUL character (U+0000), which text may not contain.`,
});

/**
 * The input policy of the management API (docs/operating.md "Input policy and limits"): text PostgreSQL cannot
 * store is refused with 400 naming the field, and JSON bodies are held to a depth and a size, so that
 * no input ends in a 500.
 */
describe('integration-config: input policy and limits', () => {
  let api: ManagementApi;
  let processor: Awaited<ReturnType<typeof startProcessorStandIn>>;
  let premium: number;
  let integrationId: number;

  beforeAll(async () => {
    processor = await startProcessorStandIn();
    api = await ManagementApi.start({ ALERT_PROCESSOR_URL: processor.url }, undefined, { consoleDir: null });
    premium = await api.createProject('input/policy', 'premium');
    const created = await api.request<{ id: number }>('POST', `/projects/${premium}/alert_integrations`, {
      token: ADMIN_TOKEN,
      body: { type: 'http', name: 'Prometheus', active: true },
    });
    integrationId = created.body.id;
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await processor?.close();
  });

  describe('text with NUL or an unpaired UTF-16 surrogate', () => {
    it('refuses a NUL in a query parameter with 400 naming it', async () => {
      for (const query of ['search=%00', 'search=a%00b&page=1']) {
        const answer = await api.request('GET', `/projects?${query}`, { token: ADMIN_TOKEN });
        expect([query, answer.status, answer.body]).toEqual([query, 400, nul('search', 'The query parameter')]);
      }
    });

    it('refuses a NUL in a body field of a create and an update with 400 naming it', async () => {
      const created = await api.request('POST', `/projects/${premium}/alert_integrations`, { token: ADMIN_TOKEN, body: { type: 'http', name: 'n\u0000x' } });
      expect([created.status, created.body]).toEqual([400, nul('name')]);
      const updated = await api.request('PUT', `/projects/${premium}/alert_integrations/${integrationId}`, { token: ADMIN_TOKEN, body: { name: 'n\u0000x' } });
      expect([updated.status, updated.body]).toEqual([400, nul('name')]);
      const mapping = await api.request('PUT', `/projects/${premium}/alert_integrations/${integrationId}`, {
        token: ADMIN_TOKEN,
        body: { payload_field_mapping: [{ field_name: 'title', path: ['a', 'b\u0000'], type: 'string' }] },
      });
      expect([mapping.status, mapping.body]).toEqual([400, nul('payload_field_mapping[0].path[1]')]);
      const integration = await api.request<{ name: string }>('GET', `/projects/${premium}/alert_integrations/${integrationId}`, { token: ADMIN_TOKEN });
      expect(integration.body.name).toBe('Prometheus');
    });

    it('refuses an unpaired surrogate the same way', async () => {
      const answer = await api.request('POST', `/projects/${premium}/alert_integrations`, {
        token: ADMIN_TOKEN,
        body: '{"type":"http","name":"n\\udc00x"}',
      });
      expect([answer.status, answer.body]).toEqual([
        400,
        { error: 'invalid_text', message: 'The field name contains an unpaired UTF-16 surrogate (U+DC00), which text may not contain.' },
      ]);
    });

    it('refuses a NUL in the path', async () => {
      const answer = await api.request('GET', `/deprecations/upgrade_report%00?from=14.5&to=15.0`);
      expect([answer.status, answer.body]).toEqual([400, { error: 'invalid_text', message: 'The path contains a NUL character (U+0000), which text may not contain.' }]);
    });

    it('refuses a NUL in the query of a proxied alerts request before it reaches alert-processor', async () => {
      processor.received.splice(0);
      const answer = await api.request('GET', `/projects/${premium}/alerts?search=a%00b`, { token: ADMIN_TOKEN });
      expect([answer.status, answer.body]).toEqual([400, nul('search', 'The query parameter')]);
      expect(processor.received).toEqual([]);
      const allowed = await api.request('GET', `/projects/${premium}/alerts?search=a%C3%BCb`, { token: ADMIN_TOKEN });
      expect(allowed.status).toBe(200);
      expect(processor.received).toEqual([`GET /api/v4/projects/${premium}/alerts?search=a%C3%BCb`]);
    });

    it('keeps text that merely looks like an escape, and paired surrogates', async () => {
      const answer = await api.request<{ name: string }>('POST', `/projects/${premium}/alert_integrations`, {
        token: ADMIN_TOKEN,
        body: { type: 'http', name: 'literal \\u0000 and 😀' },
      });
      expect(answer.status).toBe(201);
      expect(answer.body.name).toBe('literal \\u0000 and 😀');
    });
  });

  describe('JSON body limits', () => {
    it('refuses a body nested 10,000 deep with 400, not a 500', async () => {
      const answer = await api.request('POST', '/users', { token: ADMIN_TOKEN, body: `{"username":${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
      expect([answer.status, answer.body]).toEqual([400, { error: 'payload_too_deep', message: 'The request body is nested deeper than 100 levels.' }]);
      const shallow = await api.request('POST', '/users', { token: ADMIN_TOKEN, body: `{"username":${'['.repeat(99)}${']'.repeat(99)}}` });
      expect(shallow.status).toBe(400);
      expect(shallow.body).toMatchObject({ error: 'validation_failed' });
    });

    it('refuses a body above 3 MiB with 413, and takes a 1 MiB payload escaped as a JSON string', async () => {
      const tooLarge = await api.request('POST', '/users', { token: ADMIN_TOKEN, body: JSON.stringify({ username: 'x'.repeat(3 * 1024 * 1024) }) });
      expect([tooLarge.status, tooLarge.body]).toEqual([413, { error: 'payload_too_large', message: 'The request body is larger than 3145728 bytes (3 MiB).' }]);

      // The largest legitimate body: a test or preview payload of up to 1 MiB of JSON text (the
      // receiver's limit), sent as a JSON string, where escaping doubles every quote and backslash.
      const payload = JSON.stringify({ title: 'escaped', data: '"'.repeat(512 * 1024 - 20) });
      expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(1024 * 1024);
      const body = JSON.stringify({ payload });
      expect(Buffer.byteLength(body)).toBeGreaterThan(2 * 1024 * 1024 - 100);
      const preview = await api.request<{ alerts: Array<{ title: string }> }>('POST', `/projects/${premium}/alert_integrations/${integrationId}/preview`, {
        token: ADMIN_TOKEN,
        body,
      });
      expect(preview.status).toBe(200);
      expect(preview.body.alerts.map((alert) => alert.title)).toEqual(['escaped']);
    });
  });
});
