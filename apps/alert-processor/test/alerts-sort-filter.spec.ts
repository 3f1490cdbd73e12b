import { createHash, randomBytes } from 'node:crypto';
import { ProcessorHarness } from './processor-harness';

/**
 * `GET /projects/:id/alerts` sorted and filtered by the database (docs/api-guide.md "List alerts"):
 * `sort` by severity, start time, events or last change in `order`, ties by iid; `severity` (several)
 * and `assignee_username` filters; a bad value is a 400 `{error, message}` naming it.
 */
describe('alert processor: the alert list sorted and filtered', () => {
  const harness = new ProcessorHarness();
  let projectId: string;
  let token: string;
  const users: Record<string, string> = {};

  async function member(username: string): Promise<string> {
    const { rows } = await harness.db.query<{ id: string }>('INSERT INTO users (username) VALUES ($1) RETURNING id', [username]);
    await harness.db.query('INSERT INTO project_members (project_id, user_id, access_level) VALUES ($1, $2, $3)', [projectId, rows[0].id, 'developer']);
    return rows[0].id;
  }

  async function call(path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${harness.baseUrl}/api/v4/projects/${projectId}/alerts${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  const iids = async (query: string): Promise<number[]> => {
    const answer = await call(`?${query}`);
    expect([query, answer.status]).toEqual([query, 200]);
    return (answer.body as Array<{ iid: number }>).map((alert) => alert.iid);
  };

  beforeAll(async () => {
    await harness.start();
    const { rows } = await harness.db.query<{ id: string }>(`INSERT INTO projects (path, tier, updated_at) VALUES ('group/sorting', 'premium', now()) RETURNING id`);
    projectId = rows[0].id;
    const integration = await harness.integration('premium', [], projectId);
    users.mara = await member('mara');
    users.omar = await member('omar');
    token = randomBytes(20).toString('hex');
    await harness.db.query(`INSERT INTO personal_access_tokens (user_id, token_sha256, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [
      users.mara,
      createHash('sha256').update(token).digest('hex'),
    ]);
    // iid: severity, start time (minutes after 10:00), events.
    const alerts: Array<[string, number, number]> = [
      ['low', 5, 1],
      ['critical', 1, 3],
      ['medium', 9, 1],
      ['critical', 3, 1],
      ['info', 7, 2],
    ];
    for (const [index, [severity, minute, events]] of alerts.entries()) {
      for (let event = 0; event < events; event += 1) {
        await harness.receive(integration, {
          title: `Alert ${index + 1}`,
          severity,
          fingerprint: `alert-${index + 1}`,
          start_time: `2026-11-28T10:0${minute}:00Z`,
        });
      }
    }
    expect((await call('/3/assignees', 'PUT', { assignee_ids: [Number(users.mara), Number(users.omar)] })).status).toBe(200);
    expect((await call('/5/assignees', 'PUT', { assignee_ids: [Number(users.omar)] })).status).toBe(200);
    // Last changed: 1, then 3 and 5 (assigned above), in that order.
    expect((await call('/1', 'PUT', { status: 'acknowledged' })).status).toBe(200);
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('sorts by severity, most severe first for desc, ties by iid in the same order', async () => {
    expect(await iids('sort=severity&order=desc')).toEqual([4, 2, 3, 1, 5]);
    expect(await iids('sort=severity')).toEqual([4, 2, 3, 1, 5]);
    expect(await iids('sort=severity&order=asc')).toEqual([5, 1, 3, 2, 4]);
  });

  it('sorts by start time, events and last change', async () => {
    expect(await iids('sort=started_at&order=asc')).toEqual([2, 4, 1, 5, 3]);
    expect(await iids('sort=started_at&order=desc')).toEqual([3, 5, 1, 4, 2]);
    expect(await iids('sort=events&order=desc')).toEqual([2, 5, 4, 3, 1]);
    expect((await iids('sort=updated_at&order=desc')).slice(0, 3)).toEqual([1, 5, 3]);
    expect(await iids('order=asc')).toEqual([1, 2, 3, 4, 5]);
  });

  it('pages a sorted list without repeating or skipping an alert', async () => {
    const pages = [await iids('sort=severity&per_page=2&page=1'), await iids('sort=severity&per_page=2&page=2'), await iids('sort=severity&per_page=2&page=3')];
    expect(pages).toEqual([[4, 2], [3, 1], [5]]);
  });

  it('filters by several severities, repeated or separated by commas', async () => {
    expect(await iids('severity=critical&severity=info')).toEqual([5, 4, 2]);
    expect(await iids('severity=critical,low&sort=started_at&order=asc')).toEqual([2, 4, 1]);
  });

  it('filters by assignee: a username, the caller, nobody', async () => {
    expect(await iids('assignee_username=omar')).toEqual([5, 3]);
    expect(await iids('assignee_username=mara')).toEqual([3, 1]);
    expect(await iids('assignee_id=me')).toEqual([3, 1]);
    expect(await iids('assignee_id=none')).toEqual([4, 2]);
    expect(await iids('assignee_username=nobody-here')).toEqual([]);
  });

  it.each([
    ['sort=title', 'sort must be one of severity, started_at, events, updated_at'],
    ['sort=severity&order=up', 'order must be asc or desc'],
    ['severity=urgent', 'severity must be one or more of critical, high, medium, low, info, unknown'],
    ['severity=critical,bad', 'severity must be one or more of critical, high, medium, low, info, unknown'],
    ['assignee_username=a%20b', 'assignee_username must be a username: letters, digits, _ . or -'],
  ])('400 {error, message} for %s', async (query, message) => {
    const answer = await call(`?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'validation_failed', message: expect.stringContaining(message) });
  });
});
