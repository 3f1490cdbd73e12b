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
      expect(byAdmin.body).toEqual({ project_id: project, user_id: ownerUser.id, username: 'owner-1', access_level: 'owner' });

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
});
