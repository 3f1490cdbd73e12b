import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { eventually } from '@alert-ingestion/testing';
import { startTopicReader } from './support/integrations-topic';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

describe('projects and members (CONTRACT.md "Management API")', () => {
  let api: ManagementApi;
  let topic: IntegrationRegistry;

  beforeAll(async () => {
    api = await ManagementApi.start();
    topic = await startTopicReader(api.topics.prefix);
  });

  afterAll(async () => {
    await topic.stop();
    await api.stop();
  });

  describe('POST /projects (admin)', () => {
    it('creates a project with a tier', async () => {
      const answer = await api.request('POST', '/projects', { token: ADMIN_TOKEN, body: { path: 'acme/web', tier: 'premium' } });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ id: expect.any(Number), path: 'acme/web', tier: 'premium' });
    });

    it('answers 409 for a path that exists and 400 for a bad tier or path', async () => {
      await api.createProject('acme/dup', 'free');
      expect((await api.request('POST', '/projects', { token: ADMIN_TOKEN, body: { path: 'acme/dup', tier: 'free' } })).status).toBe(409);
      expect((await api.request('POST', '/projects', { token: ADMIN_TOKEN, body: { path: 'acme/x', tier: 'gold' } })).status).toBe(400);
      expect((await api.request('POST', '/projects', { token: ADMIN_TOKEN, body: { path: '../x', tier: 'free' } })).status).toBe(400);
      expect((await api.request('POST', '/projects', { token: ADMIN_TOKEN, body: { tier: 'free' } })).status).toBe(400);
    });

    it('is for the administrator only: 401 without a token, 403 for a user', async () => {
      expect((await api.request('POST', '/projects', { body: { path: 'acme/y', tier: 'free' } })).status).toBe(401);
      const user = await api.createUser('project-maker');
      expect((await api.request('POST', '/projects', { token: user.token, body: { path: 'acme/y', tier: 'free' } })).status).toBe(403);
    });
  });

  describe('PUT /projects/:id (admin)', () => {
    it('changes the tier and republishes every integration of the project with it', async () => {
      const project = await api.createProject('acme/upgrade', 'premium');
      const ids: number[] = [];
      for (const name of ['One', 'Two']) {
        const created = await api.request<{ id: number }>('POST', `/projects/${project}/alert_integrations`, {
          token: ADMIN_TOKEN,
          body: { type: 'http', name, active: true },
        });
        ids.push(created.body.id);
      }
      await eventually(() => expect(topic.findById(String(ids[1]))?.project_tier).toBe('premium'), 5_000);
      const versionBefore = topic.findById(String(ids[0]))!.version;

      const answer = await api.request('PUT', `/projects/${project}`, { token: ADMIN_TOKEN, body: { tier: 'free' } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: project, path: 'acme/upgrade', tier: 'free' });

      await eventually(() => {
        for (const id of ids) {
          expect(topic.findById(String(id))).toMatchObject({ project_tier: 'free', version: versionBefore + 1 });
        }
      }, 5_000);
    });

    it('answers 404 for an unknown project, 400 for a bad tier, 403 for a user (even an owner)', async () => {
      expect((await api.request('PUT', '/projects/999999', { token: ADMIN_TOKEN, body: { tier: 'free' } })).status).toBe(404);
      expect((await api.request('PUT', '/projects/abc', { token: ADMIN_TOKEN, body: { tier: 'free' } })).status).toBe(404);
      const project = await api.createProject('acme/tier-rules', 'free');
      expect((await api.request('PUT', `/projects/${project}`, { token: ADMIN_TOKEN, body: { tier: 'gold' } })).status).toBe(400);
      const owner = await api.member(project, 'owner');
      expect((await api.request('PUT', `/projects/${project}`, { token: owner, body: { tier: 'premium' } })).status).toBe(403);
      expect((await api.request('PUT', `/projects/${project}`, { body: { tier: 'premium' } })).status).toBe(401);
    });
  });

  describe('POST /projects/:id/members (admin, owner)', () => {
    it('lets the administrator and an owner add members', async () => {
      const project = await api.createProject('acme/members', 'free');
      const ownerUser = await api.createUser('owner-1');
      const byAdmin = await api.request('POST', `/projects/${project}/members`, {
        token: ADMIN_TOKEN,
        body: { user_id: ownerUser.id, access_level: 'owner' },
      });
      expect(byAdmin.status).toBe(201);
      expect(byAdmin.body).toEqual({ user_id: ownerUser.id, username: 'owner-1', access_level: 'owner' });

      const developer = await api.createUser('developer-1');
      const byOwner = await api.request('POST', `/projects/${project}/members`, {
        token: ownerUser.token,
        body: { user_id: developer.id, access_level: 'developer' },
      });
      expect(byOwner.status).toBe(201);
    });

    it('answers 403 for a maintainer, 404 for a non-member or an unknown project', async () => {
      const project = await api.createProject('acme/members-rules', 'free');
      const maintainer = await api.member(project, 'maintainer');
      const someone = await api.createUser('someone');
      expect((await api.request('POST', `/projects/${project}/members`, { token: maintainer, body: { user_id: someone.id, access_level: 'guest' } })).status).toBe(403);
      expect((await api.request('POST', `/projects/${project}/members`, { token: someone.token, body: { user_id: someone.id, access_level: 'owner' } })).status).toBe(404);
      expect((await api.request('POST', '/projects/424242/members', { token: ADMIN_TOKEN, body: { user_id: someone.id, access_level: 'guest' } })).status).toBe(404);
    });

    it('answers 404 for an unknown user, 409 for an existing member, 400 for a bad role', async () => {
      const project = await api.createProject('acme/members-input', 'free');
      const user = await api.createUser('member-input');
      expect((await api.request('POST', `/projects/${project}/members`, { token: ADMIN_TOKEN, body: { user_id: 987654, access_level: 'guest' } })).status).toBe(404);
      await api.addMember(project, user.id, 'reporter');
      const again = await api.request('POST', `/projects/${project}/members`, { token: ADMIN_TOKEN, body: { user_id: user.id, access_level: 'owner' } });
      expect(again.status).toBe(409);
      expect((await api.request('POST', `/projects/${project}/members`, { token: ADMIN_TOKEN, body: { user_id: user.id, access_level: 'admin' } })).status).toBe(400);
      expect((await api.request('POST', `/projects/${project}/members`, { token: ADMIN_TOKEN, body: { user_id: '1', access_level: 'guest' } })).status).toBe(400);
    });
  });

  describe('refusals name their field, so the console shows them there', () => {
    it('names user_id for an unknown user or an existing member, access_level for a bad role, path and username when taken', async () => {
      const project = await api.createProject('acme/fields', 'free');
      const user = await api.createUser('field-user');
      const unknown = await api.request('POST', `/projects/${project}/members`, { token: ADMIN_TOKEN, body: { user_id: 987654, access_level: 'guest' } });
      expect(unknown.body).toEqual({ error: 'user_not_found', message: 'User 987654 not found.', field: 'user_id' });
      await api.addMember(project, user.id, 'reporter');
      const again = await api.request('POST', `/projects/${project}/members`, { token: ADMIN_TOKEN, body: { user_id: user.id, access_level: 'owner' } });
      expect(again.body).toEqual({ error: 'already_member', message: 'field-user is already a member of the project.', field: 'user_id' });
      const role = await api.request('POST', `/projects/${project}/members`, { token: ADMIN_TOKEN, body: { user_id: user.id, access_level: 'admin' } });
      expect(role.body).toMatchObject({ error: 'validation_failed', field: 'access_level' });
      const path = await api.request('POST', '/projects', { token: ADMIN_TOKEN, body: { path: 'acme/fields', tier: 'free' } });
      expect(path.body).toMatchObject({ error: 'path_taken', field: 'path' });
      const username = await api.request('POST', '/users', { token: ADMIN_TOKEN, body: { username: 'field-user' } });
      expect(username.body).toMatchObject({ error: 'username_taken', field: 'username' });
      const tier = await api.request('PUT', `/projects/${project}`, { token: ADMIN_TOKEN, body: { tier: 'gold' } });
      expect(tier.body).toMatchObject({ error: 'validation_failed', field: 'tier' });
    });
  });

  describe('GET /projects/:id/members/candidates (admin, owner)', () => {
    it('searches the users who are not members by username, those that start with the search first, at most 20', async () => {
      const project = await api.createProject('acme/candidates', 'free');
      const owner = await api.createUser('cand-owner');
      await api.addMember(project, owner.id, 'owner');
      const maria = await api.createUser('cand-maria');
      await api.createUser('cand-mario');
      await api.createUser('x-cand-marianne');
      const member = await api.createUser('cand-marisa');
      await api.addMember(project, member.id, 'developer');

      const found = await api.request<Array<{ id: number; username: string }>>('GET', `/projects/${project}/members/candidates?search=CAND-MAR`, { token: owner.token });
      expect(found.status).toBe(200);
      expect(found.body).toEqual([
        { id: maria.id, username: 'cand-maria' },
        { id: expect.any(Number), username: 'cand-mario' },
        { id: expect.any(Number), username: 'x-cand-marianne' },
      ]);
      const byAdmin = await api.request<Array<{ username: string }>>('GET', `/projects/${project}/members/candidates?search=cand-`, { token: ADMIN_TOKEN });
      expect(byAdmin.body.map((user) => user.username)).not.toContain('cand-owner');

      for (let n = 0; n < 22; n += 1) await api.createUser(`many-cand-${String(n).padStart(2, '0')}`);
      const many = await api.request<Array<{ username: string }>>('GET', `/projects/${project}/members/candidates?search=many-cand`, { token: owner.token });
      expect(many.body).toHaveLength(20);
    });

    it('is for the administrator and owners: 403 for a maintainer, 404 for a non-member', async () => {
      const project = await api.createProject('acme/candidates-rules', 'free');
      const maintainer = await api.member(project, 'maintainer');
      const someone = await api.createUser('cand-someone');
      expect((await api.request('GET', `/projects/${project}/members/candidates?search=a`, { token: maintainer })).status).toBe(403);
      expect((await api.request('GET', `/projects/${project}/members/candidates?search=a`, { token: someone.token })).status).toBe(404);
    });
  });

  describe('GET /user (any token)', () => {
    it('names the administrator (no id) and a user', async () => {
      expect((await api.request('GET', '/user', { token: ADMIN_TOKEN })).body).toEqual({ id: null, username: 'administrator', email: null, is_admin: true });
      const user = await api.createUser('who-am-i');
      const answer = await api.request('GET', '/user', { token: user.token, privateTokenHeader: true });
      expect(answer).toMatchObject({ status: 200, body: { id: user.id, username: 'who-am-i', is_admin: false } });
    });

    it('answers 401 without a valid token', async () => {
      expect((await api.request('GET', '/user')).status).toBe(401);
      expect((await api.request('GET', '/user', { token: 'nope' })).body).toEqual({ error: 'unauthorized', message: 'The token is not valid.' });
    });
  });

  describe('GET /projects and GET /projects/:id', () => {
    let reader: { id: number; token: string };
    const paths = ['list/alpha', 'list/beta', 'list/gamma', 'other/delta'];
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      reader = await api.createUser('project-reader');
      for (const path of paths) ids[path] = await api.createProject(path, path === 'list/beta' ? 'premium' : 'free');
      await api.addMember(ids['list/alpha'], reader.id, 'guest');
      await api.addMember(ids['list/beta'], reader.id, 'maintainer');
      await api.addMember(ids['other/delta'], reader.id, 'developer');
    });

    it("lists only the caller's projects, by path, with tier and role", async () => {
      const answer = await api.request('GET', '/projects', { token: reader.token });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([
        { id: ids['list/alpha'], path: 'list/alpha', tier: 'free', access_level: 'guest' },
        { id: ids['list/beta'], path: 'list/beta', tier: 'premium', access_level: 'maintainer' },
        { id: ids['other/delta'], path: 'other/delta', tier: 'free', access_level: 'developer' },
      ]);
      expect(answer.headers.get('x-total')).toBe('3');
      expect(answer.headers.get('x-next-page')).toBe('');
    });

    it('lists every project for the administrator, with no role', async () => {
      const answer = await api.request<Array<{ path: string; access_level: unknown }>>('GET', '/projects?search=list/&per_page=100', { token: ADMIN_TOKEN });
      expect(answer.body.map((project) => project.path)).toEqual(['list/alpha', 'list/beta', 'list/gamma']);
      expect(answer.body.every((project) => project.access_level === null)).toBe(true);
    });

    it('searches the path (case-insensitive, wildcards taken literally) and pages', async () => {
      expect((await api.request<Array<{ path: string }>>('GET', '/projects?search=BET', { token: reader.token })).body.map((p) => p.path)).toEqual(['list/beta']);
      expect((await api.request<unknown[]>('GET', '/projects?search=%25', { token: reader.token })).body).toEqual([]);
      const first = await api.request<Array<{ path: string }>>('GET', '/projects?per_page=2', { token: reader.token });
      expect(first.body.map((p) => p.path)).toEqual(['list/alpha', 'list/beta']);
      expect(first.headers.get('x-total')).toBe('3');
      expect(first.headers.get('x-next-page')).toBe('2');
      const second = await api.request<Array<{ path: string }>>('GET', '/projects?per_page=2&page=2', { token: reader.token });
      expect(second.body.map((p) => p.path)).toEqual(['other/delta']);
      expect(second.headers.get('x-next-page')).toBe('');
      expect((await api.request('GET', '/projects?per_page=101', { token: reader.token })).status).toBe(400);
    });

    it('shows one project to a guest and above, 404 to anyone else', async () => {
      expect((await api.request('GET', `/projects/${ids['list/alpha']}`, { token: reader.token })).body).toEqual({
        id: ids['list/alpha'],
        path: 'list/alpha',
        tier: 'free',
        access_level: 'guest',
      });
      expect((await api.request('GET', `/projects/${ids['list/gamma']}`, { token: ADMIN_TOKEN })).body).toMatchObject({ access_level: null });
      expect((await api.request('GET', `/projects/${ids['list/gamma']}`, { token: reader.token })).body).toEqual({ error: 'project_not_found', message: 'Project not found.' });
      expect((await api.request('GET', '/projects/987654', { token: ADMIN_TOKEN })).status).toBe(404);
    });
  });

  describe('members: list (maintainer+), change and removal (admin, owner)', () => {
    it('lists members by role, then username, to maintainers and above', async () => {
      const project = await api.createProject('acme/member-list', 'free');
      const owner = await api.createUser('ml-owner');
      const dev = await api.createUser('ml-dev');
      const maintainer = await api.createUser('ml-maintainer');
      await api.addMember(project, dev.id, 'developer');
      await api.addMember(project, owner.id, 'owner');
      await api.addMember(project, maintainer.id, 'maintainer');
      const answer = await api.request('GET', `/projects/${project}/members`, { token: maintainer.token });
      expect(answer).toMatchObject({
        status: 200,
        body: [
          { user_id: owner.id, username: 'ml-owner', access_level: 'owner' },
          { user_id: maintainer.id, username: 'ml-maintainer', access_level: 'maintainer' },
          { user_id: dev.id, username: 'ml-dev', access_level: 'developer' },
        ],
      });
      expect((await api.request('GET', `/projects/${project}/members`, { token: dev.token })).status).toBe(403);
    });

    it('changes a role and removes a member; a maintainer may not', async () => {
      const project = await api.createProject('acme/member-change', 'free');
      const owner = await api.member(project, 'owner');
      const maintainer = await api.member(project, 'maintainer');
      const user = await api.createUser('mc-user');
      await api.addMember(project, user.id, 'reporter');

      expect((await api.request('PUT', `/projects/${project}/members/${user.id}`, { token: maintainer, body: { access_level: 'developer' } })).status).toBe(403);
      const changed = await api.request('PUT', `/projects/${project}/members/${user.id}`, { token: owner, body: { access_level: 'developer' } });
      expect(changed).toMatchObject({ status: 200, body: { user_id: user.id, username: 'mc-user', access_level: 'developer' } });
      expect((await api.request('GET', `/projects/${project}`, { token: user.token })).body).toMatchObject({ access_level: 'developer' });

      expect((await api.request('DELETE', `/projects/${project}/members/${user.id}`, { token: maintainer })).status).toBe(403);
      const removed = await api.request('DELETE', `/projects/${project}/members/${user.id}`, { token: ADMIN_TOKEN });
      expect(removed.status).toBe(204);
      expect((await api.request('GET', `/projects/${project}`, { token: user.token })).status).toBe(404);
    });

    it('answers 404 for a user who is not a member, 400 for a bad role', async () => {
      const project = await api.createProject('acme/member-missing', 'free');
      const outsider = await api.createUser('mm-outsider');
      for (const path of [`/projects/${project}/members/${outsider.id}`, `/projects/${project}/members/abc`]) {
        expect((await api.request('PUT', path, { token: ADMIN_TOKEN, body: { access_level: 'guest' } })).body).toMatchObject({ error: 'member_not_found' });
        expect((await api.request('DELETE', path, { token: ADMIN_TOKEN })).status).toBe(404);
      }
      await api.addMember(project, outsider.id, 'guest');
      expect((await api.request('PUT', `/projects/${project}/members/${outsider.id}`, { token: ADMIN_TOKEN, body: { access_level: 'root' } })).status).toBe(400);
    });

    it('keeps the last owner, also against two owners demoting each other at once', async () => {
      const project = await api.createProject('acme/last-owner', 'free');
      const first = await api.createUser('lo-first');
      const second = await api.createUser('lo-second');
      await api.addMember(project, first.id, 'owner');
      await api.addMember(project, second.id, 'owner');
      const answers = await Promise.all([
        api.request('PUT', `/projects/${project}/members/${second.id}`, { token: first.token, body: { access_level: 'maintainer' } }),
        api.request('PUT', `/projects/${project}/members/${first.id}`, { token: second.token, body: { access_level: 'maintainer' } }),
      ]);
      // One wins. The other finds itself the last owner (409), or, when the winner committed before
      // it was let in, no longer an owner (403).
      const statuses = answers.map((answer) => answer.status).sort((a, b) => a - b);
      expect([[200, 403], [200, 409]]).toContainEqual(statuses);
      const members = await api.request<Array<{ access_level: string }>>('GET', `/projects/${project}/members`, { token: ADMIN_TOKEN });
      expect(members.body.filter((member) => member.access_level === 'owner')).toHaveLength(1);
      const lastOwner = members.body.find((member) => member.access_level === 'owner') as unknown as { user_id: number };
      const refused = await api.request('DELETE', `/projects/${project}/members/${lastOwner.user_id}`, { token: ADMIN_TOKEN });
      expect(refused).toMatchObject({ status: 409, body: { error: 'last_owner' } });
    });
  });
});
