import { ActivityEntryView, AlertView } from '@alert-ingestion/contracts';
import { ProcessorHarness, TestIntegration } from './processor-harness';
import { ProjectApi, TestMember } from './project-api';

// docs/api-guide.md "Alert workflow": an alert's timeline, oldest first and paged, with who or what
// made each change, and notes members write.
describe('alert processor: alert timeline and notes', () => {
  const harness = new ProcessorHarness();
  let project: ProjectApi;
  let integration: TestIntegration;
  let developer: TestMember;
  let reporter: TestMember;

  beforeAll(async () => {
    await harness.start();
    project = await ProjectApi.create(harness);
    integration = await harness.integration('premium', [], project.projectId);
    developer = await project.member('developer', 'dev');
    reporter = await project.member('reporter');
  });

  afterAll(async () => {
    await harness.stop();
  });

  async function newAlert(title: string): Promise<number> {
    const reply = await harness.receive(integration, { title, fingerprint: `${title}-${Date.now()}` });
    const iid = reply.alerts[0]?.iid;
    if (iid === undefined) throw new Error(`no alert for ${title}: ${JSON.stringify(reply)}`);
    return iid;
  }

  function timeline(iid: number, query = ''): Promise<{ status: number; headers: Headers; body: ActivityEntryView[] }> {
    return project.call<ActivityEntryView[]>('GET', `/alerts/${iid}/activity${query}`, developer.token);
  }

  it('derives the creation and ONE grouped-events entry from the alert row: a grouped payload writes no timeline row', async () => {
    const fingerprint = `grouped-${Date.now()}`;
    const first = await harness.receive(integration, { title: 'Grouped', fingerprint });
    const iid = first.alerts[0].iid;
    const rows = async () => Number((await harness.db.query('SELECT count(*) FROM activity_entries WHERE project_id = $1', [project.projectId])).rows[0].count);
    const before = await rows();
    for (let repeat = 0; repeat < 4; repeat++) await harness.receive(integration, { title: 'Grouped', fingerprint });
    expect(await rows()).toBe(before);
    const entries = (await timeline(iid)).body;
    expect(entries.map((entry) => [entry.id, entry.kind])).toEqual([
      [0, 'alert_created'],
      [0, 'events_grouped'],
    ]);
    // The integration is named as it is now (the processor's view of the integrations topic).
    expect(entries[0]).toMatchObject({ actor: { type: 'service' }, source: 'payload', details: { integration_id: Number(integration.id), integration_name: `integration ${integration.id}` } });
    expect(entries[1].details).toMatchObject({ count: 4, first_at: entries[1].created_at });
    expect(new Date(entries[1].details.last_at as string).getTime()).toBeGreaterThan(new Date(entries[1].created_at).getTime());
  });

  it('records a recovery payload resolving its alert, with the integration that sent it', async () => {
    const fingerprint = `recovering-${Date.now()}`;
    const iid = (await harness.receive(integration, { title: 'Recovering', fingerprint })).alerts[0].iid;
    await harness.receive(integration, { title: 'Recovering', fingerprint, end_time: new Date().toISOString() });
    const changes = (await timeline(iid)).body.filter((entry) => entry.kind === 'status_changed');
    expect(changes).toMatchObject([{ actor: { type: 'service' }, source: 'payload', details: { from: 'triggered', to: 'resolved', integration_id: Number(integration.id) } }]);
  });

  it('records an alert created and resolved by one request, found by its iid', async () => {
    const fingerprint = `flap-${Date.now()}`;
    const reply = await harness.receive(integration, [
      { title: 'Flap', fingerprint },
      { title: 'Flap', fingerprint, end_time: new Date().toISOString() },
    ]);
    const kinds = (await timeline(reply.alerts[0].iid)).body.map((entry) => [entry.kind, entry.source]);
    expect(kinds).toEqual([
      ['alert_created', 'payload'],
      ['status_changed', 'payload'],
    ]);
  });

  it('records assignments with who was added and removed', async () => {
    const iid = await newAlert('Assigned');
    await project.call('PUT', `/alerts/${iid}/assignees`, developer.token, { assignee_ids: [developer.id] });
    await project.call('PUT', `/alerts/${iid}/assignees`, developer.token, { assignee_ids: [] });
    const assignments = (await timeline(iid)).body.filter((entry) => entry.kind === 'assignees_changed');
    expect(assignments.map((entry) => entry.details)).toEqual([
      { added: [{ id: developer.id, username: developer.username }], removed: [] },
      { added: [], removed: [{ id: developer.id, username: developer.username }] },
    ]);
    expect(assignments[0].actor).toEqual({ type: 'user', id: developer.id, username: developer.username });
  });

  it('records a status change a developer makes, with the developer named as its actor', async () => {
    const iid = await newAlert('Disk full');
    expect((await project.call<AlertView>('PUT', `/alerts/${iid}`, developer.token, { status: 'resolved' })).status).toBe(200);
    const answer = await timeline(iid);
    expect(answer.status).toBe(200);
    const changes = answer.body.filter((entry) => entry.kind === 'status_changed');
    expect(changes).toEqual([
      {
        id: expect.any(Number),
        kind: 'status_changed',
        created_at: expect.any(String),
        actor: { type: 'user', id: developer.id, username: developer.username },
        source: 'api',
        reason: null,
        details: { from: 'triggered', to: 'resolved' },
      },
    ]);
    // Asking again for the status it has changes nothing and records nothing.
    await project.call('PUT', `/alerts/${iid}`, developer.token, { status: 'resolved' });
    expect((await timeline(iid)).body.filter((entry) => entry.kind === 'status_changed')).toHaveLength(1);
  });

  it('adds a note in Markdown, answered 201 as its timeline entry, and lists it after the changes before it', async () => {
    const iid = await newAlert('CPU high');
    await project.call('PUT', `/alerts/${iid}`, developer.token, { status: 'acknowledged' });
    const note = await project.call<ActivityEntryView>('POST', `/alerts/${iid}/notes`, developer.token, { body: 'Rolled back **v2.3**' });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ kind: 'note', source: 'api', actor: { type: 'user', id: developer.id, username: developer.username }, details: { body: 'Rolled back **v2.3**' } });
    const entries = (await timeline(iid)).body.filter((entry) => entry.id !== 0);
    // Acknowledging the unassigned alert assigned the developer, in the same change.
    expect(entries.map((entry) => entry.kind)).toEqual(['status_changed', 'assignees_changed', 'note']);
    expect(entries[2]).toEqual(note.body);
  });

  it('refuses a blank, missing or too long note (400, naming the field) and writes nothing', async () => {
    const iid = await newAlert('Memory');
    for (const body of [{ body: '' }, { body: '   \n' }, {}, { body: 'x'.repeat(10_001) }, { body: 42 }]) {
      const answer = await project.call('POST', `/alerts/${iid}/notes`, developer.token, body);
      expect(answer).toMatchObject({ status: 400, body: { error: 'validation_failed', field: 'body' } });
    }
    expect((await project.call('POST', `/alerts/${iid}/notes`, developer.token, { body: 'x'.repeat(10_000) })).status).toBe(201);
    expect((await timeline(iid)).body.filter((entry) => entry.kind === 'note')).toHaveLength(1);
  });

  it('lets developers+ read and write, not reporters; 404 for an alert the project does not have', async () => {
    const iid = await newAlert('Latency');
    expect((await project.call('GET', `/alerts/${iid}/activity`, reporter.token)).status).toBe(403);
    expect((await project.call('POST', `/alerts/${iid}/notes`, reporter.token, { body: 'hi' })).status).toBe(403);
    expect((await project.call('GET', `/alerts/99999/activity`, developer.token)).body).toMatchObject({ error: 'alert_not_found' });
    expect((await project.call('POST', `/alerts/99999/notes`, developer.token, { body: 'hi' })).status).toBe(404);
  });

  it('pages the timeline oldest first with GitLab pagination headers', async () => {
    const iid = await newAlert('Paged');
    for (const body of ['one', 'two', 'three']) await project.call('POST', `/alerts/${iid}/notes`, developer.token, { body });
    const all = (await timeline(iid)).body;
    const notes = all.filter((entry) => entry.kind === 'note').map((entry) => entry.details.body);
    expect(notes).toEqual(['one', 'two', 'three']);
    const first = await timeline(iid, '?per_page=1');
    expect(first.body).toEqual([all[0]]);
    expect(first.headers.get('x-total')).toBe(String(all.length));
    expect(first.headers.get('x-next-page')).toBe('2');
    const last = await timeline(iid, `?per_page=1&page=${all.length}`);
    expect(last.body).toEqual([all[all.length - 1]]);
    expect(last.headers.get('x-next-page')).toBe('');
    expect((await timeline(iid, '?per_page=101')).status).toBe(400);
  });
});
