import { createHash, randomBytes } from 'node:crypto';
import { ProcessorHarness, TestIntegration } from './processor-harness';

const ALERT_FIELDS = [
  'assignees',
  'created_at',
  'description',
  'ended_at',
  'events',
  'fingerprint',
  'hosts',
  'iid',
  'incident_iid',
  'integration_id',
  'monitoring_tool',
  'payload',
  'platform_environment_name',
  'service',
  'severity',
  'silenced_by',
  'started_at',
  'status',
  'title',
  'updated_at',
];

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

// CONTRACT.md "Alerts query API": developer+ of the project; 401/403/404 as in the management API.
describe('alert processor: alerts query API', () => {
  const harness = new ProcessorHarness();
  const tokens: Record<string, string> = {};
  let integration: TestIntegration;
  let projectId: string;
  let userSeq = 0;

  async function user(accessLevel: string | null, token = randomBytes(20).toString('hex'), options: { expired?: boolean; revoked?: boolean } = {}) {
    userSeq += 1;
    const { rows } = await harness.db.query<{ id: string }>('INSERT INTO users (username) VALUES ($1) RETURNING id', [`user-${userSeq}-${randomBytes(3).toString('hex')}`]);
    await harness.db.query(
      `INSERT INTO personal_access_tokens (user_id, token_sha256, expires_at, revoked_at) VALUES ($1, $2, $3, $4)`,
      [rows[0].id, createHash('sha256').update(token).digest('hex'), options.expired ? new Date(Date.now() - 1000) : new Date(Date.now() + 86_400_000), options.revoked ? new Date() : null],
    );
    if (accessLevel) await harness.db.query('INSERT INTO project_members (project_id, user_id, access_level) VALUES ($1, $2, $3)', [projectId, rows[0].id, accessLevel]);
    return token;
  }

  async function call(method: string, path: string, token?: string, body?: unknown, header = 'authorization'): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers[header] = header === 'authorization' ? `Bearer ${token}` : token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${harness.baseUrl}/api/v4${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  }

  beforeAll(async () => {
    await harness.start();
    const { rows } = await harness.db.query<{ id: string }>(`INSERT INTO projects (path, tier, updated_at) VALUES ('group/api', 'premium', now()) RETURNING id`);
    projectId = rows[0].id;
    integration = await harness.integration('premium', [], projectId);
    tokens.guest = await user('guest');
    tokens.reporter = await user('reporter');
    tokens.developer = await user('developer');
    tokens.maintainer = await user('maintainer');
    tokens.owner = await user('owner');
    tokens.outsider = await user(null);
    tokens.expired = await user('owner', undefined, { expired: true });
    tokens.revoked = await user('owner', undefined, { revoked: true });
    await harness.receive(integration, { title: 'Disk full on db-1', hosts: ['db-1'], severity: 'high', fingerprint: 'disk' });
    await harness.receive(integration, { title: 'CPU high', description: 'load above 10', service: 'checkout' });
    await harness.receive(integration, { title: 'Memory', monitoring_tool: 'Zabbix' });
    await harness.receive(integration, { title: 'Disk full on db-1', fingerprint: 'disk' });
  });

  afterAll(async () => {
    await harness.stop();
  });

  describe('authentication and authorisation', () => {
    it('401 without a token, with an unknown, expired or revoked token', async () => {
      for (const token of [undefined, 'nope', tokens.expired, tokens.revoked]) {
        const answer = await call('GET', `/projects/${projectId}/alerts`, token);
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ error: 'unauthorized' });
      }
    });

    it('403 for a member below Developer', async () => {
      for (const token of [tokens.guest, tokens.reporter]) {
        const answer = await call('GET', `/projects/${projectId}/alerts`, token);
        expect(answer).toMatchObject({ status: 403, body: { error: 'insufficient_role' } });
      }
      expect((await call('PUT', `/projects/${projectId}/alerts/1`, tokens.reporter, { status: 'acknowledged' })).status).toBe(403);
    });

    it('404 for a non-member and for an unknown project', async () => {
      expect((await call('GET', `/projects/${projectId}/alerts`, tokens.outsider)).status).toBe(404);
      expect((await call('GET', '/projects/987654321/alerts', tokens.owner)).status).toBe(404);
      expect((await call('GET', '/projects/987654321/alerts', 'test-admin-token')).status).toBe(404);
      expect((await call('GET', '/projects/abc/alerts', 'test-admin-token')).status).toBe(404);
      expect((await call('GET', '/projects/abc/alerts', 'nope')).status).toBe(401);
    });

    it('200 for Developer, Maintainer, Owner and the administrator, by Bearer or PRIVATE-TOKEN', async () => {
      for (const token of [tokens.developer, tokens.maintainer, tokens.owner, 'test-admin-token']) {
        expect((await call('GET', `/projects/${projectId}/alerts`, token)).status).toBe(200);
      }
      expect((await call('GET', `/projects/${projectId}/alerts`, tokens.developer, undefined, 'private-token')).status).toBe(200);
    });
  });

  describe('GET /projects/:id/alerts', () => {
    it('lists alerts newest first with exactly the contract fields and pagination headers', async () => {
      const answer = await call('GET', `/projects/${projectId}/alerts`, tokens.developer);
      const alerts = answer.body as Array<Record<string, unknown>>;
      expect(alerts.map((alert) => alert.iid)).toEqual([3, 2, 1]);
      expect(Object.keys(alerts[0]).sort()).toEqual(ALERT_FIELDS);
      expect(answer.headers.get('x-total')).toBe('3');
      expect(answer.headers.get('x-next-page')).toBe('');
      expect(alerts[2]).toMatchObject({ title: 'Disk full on db-1', events: 2, severity: 'high', hosts: ['db-1'], fingerprint: 'disk', integration_id: Number(integration.id) });
      expect(typeof alerts[2].integration_id).toBe('number');
    });

    it('paginates with page and per_page', async () => {
      const first = await call('GET', `/projects/${projectId}/alerts?per_page=2`, tokens.developer);
      expect((first.body as Array<{ iid: number }>).map((alert) => alert.iid)).toEqual([3, 2]);
      expect(first.headers.get('x-total')).toBe('3');
      expect(first.headers.get('x-next-page')).toBe('2');
      const second = await call('GET', `/projects/${projectId}/alerts?per_page=2&page=2`, tokens.developer);
      expect((second.body as Array<{ iid: number }>).map((alert) => alert.iid)).toEqual([1]);
      expect(second.headers.get('x-next-page')).toBe('');
      expect(second.headers.get('x-prev-page')).toBe('1');
    });

    it('filters by status and searches text fields case-insensitively', async () => {
      await harness.db.query(`UPDATE alerts SET status = 'acknowledged' WHERE project_id = $1 AND iid = 2`, [projectId]);
      try {
        const acknowledged = await call('GET', `/projects/${projectId}/alerts?status=acknowledged`, tokens.developer);
        expect((acknowledged.body as Array<{ iid: number }>).map((alert) => alert.iid)).toEqual([2]);
        expect(acknowledged.headers.get('x-total')).toBe('1');
        const search = async (text: string) =>
          ((await call('GET', `/projects/${projectId}/alerts?search=${encodeURIComponent(text)}`, tokens.developer)).body as Array<{ iid: number }>).map((alert) => alert.iid);
        expect(await search('disk FULL')).toEqual([1]);
        expect(await search('load above')).toEqual([2]);
        expect(await search('checkout')).toEqual([2]);
        expect(await search('zabbix')).toEqual([3]);
        expect(await search('db-1')).toEqual([1]);
        expect(await search('%')).toEqual([]);
      } finally {
        await harness.db.query(`UPDATE alerts SET status = 'triggered' WHERE project_id = $1 AND iid = 2`, [projectId]);
      }
    });

    it('400 naming the parameter for a search with NUL, never a 500', async () => {
      for (const query of ['search=a%00b', 'search=%00', 'status=triggered&search=x%00']) {
        const answer = await call('GET', `/projects/${projectId}/alerts?${query}`, tokens.developer);
        expect([query, answer.status, answer.body]).toEqual([
          query,
          400,
          { error: 'invalid_text', message: 'The query parameter search contains a NUL character (U+0000), which text may not contain.' },
        ]);
      }
    });

    it.each([['status=closed'], ['per_page=0'], ['per_page=101'], ['page=x'], ['unknown=1']])('400 for %s', async (query) => {
      const answer = await call('GET', `/projects/${projectId}/alerts?${query}`, tokens.developer);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    });
  });

  describe('GET /projects/:id/alerts/:iid', () => {
    it('returns one alert', async () => {
      const answer = await call('GET', `/projects/${projectId}/alerts/2`, tokens.developer);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ iid: 2, title: 'CPU high', description: 'load above 10', service: 'checkout', status: 'triggered', events: 1 });
    });

    it.each([['99'], ['abc'], ['0']])('404 for iid %s', async (iid) => {
      expect(await call('GET', `/projects/${projectId}/alerts/${iid}`, tokens.developer)).toMatchObject({ status: 404, body: { error: 'alert_not_found' } });
    });
  });

  describe('PUT /projects/:id/alerts/:iid', () => {
    it('changes the status, publishes one alert.status_changed event (and alert.assigned: acknowledging assigns the developer), and none when unchanged', async () => {
      const changed = await call('PUT', `/projects/${projectId}/alerts/3`, tokens.developer, { status: 'acknowledged' });
      expect(changed).toMatchObject({ status: 200, body: { iid: 3, status: 'acknowledged' } });
      const unchanged = await call('PUT', `/projects/${projectId}/alerts/3`, tokens.developer, { status: 'acknowledged' });
      expect(unchanged).toMatchObject({ status: 200, body: { iid: 3, status: 'acknowledged' } });
      const events = await harness.events.waitFor((event) => event.key === `${projectId}:3` && event.value.type === 'alert.status_changed');
      expect(events[0].value.alert).toMatchObject({ iid: 3, status: 'acknowledged' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(harness.events.received.filter((event) => event.key === `${projectId}:3`).map((event) => event.value.type)).toEqual([
        'alert.created',
        'alert.status_changed',
        'alert.assigned',
      ]);
    });

    it('resolving publishes alert.resolved and sets ended_at; reopening clears it', async () => {
      const resolved = await call('PUT', `/projects/${projectId}/alerts/2`, tokens.maintainer, { status: 'resolved' });
      expect(resolved.status).toBe(200);
      expect((resolved.body as { ended_at: string | null }).ended_at).not.toBeNull();
      const reopened = await call('PUT', `/projects/${projectId}/alerts/2`, tokens.maintainer, { status: 'triggered' });
      expect(reopened.body).toMatchObject({ status: 'triggered', ended_at: null });
      const events = await harness.events.waitFor((event) => event.key === `${projectId}:2`, 3);
      expect(events.map((event) => [event.value.type, event.value.alert.status])).toEqual([
        ['alert.created', 'triggered'],
        ['alert.resolved', 'resolved'],
        ['alert.status_changed', 'triggered'],
      ]);
    });

    it('409 when reopening would give a fingerprint two not-resolved alerts', async () => {
      await call('PUT', `/projects/${projectId}/alerts/1`, tokens.developer, { status: 'resolved' });
      const reply = await harness.receive(integration, { title: 'Disk full again', fingerprint: 'disk' });
      expect(reply.alerts[0].iid).toBe(4);
      const answer = await call('PUT', `/projects/${projectId}/alerts/1`, tokens.developer, { status: 'triggered' });
      expect(answer).toMatchObject({ status: 409, body: { error: 'conflict' } });
      expect((await call('GET', `/projects/${projectId}/alerts/1`, tokens.developer)).body).toMatchObject({ status: 'resolved' });
    });

    it('400 for an invalid status, 404 for an unknown alert', async () => {
      expect((await call('PUT', `/projects/${projectId}/alerts/3`, tokens.developer, { status: 'closed' })).status).toBe(400);
      expect((await call('PUT', `/projects/${projectId}/alerts/3`, tokens.developer, {})).status).toBe(400);
      expect((await call('PUT', `/projects/${projectId}/alerts/77`, tokens.developer, { status: 'resolved' })).status).toBe(404);
    });

    it('400 for a body nested deeper than 100 levels, 413 for one above 100 KiB, never a 500', async () => {
      const send = async (text: string) => {
        const response = await fetch(`${harness.baseUrl}/api/v4/projects/${projectId}/alerts/3`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${tokens.developer}`, 'content-type': 'application/json' },
          body: text,
        });
        return { status: response.status, body: (await response.json()) as unknown };
      };
      expect(await send(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)).toEqual({
        status: 400,
        body: { error: 'payload_too_deep', message: 'The request body is nested deeper than 100 levels.' },
      });
      expect(await send(JSON.stringify({ status: 'acknowledged', note: 'x'.repeat(100 * 1024) }))).toEqual({
        status: 413,
        body: { error: 'payload_too_large', message: 'The request body is larger than 102400 bytes (100 KiB).' },
      });
      expect((await call('GET', `/projects/${projectId}/alerts/3`, tokens.developer)).body).toMatchObject({ status: 'acknowledged' });
    });

    it('400 naming the field for text with NUL or an unpaired surrogate', async () => {
      const answer = await fetch(`${harness.baseUrl}/api/v4/projects/${projectId}/alerts/3`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokens.developer}`, 'content-type': 'application/json' },
        body: '{"status":"resol\\ud800ved"}',
      });
      expect({ status: answer.status, body: await answer.json() }).toEqual({
        status: 400,
        body: { error: 'invalid_text', message: 'The field status contains an unpaired UTF-16 surrogate (U+D800), which text may not contain.' },
      });
    });
  });

  describe('GET /projects/:id/alerts/status_counts', () => {
    // Runs after the PUT tests: #1 resolved, #2 and #4 triggered, #3 acknowledged.
    it('counts alerts per status, open = triggered + acknowledged', async () => {
      const answer = await call('GET', `/projects/${projectId}/alerts/status_counts`, tokens.developer);
      expect(answer).toEqual(
        expect.objectContaining({ status: 200, body: { triggered: 2, acknowledged: 1, resolved: 1, ignored: 0, open: 3, all: 4 } }),
      );
    });

    it('lists the open alerts (triggered and acknowledged) with status=open', async () => {
      const answer = await call('GET', `/projects/${projectId}/alerts?status=open`, tokens.developer);
      expect((answer.body as Array<{ iid: number; status: string }>).map((alert) => [alert.iid, alert.status])).toEqual([
        [4, 'triggered'],
        [3, 'acknowledged'],
        [2, 'triggered'],
      ]);
      expect(answer.headers.get('x-total')).toBe('3');
    });

    it('counts nothing in a project without alerts, and needs developer+', async () => {
      const { rows } = await harness.db.query<{ id: string }>(`INSERT INTO projects (path, tier, updated_at) VALUES ('group/empty', 'free', now()) RETURNING id`);
      expect((await call('GET', `/projects/${rows[0].id}/alerts/status_counts`, 'test-admin-token')).body).toEqual({
        triggered: 0,
        acknowledged: 0,
        resolved: 0,
        ignored: 0,
        open: 0,
        all: 0,
      });
      expect((await call('GET', `/projects/${projectId}/alerts/status_counts`, tokens.reporter)).status).toBe(403);
    });
  });

  it('GET /healthz answers 200 when PostgreSQL and Kafka answer', async () => {
    const response = await fetch(`${harness.baseUrl}/healthz`);
    expect(response.status).toBe(200);
  });
});
