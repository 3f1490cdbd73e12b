import { createTestDatabase, createTestTopics, TestDatabase, TestTopics } from '@alert-ingestion/testing';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

/** What the stand-in alert-processor received. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in for alert-processor's alerts API: records each request and answers as told. */
async function startProcessorStandIn(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.headers['authorization'] === 'Bearer wrong') {
        res.writeHead(401, { 'Content-Type': 'application/json', 'X-Request-Id': 'rid-401' });
        res.end(JSON.stringify({ error: 'unauthorized', message: 'The token is not valid.' }));
        return;
      }
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'X-Request-Id': String(req.headers['x-request-id'] ?? 'generated-by-processor'),
        'X-Total': '41',
        'X-Total-Pages': '3',
        'X-Page': '2',
        'X-Per-Page': '20',
        'X-Next-Page': '3',
        'X-Prev-Page': '1',
        'X-Internal-Detail': 'not for browsers',
      });
      res.end(JSON.stringify({ answered: `${req.method} ${req.url}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A request with the path exactly as written (fetch would resolve `..` segments before sending). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = httpRequest({ hostname, port, path, method: 'GET', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * integration-config serves the web console at `/` (files, and the page for any other non-API GET)
 * and forwards the alerts API to alert-processor, so the console needs one origin.
 */
describe('the web console and the alerts proxy on integration-config', () => {
  let database: TestDatabase;
  let topics: TestTopics;
  let consoleDir: string;
  let processor: Awaited<ReturnType<typeof startProcessorStandIn>>;
  let api: ManagementApi;

  beforeAll(async () => {
    [database, topics, processor] = await Promise.all([createTestDatabase(), createTestTopics(), startProcessorStandIn()]);
    consoleDir = mkdtempSync(join(tmpdir(), 'console-build-'));
    mkdirSync(join(consoleDir, 'assets'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Console page</title>');
    writeFileSync(join(consoleDir, 'assets', 'index-abc123.js'), 'console.log("bundle")');
    api = await ManagementApi.start({ ALERT_PROCESSOR_URL: processor.url }, { database, topics }, { consoleDir });
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await processor?.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers });

  describe('static console', () => {
    it('serves the page at / and for any route the console handles in the browser', async () => {
      for (const path of ['/', '/projects/1/alerts', '/projects/1/settings/alerts/2/credentials?x=1', '/deprecations']) {
        const response = await get(path);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(response.headers.get('cache-control')).toBe('no-cache');
        expect(await response.text()).toContain('Console page');
      }
    });

    it('serves the built files, cacheable for good (their names carry a content hash)', async () => {
      const response = await get('/assets/index-abc123.js');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await response.text()).toBe('console.log("bundle")');
    });

    it('never answers an API, probe or missing asset path with the page', async () => {
      for (const path of ['/api/v4/nothing-here', '/api', '/api/v5/projects', '/assets/missing.js', '/metrics/extra']) {
        const response = await get(path);
        expect([path, response.status]).toEqual([path, 404]);
        expect(await response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
      }
      const health = await get('/healthz');
      expect(health.headers.get('content-type')).toMatch(/^application\/json/);
      const projects = await get('/api/v4/projects/1/alert_integrations');
      expect(projects.status).toBe(401);
    });

    it('leaves API errors to the API: a malformed JSON body still gets its 400 in JSON', async () => {
      const response = await fetch(`${api.url}/api/v4/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: '{"path": ',
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_json', message: 'The request body is not valid JSON.' });
    });
  });

  describe('alerts proxy', () => {
    beforeEach(() => processor.received.splice(0));

    it('forwards a list request with its query, token and request id, and passes the paging headers back', async () => {
      const response = await get('/api/v4/projects/5/alerts?status=triggered&page=2', {
        Authorization: 'Bearer user-token',
        'X-Request-Id': 'rid-123',
        Cookie: 'session=secret',
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ answered: 'GET /api/v4/projects/5/alerts?status=triggered&page=2' });
      expect(Object.fromEntries(['x-request-id', 'x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page'].map((name) => [name, response.headers.get(name)]))).toEqual({
        'x-request-id': 'rid-123',
        'x-total': '41',
        'x-total-pages': '3',
        'x-page': '2',
        'x-per-page': '20',
        'x-next-page': '3',
        'x-prev-page': '1',
      });
      expect(response.headers.get('x-internal-detail')).toBeNull();
      const [forwarded] = processor.received;
      expect(forwarded.headers).toMatchObject({ authorization: 'Bearer user-token', 'x-request-id': 'rid-123' });
      expect(forwarded.headers['cookie']).toBeUndefined();
    });

    it('forwards the detail, the status counts and a status change with its JSON body', async () => {
      await get('/api/v4/projects/5/alerts/status_counts', { 'PRIVATE-TOKEN': 'user-token' });
      await get('/api/v4/projects/5/alerts/3');
      const put = await fetch(`${api.url}/api/v4/projects/5/alerts/3`, {
        method: 'PUT',
        headers: { authorization: 'Bearer user-token', 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'acknowledged' }),
      });
      expect(put.status).toBe(200);
      expect(processor.received.map(({ method, url, body }) => [method, url, body])).toEqual([
        ['GET', '/api/v4/projects/5/alerts/status_counts', ''],
        ['GET', '/api/v4/projects/5/alerts/3', ''],
        ['PUT', '/api/v4/projects/5/alerts/3', '{"status":"acknowledged"}'],
      ]);
      expect(processor.received[0].headers['private-token']).toBe('user-token');
      expect(processor.received[2].headers['content-type']).toBe('application/json');
    });

    it('forwards the silences routes, a POST with its JSON body, and no other path under silences', async () => {
      const headers = { authorization: 'Bearer user-token', 'content-type': 'application/json' };
      const body = JSON.stringify({ matchers: [{ field: 'service', operator: '=', value: 'db' }], ends_at: '2030-01-01T00:00:00.000Z', comment: 'upgrade' });
      expect((await fetch(`${api.url}/api/v4/projects/5/silences`, { method: 'POST', headers, body })).status).toBe(200);
      expect((await get('/api/v4/projects/5/silences?state=active')).status).toBe(200);
      expect((await get('/api/v4/projects/5/silences/4')).status).toBe(200);
      expect((await fetch(`${api.url}/api/v4/projects/5/silences/4`, { method: 'PUT', headers, body: '{"comment":"later"}' })).status).toBe(200);
      expect((await fetch(`${api.url}/api/v4/projects/5/silences/4/expire`, { method: 'POST', headers: { authorization: 'Bearer user-token' } })).status).toBe(200);
      expect((await fetch(`${api.url}/api/v4/projects/5/silences/4/other`, { method: 'POST', headers: { authorization: 'Bearer user-token' } })).status).toBe(404);
      expect(processor.received.map(({ method, url }) => [method, url])).toEqual([
        ['POST', '/api/v4/projects/5/silences'],
        ['GET', '/api/v4/projects/5/silences?state=active'],
        ['GET', '/api/v4/projects/5/silences/4'],
        ['PUT', '/api/v4/projects/5/silences/4'],
        ['POST', '/api/v4/projects/5/silences/4/expire'],
      ]);
      expect(JSON.parse(processor.received[0].body)).toEqual(JSON.parse(body));
      expect(processor.received[3].body).toBe('{"comment":"later"}');
    });

    it('times a forwarded request under its route pattern, never its path', async () => {
      expect((await get('/api/v4/projects/5/alerts/31')).status).toBe(200);
      const metrics = await (await get('/metrics')).text();
      expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/v4\/projects\/:id\/alerts\/:iid"[^}]*\} [1-9]/);
      expect(metrics).not.toContain('/alerts/31');
    });

    it("passes the processor's refusals on unchanged", async () => {
      const response = await get('/api/v4/projects/5/alerts', { Authorization: 'Bearer wrong' });
      expect(response.status).toBe(401);
      expect(response.headers.get('x-request-id')).toBe('rid-401');
      expect(await response.json()).toEqual({ error: 'unauthorized', message: 'The token is not valid.' });
    });

    it('forwards nothing but GET and PUT of the alerts paths', async () => {
      const post = await fetch(`${api.url}/api/v4/projects/5/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(404);
      const escapes = [
        '/api/v4/projects/5/alerts/%2e%2e/%2e%2e/%2e%2e/users',
        '/api/v4/projects/5/alerts/../../../users',
        // Each matches a forwarded route as sent, and names another path once its dot segment is resolved.
        '/api/v4/projects/5/alerts/%2e%2e',
        '/api/v4/projects/%2e%2e/alerts',
        '/api/v4/projects/5/silences/%2E%2e/expire',
        // Routed here (routes ignore case), but not a path the processor is asked for.
        '/api/v4/projects/5/ALERTS',
      ];
      for (const path of escapes) {
        const escaped = await rawGet(api.url, path);
        expect(escaped.status).toBe(404);
        expect(JSON.parse(escaped.body)).toEqual({ error: 'not_found', message: expect.any(String) });
      }
      expect(processor.received).toEqual([]);
    });

    it('forwards no path whose meaning depends on how it is read: escaped slashes, backslashes, empty segments', async () => {
      for (const path of [
        '/api/v4/projects/5/alerts/3%2f..%2f..%2f..%2fusers',
        '/api/v4/projects/5/alerts/3%5C..%5C..',
        '/api/v4/projects/5/alerts/3\\..\\..\\..\\users',
        '/api/v4/projects/5/silences//4',
        '/api/v4/projects/5/alerts/%2e',
      ]) {
        const escaped = await rawGet(api.url, path);
        expect([path, escaped.status]).toEqual([path, 404]);
        expect(JSON.parse(escaped.body)).toEqual({ error: 'not_found', message: expect.any(String) });
      }
      expect(processor.received).toEqual([]);
    });
  });

  it('answers 503 in JSON when the processor cannot be reached, and 404 for / without a console build', async () => {
    const closed = await startProcessorStandIn();
    await closed.close();
    const unreachable = await ManagementApi.start({ ALERT_PROCESSOR_URL: closed.url }, { database, topics }, { consoleDir: null });
    try {
      const response = await fetch(`${unreachable.url}/api/v4/projects/5/alerts`, { headers: { authorization: 'Bearer x' } });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({ error: 'alert_processor_unavailable', message: expect.stringContaining('ECONNREFUSED') });
      const page = await fetch(`${unreachable.url}/`);
      expect(page.status).toBe(404);
      expect(await page.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    } finally {
      await unreachable.stop(true);
    }
  });
});
