import { serviceEnv, ServiceProcess, startService } from '@alert-ingestion/testing';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

/**
 * integration-config and alert-processor authenticate and authorise with one implementation
 * (@alert-ingestion/access): the same situation gets the same status and body from both.
 */
describe('access control is the same in integration-config and alert-processor', () => {
  let api: ManagementApi;
  let processor: ServiceProcess;
  let project: number;
  const tokens: Record<string, string> = {};

  interface Answer {
    status: number;
    body: unknown;
  }

  async function call(base: string, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
    const response = await fetch(`${base}/api/v4${path}`, { method, headers });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  }

  /** A developer-level route of each service: test alerts (integration-config) and the alert list (alert-processor). */
  async function both(projectPath: string, headers: Record<string, string>): Promise<[Answer, Answer]> {
    return Promise.all([
      call(api.url, 'POST', `/projects/${projectPath}/alert_integrations/1/test_alert`, headers),
      call(processor.url, 'GET', `/projects/${projectPath}/alerts`, headers),
    ]);
  }

  beforeAll(async () => {
    api = await ManagementApi.start();
    processor = await startService('alert-processor', serviceEnv({ DATABASE_URL: api.database.url, KAFKA_TOPIC_PREFIX: api.topics.prefix, ADMIN_TOKEN }));
    project = await api.createProject('access/same', 'premium');
    for (const level of ['guest', 'reporter', 'developer']) tokens[level] = await api.member(project, level);
    tokens.outsider = (await api.createUser('access-outsider')).token;
    tokens.expired = await api.member(project, 'owner');
    tokens.revoked = await api.member(project, 'owner');
    await api.sql(`UPDATE personal_access_tokens SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE username LIKE 'owner-%' ORDER BY id LIMIT 1)`);
    await api.sql(`UPDATE personal_access_tokens SET revoked_at = now() WHERE user_id = (SELECT id FROM users WHERE username LIKE 'owner-%' ORDER BY id DESC LIMIT 1)`);
  });

  afterAll(async () => {
    await processor?.stop();
    await api?.stop();
  });

  it.each([
    ['no token', () => ({}), 401, 'A token is required: send "Authorization: Bearer <token>" or "PRIVATE-TOKEN: <token>".'],
    ['an unknown token', () => ({ Authorization: 'Bearer not-a-token' }), 401, 'The token is not valid.'],
    ['an expired token', () => ({ Authorization: `Bearer ${tokens.expired}` }), 401, 'The token has expired.'],
    ['a revoked token', () => ({ 'PRIVATE-TOKEN': tokens.revoked }), 401, 'The token has been revoked.'],
    ['another Authorization scheme', () => ({ Authorization: `Basic ${Buffer.from(`:${tokens.developer}`).toString('base64')}` }), 401, 'A token is required: send "Authorization: Bearer <token>" or "PRIVATE-TOKEN: <token>".'],
    ['an unknown PRIVATE-TOKEN beside a valid Bearer token (PRIVATE-TOKEN wins)', () => ({ 'PRIVATE-TOKEN': 'nope', Authorization: `Bearer ${tokens.developer}` }), 401, 'The token is not valid.'],
  ])('%s: 401 with the same body from both', async (_situation, headers, status, message) => {
    const [config, alerts] = await both(String(project), headers());
    expect(config).toEqual({ status, body: { error: 'unauthorized', message } });
    expect(alerts).toEqual(config);
  });

  it.each([
    ['a user who is not a member', () => tokens.outsider, () => String(project)],
    ['an unknown project', () => tokens.developer, () => '987654321'],
    ['a path id that is no id', () => tokens.developer, () => 'abc'],
    ['the administrator and an unknown project', () => ADMIN_TOKEN, () => '987654321'],
  ])('%s: 404 with the same body from both', async (_situation, token, projectPath) => {
    const [config, alerts] = await both(projectPath(), { Authorization: `Bearer ${token()}` });
    expect(config).toEqual({ status: 404, body: { error: 'project_not_found', message: 'Project not found.' } });
    expect(alerts).toEqual(config);
  });

  it.each(['guest', 'reporter'])('a %s below Developer: 403 with the same body from both', async (level) => {
    const [config, alerts] = await both(String(project), { 'PRIVATE-TOKEN': tokens[level] });
    expect(config).toEqual({ status: 403, body: { error: 'insufficient_role', message: `This needs at least the developer role in the project; you are ${level}.` } });
    expect(alerts).toEqual(config);
  });

  it('lets a valid PRIVATE-TOKEN in beside a malformed Authorization header, in both', async () => {
    const headers = { 'PRIVATE-TOKEN': tokens.developer, Authorization: 'Bearer' };
    expect((await call(api.url, 'GET', `/projects/${project}`, headers)).status).toBe(200);
    expect((await call(processor.url, 'GET', `/projects/${project}/alerts`, headers)).status).toBe(200);
  });
});
