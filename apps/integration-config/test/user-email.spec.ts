import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

interface UserAnswer {
  id: number;
  username: string;
  email: string | null;
}

/** Users' email addresses, where alert emails go: set by the administrator or by the user, shown in the user's JSON. */
describe('user email addresses', () => {
  let api: ManagementApi;

  beforeAll(async () => {
    api = await ManagementApi.start();
  });

  afterAll(async () => {
    await api.stop();
  });

  it('POST /users takes an address, stored lower-case and shown in the answer and in GET /user', async () => {
    const created = await api.request<UserAnswer & { token: string }>('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'mail-ann', email: ' Ann@Example.COM ' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'mail-ann', email: 'ann@example.com' });
    const me = await api.request<UserAnswer>('GET', '/user', { token: created.body.token });
    expect(me.body).toEqual({ id: created.body.id, username: 'mail-ann', email: 'ann@example.com', is_admin: false });
    expect(await api.sql('SELECT email FROM users WHERE id = $1', [created.body.id])).toEqual([{ email: 'ann@example.com' }]);

    const without = await api.request<UserAnswer>('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'mail-nobody' } });
    expect(without.body.email).toBeNull();
    expect((await api.request<UserAnswer>('GET', '/user', { token: ADMIN_TOKEN })).body).toMatchObject({ id: null, email: null, is_admin: true });
  });

  it('refuses what is not an address, naming the field, and stores nothing', async () => {
    for (const email of ['not-an-address', 'jane@localhost', 'a b@example.com', 'jane@example.com, eve@example.com', `${'x'.repeat(250)}@example.com`, 42]) {
      const answer = await api.request<{ error: string; message: string; field?: string }>('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'mail-bad', email } });
      expect({ email, status: answer.status }).toEqual({ email, status: 400 });
      expect(answer.body).toMatchObject({ error: expect.any(String), message: expect.stringContaining('email'), field: 'email' });
    }
    expect(await api.sql("SELECT id FROM users WHERE username = 'mail-bad'")).toEqual([]);
  });

  it('keeps one account per address whatever its case (409 naming the field)', async () => {
    await api.request('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'mail-bea', email: 'bea@example.com' } });
    const again = await api.request('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'mail-bea2', email: 'BEA@example.com' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'email_taken', message: expect.stringContaining('bea@example.com'), field: 'email' });
    // A taken username is still named as such when the address is new.
    const sameName = await api.request('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'mail-bea', email: 'other@example.com' } });
    expect(sameName.body).toMatchObject({ error: 'username_taken', field: 'username' });
  });

  it('PUT /users/:id (administrator) sets and clears an address; users may not change others', async () => {
    const user = await api.createUser('mail-cy');
    const set = await api.request<UserAnswer>('PUT', `/users/${user.id}`, { token: ADMIN_TOKEN, body: { email: 'Cy@Example.com' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ id: user.id, username: 'mail-cy', email: 'cy@example.com' });
    const cleared = await api.request<UserAnswer>('PUT', `/users/${user.id}`, { token: ADMIN_TOKEN, body: { email: null } });
    expect(cleared.body.email).toBeNull();

    expect((await api.request('PUT', `/users/${user.id}`, { token: user.token, body: { email: 'cy@example.com' } })).status).toBe(403);
    expect((await api.request('PUT', '/users/999999999', { token: ADMIN_TOKEN, body: { email: 'nobody@example.com' } })).status).toBe(404);
    expect((await api.request('PUT', '/users/abc', { token: ADMIN_TOKEN, body: { email: 'nobody@example.com' } })).status).toBe(404);
    const missing = await api.request<{ field?: string }>('PUT', `/users/${user.id}`, { token: ADMIN_TOKEN, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('email');
  });

  it('PUT /user lets a user set and clear their own address; the administrator token has none to set', async () => {
    const user = await api.createUser('mail-dee');
    const set = await api.request<UserAnswer>('PUT', '/user', { token: user.token, body: { email: 'dee@example.com' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ id: user.id, username: 'mail-dee', email: 'dee@example.com' });
    expect((await api.request<UserAnswer>('GET', '/user', { token: user.token })).body.email).toBe('dee@example.com');

    const other = await api.createUser('mail-eve');
    const taken = await api.request('PUT', '/user', { token: other.token, body: { email: 'DEE@example.com' } });
    expect(taken.status).toBe(409);
    expect((await api.request<UserAnswer>('GET', '/user', { token: other.token })).body.email).toBeNull();

    const cleared = await api.request<UserAnswer>('PUT', '/user', { token: user.token, body: { email: '' } });
    expect(cleared.body.email).toBeNull();
    const admin = await api.request<{ error: string }>('PUT', '/user', { token: ADMIN_TOKEN, body: { email: 'root@example.com' } });
    expect(admin.status).toBe(400);
    expect(admin.body.error).toBe('no_user');
    expect((await api.request('PUT', '/user', { body: { email: 'x@example.com' } })).status).toBe(401);
  });
});
