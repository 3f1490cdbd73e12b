import { createHash } from 'node:crypto';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

describe('users and personal access tokens (CONTRACT.md "Management API")', () => {
  let api: ManagementApi;

  beforeAll(async () => {
    api = await ManagementApi.start();
  });

  afterAll(async () => {
    await api.stop();
  });

  it('POST /users (admin) creates a user with a token shown once and stored only as SHA-256, expiring in one year', async () => {
    const before = Date.now();
    const answer = await api.request<{ id: number; username: string; token: string; token_expires_at: string }>('POST', '/users', {
      token: ADMIN_TOKEN,
      body: { username: 'alice' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ id: expect.any(Number), username: 'alice', token: expect.stringMatching(/^aipat-[\w-]{43}$/) });

    const rows = await api.sql<{ token_sha256: string; expires_at: Date }>('SELECT token_sha256, expires_at FROM personal_access_tokens WHERE user_id = $1', [
      answer.body.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_sha256).toBe(createHash('sha256').update(answer.body.token).digest('hex'));
    const stored = JSON.stringify(await api.sql('SELECT * FROM personal_access_tokens'));
    expect(stored).not.toContain(answer.body.token);
    // Spec 9.5: tokens get a one-year expiry.
    const year = 365 * 24 * 3600 * 1000;
    expect(rows[0].expires_at.getTime()).toBeGreaterThanOrEqual(before + year - 1000);
    expect(rows[0].expires_at.getTime()).toBeLessThanOrEqual(Date.now() + year + 1000);
    expect(new Date(answer.body.token_expires_at).getTime()).toBe(rows[0].expires_at.getTime());
  });

  it('answers 409 when the username is taken', async () => {
    await api.createUser('bob');
    const answer = await api.request('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'bob' } });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: 'username_taken', message: expect.stringContaining('bob'), field: 'username' });
  });

  it('answers 400 for a missing or malformed username, or unknown fields', async () => {
    for (const body of [{}, { username: '' }, { username: 'has space' }, { username: 'ok', admin: true }]) {
      const answer = await api.request<{ error: string }>('POST', '/users', { token: ADMIN_TOKEN, body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual(expect.any(String));
    }
  });

  it('answers 401 without a token or with an unknown one, and 403 for a user token', async () => {
    expect((await api.request('POST', '/users', { body: { username: 'carol' } })).status).toBe(401);
    const unknown = await api.request('POST', '/users', { token: 'aipat-not-a-real-token', body: { username: 'carol' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    const malformed = await api.request('POST', '/users', { headers: { Authorization: `Basic ${ADMIN_TOKEN}` }, body: { username: 'carol' } });
    expect(malformed.status).toBe(401);

    const user = await api.createUser('dave');
    const forbidden = await api.request('POST', '/users', { token: user.token, body: { username: 'carol' } });
    expect(forbidden.status).toBe(403);
  });

  it('accepts the token as "Authorization: Bearer" or as "PRIVATE-TOKEN"', async () => {
    const viaPrivateToken = await api.request('POST', '/users', { token: ADMIN_TOKEN, privateTokenHeader: true, body: { username: 'erin' } });
    expect(viaPrivateToken.status).toBe(201);

    const user = await api.createUser('frank');
    const project = await api.createProject('tokens/headers', 'free');
    await api.addMember(project, user.id, 'maintainer');
    expect((await api.request('GET', `/projects/${project}/alert_integrations`, { token: user.token })).status).toBe(200);
    expect((await api.request('GET', `/projects/${project}/alert_integrations`, { token: user.token, privateTokenHeader: true })).status).toBe(200);
  });

  it('answers 401 for an expired token (spec 9.4: expiry is always enforced)', async () => {
    const user = await api.createUser('grace');
    const project = await api.createProject('tokens/expiry', 'free');
    await api.addMember(project, user.id, 'maintainer');
    expect((await api.request('GET', `/projects/${project}/alert_integrations`, { token: user.token })).status).toBe(200);

    await api.sql(`UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
    const answer = await api.request('GET', `/projects/${project}/alert_integrations`, { token: user.token });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'unauthorized', message: 'The token has expired.' });
  });

  it('answers 401 for a revoked token', async () => {
    const user = await api.createUser('heidi');
    await api.sql('UPDATE personal_access_tokens SET revoked_at = now() WHERE user_id = $1', [user.id]);
    const answer = await api.request('POST', '/projects', { token: user.token, body: { path: 'x', tier: 'free' } });
    expect(answer.status).toBe(401);
  });
});
