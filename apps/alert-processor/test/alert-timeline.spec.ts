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
    expect(entries.map((entry) => entry.kind)).toEqual(['status_changed', 'note']);
    expect(entries[1]).toEqual(note.body);
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
