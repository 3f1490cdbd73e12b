import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

/**
 * Concurrent creates cannot break the Free tier limit or name uniqueness. Every integration
 * write locks its project row, so these requests are serialised by the database, not by luck.
 */
describe('concurrent integration writes', () => {
  let api: ManagementApi;

  beforeAll(async () => {
    api = await ManagementApi.start();
  });

  afterAll(async () => {
    await api.stop();
  });

  const statuses = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status).sort();

  it('10 parallel creates on a Free project: exactly one 201, the others 403', async () => {
    const project = await api.createProject('race/free', 'free');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.request('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: { active: true } })),
    );
    expect(statuses(answers)).toEqual([201, ...Array(9).fill(403)]);
    const rows = await api.sql('SELECT id FROM alert_integrations WHERE project_id = $1', [project]);
    expect(rows).toHaveLength(1);
  });

  it('10 parallel creates of one name on a Premium project: exactly one 201, the others 409', async () => {
    const project = await api.createProject('race/premium', 'premium');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.request('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: { name: 'Same name', active: true } }),
      ),
    );
    expect(statuses(answers)).toEqual([201, ...Array(9).fill(409)]);
    expect(await api.sql('SELECT id FROM alert_integrations WHERE project_id = $1', [project])).toHaveLength(1);
  });

  it('parallel creates of different names on Premium all succeed', async () => {
    const project = await api.createProject('race/premium-many', 'premium');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        api.request('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: { name: `Endpoint ${index}` } }),
      ),
    );
    expect(statuses(answers)).toEqual(Array(10).fill(201));
  });

  it('racing activations of the external link and an HTTP Endpoint never leave both active', async () => {
    const project = await api.createProject('race/external', 'premium');
    const route = `/projects/${project}/alert_integrations`;
    for (let round = 0; round < 5; round++) {
      const http = await api.request<{ id: number }>('POST', route, { token: ADMIN_TOKEN, body: { name: `Endpoint ${round}` } });
      const link = await api.request<{ id: number }>('POST', route, { token: ADMIN_TOKEN, body: { type: 'external_link', api_url: 'https://ops.example.test' } });
      const answers = await Promise.all([
        api.request('PUT', `${route}/${link.body.id}`, { token: ADMIN_TOKEN, body: { active: true } }),
        api.request('PUT', `${route}/${http.body.id}`, { token: ADMIN_TOKEN, body: { active: true } }),
      ]);
      expect(statuses(answers)).toEqual([200, 409]);
      const active = await api.sql<{ type: string }>('SELECT type::text AS type FROM alert_integrations WHERE project_id = $1 AND active', [project]);
      expect(active).toHaveLength(1);
      await api.request('DELETE', `${route}/${link.body.id}`, { token: ADMIN_TOKEN });
      await api.request('PUT', `${route}/${http.body.id}`, { token: ADMIN_TOKEN, body: { active: false } });
    }
  });

  it('a tier change racing creates: each create sees one tier or the other, and the rows match the 201s', async () => {
    const project = await api.createProject('race/downgrade', 'premium');
    const route = `/projects/${project}/alert_integrations`;
    const answers = await Promise.all([
      api.request('PUT', `/projects/${project}`, { token: ADMIN_TOKEN, body: { tier: 'free' } }),
      ...Array.from({ length: 6 }, (_, index) => api.request('POST', route, { token: ADMIN_TOKEN, body: { name: `N${index}` } })),
    ]);
    expect(answers[0].status).toBe(200);
    // Every create either saw Premium (201, any number) or Free (at most one 201, then 403); never a 500.
    const creates = answers.slice(1).map((answer) => answer.status);
    expect(creates.every((status) => status === 201 || status === 403)).toBe(true);
    const [{ tier }] = await api.sql<{ tier: string }>('SELECT tier::text AS tier FROM projects WHERE id = $1', [project]);
    expect(tier).toBe('free');
    const rows = await api.sql('SELECT id FROM alert_integrations WHERE project_id = $1', [project]);
    expect(rows).toHaveLength(creates.filter((status) => status === 201).length);
    // Once Free, a create is refused only because one HTTP Endpoint exists.
    if (creates.includes(403)) expect(rows.length).toBeGreaterThanOrEqual(1);
  });
});
