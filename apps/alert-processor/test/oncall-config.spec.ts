import type { OncallConfigDocument, OncallConfigResult, OncallScheduleView } from '@alert-ingestion/contracts';
import { ServiceStack, TestWebhookReceiver } from '@alert-ingestion/testing';
import YAML from 'yaml';
import { ESCALATION_SETTINGS, EscalationTeam } from './escalation-team';

/**
 * The on-call setup as one document through the real stack (integration-config's proxy, the
 * processor, PostgreSQL): GET in JSON and YAML with its version, PUT applied atomically (the plan by
 * key, the same document twice changing nothing, a bad document changing nothing and naming every
 * problem by JSON pointer, If-Match, dry runs), as a team keeps it in a repository and applies it
 * from CI with curl.
 */
describe('on-call setup as code (real stack)', () => {
  const receiver = new TestWebhookReceiver();
  let stack: ServiceStack;

  beforeAll(async () => {
    await receiver.start();
    stack = await ServiceStack.start({ processor: ESCALATION_SETTINGS });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 60_000);

  /** A raw call through integration-config as `token`, with the body as text (YAML) or JSON. */
  const send = async (token: string, method: string, path: string, body?: { yaml: string } | unknown, headers: Record<string, string> = {}) => {
    const yaml = typeof body === 'object' && body !== null && 'yaml' in body ? (body as { yaml: string }).yaml : undefined;
    const response = await fetch(`${stack.urls.integrationConfig}/api/v4${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': yaml === undefined ? 'application/json' : 'text/yaml' }),
        ...headers,
      },
      body: body === undefined ? undefined : (yaml ?? JSON.stringify(body)),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it('applies a document from nothing, gives it back with stable keys, and changes nothing when it comes again', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada', 'bob']);
    const lead = team.members.lead.token;
    const path = `/projects/${team.project.id}/oncall_config`;
    const empty = await send(lead, 'GET', path);
    expect(JSON.parse(empty.text)).toEqual({ version: 1, schedules: [], escalation_policy: null, users: [] });
    const [ada, bob] = [team.members.ada.username, team.members.bob.username];
    const yaml = `# Kept in the team's repository, applied from CI.
version: 1
schedules:
  - name: Primary
    time_zone: Europe/Berlin
    rotations:
      - name: Weeks
        starts_at: "2026-03-30T09:00"
        shift_length: 1
        shift_length_unit: weeks
        participants: [${ada}, ${bob}]
  - name: Secondary
    description: Back-up
    time_zone: UTC
    rotations:
      - name: Days
        starts_at: "2026-03-30T08:00"
        shift_length: 1
        shift_length_unit: days
        active_period: { start_time: "08:00", end_time: "20:00" }
        participants: [${bob}]
escalation_policy:
  repeat: 1
  rules:
    - after_minutes: 0
      condition: not_acknowledged
      targets: [{ schedule: Primary }]
    - after_minutes: 15
      condition: not_resolved
      targets: [{ schedule: Secondary }, { user: ${ada} }, { webhook: "${receiver.url}/ci" }]
`;
    const planned = await send(lead, 'PUT', `${path}?dry_run=true`, { yaml });
    expect(planned.status).toBe(200);
    const plan = JSON.parse(planned.text) as OncallConfigResult;
    expect(plan).toMatchObject({ applied: false, etag: empty.headers.get('etag') });
    expect(plan.changes.map((change) => `${change.action} ${change.key}`)).toEqual([
      'create Primary',
      'create Primary/Weeks',
      'create Secondary',
      'create Secondary/Days',
      'create escalation_policy',
    ]);
    expect((await team.call<OncallScheduleView[]>('lead', 'GET', `/projects/${team.project.id}/oncall_schedules`)).length).toBe(0);

    const applied = await send(lead, 'PUT', path, { yaml });
    expect(applied.status).toBe(200);
    const result = JSON.parse(applied.text) as OncallConfigResult;
    expect(result.applied).toBe(true);
    expect(applied.headers.get('etag')).toBe(result.etag);
    const schedules = await team.call<OncallScheduleView[]>('lead', 'GET', `/projects/${team.project.id}/oncall_schedules`);
    expect(schedules.map((schedule) => [schedule.name, schedule.rotations.map((rotation) => rotation.participants.map((user) => user.username))])).toEqual([
      ['Primary', [[ada, bob]]],
      ['Secondary', [[bob]]],
    ]);
    const policy = await team.call<{ rules: Array<{ description: string }> }>('lead', 'GET', `/projects/${team.project.id}/escalation_policy`);
    expect(policy.rules.map((rule) => rule.description)).toEqual([
      'at once, if not acknowledged, page whoever is on call in Primary',
      `after 15 min, if not resolved, page whoever is on call in Secondary, @${ada} and the webhook ${receiver.url}/ci`,
    ]);

    // As YAML, with the version; the same document again changes nothing and keeps the version.
    const got = await send(lead, 'GET', path, undefined, { Accept: 'text/yaml' });
    expect(got.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(got.headers.get('etag')).toBe(result.etag);
    const document = YAML.parse(got.text) as OncallConfigDocument;
    expect(document.schedules[1]).toEqual({
      name: 'Secondary',
      description: 'Back-up',
      time_zone: 'UTC',
      rotations: [{ name: 'Days', starts_at: '2026-03-30T08:00', ends_at: null, shift_length: 1, shift_length_unit: 'days', active_period: { start_time: '08:00', end_time: '20:00' }, participants: [bob] }],
    });
    expect(document.users?.map((user) => user.username).sort()).toEqual([ada, bob].sort());
    for (const again of [{ yaml }, { yaml: got.text }, document]) {
      const answer = await send(lead, 'PUT', path, again, { 'If-Match': result.etag });
      expect(answer.status).toBe(200);
      const twice = JSON.parse(answer.text) as OncallConfigResult;
      expect([twice.etag, new Set(twice.changes.map((change) => change.action))]).toEqual([result.etag, new Set(['unchanged'])]);
    }
    expect((await team.call<OncallScheduleView[]>('lead', 'GET', `/projects/${team.project.id}/oncall_schedules`)).map((schedule) => schedule.updated_at)).toEqual(schedules.map((schedule) => schedule.updated_at));
  }, 90_000);

  it('refuses a bad document whole, naming every problem by its JSON pointer, a stale version, and anyone below maintainer', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada']);
    const lead = team.members.lead.token;
    const path = `/projects/${team.project.id}/oncall_config`;
    const good = { version: 1, schedules: [{ name: 'Primary', time_zone: 'UTC', rotations: [] }], escalation_policy: null };
    const first = await send(lead, 'PUT', path, good);
    const { etag } = JSON.parse(first.text) as OncallConfigResult;

    const bad = {
      version: 1,
      schedules: [
        { name: 'Primary', time_zone: 'Mars/Olympus', rotations: [] },
        { name: 'Nights', time_zone: 'UTC', rotations: [{ name: 'Nights', starts_at: '2026-03-30T21:00', shift_length: 1, shift_length_unit: 'days', participants: ['nobody-here'] }] },
      ],
      escalation_policy: { rules: [{ after_minutes: 0, condition: 'not_acknowledged', targets: [{ schedule: 'Tertiary' }] }] },
    };
    const refused = await send(lead, 'PUT', path, bad);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      error: 'invalid_document',
      message: 'The document has 3 problems: nothing was applied.',
      errors: [
        { pointer: '/schedules/0/time_zone', message: expect.stringContaining('IANA') },
        { pointer: '/schedules/1/rotations/0/participants/0', message: 'nobody-here is not a member of the project.' },
        { pointer: '/escalation_policy/rules/0/targets/0/schedule', message: 'The project has no on-call schedule Tertiary.' },
      ],
    });
    const shape = await send(lead, 'PUT', path, { version: 1, schedules: [{ name: 'X', time_zone: 'UTC', color: 'red' }] });
    expect(JSON.parse(shape.text).errors).toEqual([
      { pointer: '/escalation_policy', message: 'escalation_policy is required' },
      { pointer: '/schedules/0/color', message: 'color is not a field of this document here' },
    ]);
    expect(JSON.parse((await send(lead, 'PUT', path, { yaml: 'version: [1' })).text)).toMatchObject({ error: 'invalid_document', errors: [{ pointer: '' }] });
    const after = await send(lead, 'GET', path);
    expect([after.headers.get('etag'), (JSON.parse(after.text) as OncallConfigDocument).schedules.map((schedule) => schedule.time_zone)]).toEqual([etag, ['UTC']]);

    // Someone changed the setup since the document was read: its If-Match no longer holds.
    await team.call('lead', 'POST', `/projects/${team.project.id}/oncall_schedules`, { name: 'Ad hoc', time_zone: 'UTC' });
    const stale = await send(lead, 'PUT', path, good, { 'If-Match': etag });
    expect([stale.status, JSON.parse(stale.text).error]).toEqual([412, 'precondition_failed']);
    const planned = JSON.parse((await send(lead, 'PUT', `${path}?dry_run=true`, good)).text) as OncallConfigResult;
    expect(planned.changes.map((change) => `${change.action} ${change.key}`)).toEqual(['unchanged Primary', 'delete Ad hoc']);

    expect((await send(team.members.ada.token, 'GET', path)).status).toBe(403);
    expect((await send(team.members.ada.token, 'PUT', path, good)).status).toBe(403);
    const schema = await send(team.members.ada.token, 'GET', `${path}/schema`);
    expect([schema.status, schema.headers.get('content-type'), JSON.parse(schema.text).title]).toEqual([200, 'application/schema+json; charset=utf-8', "A project's on-call setup"]);
  }, 90_000);
});
