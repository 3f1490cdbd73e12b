import { AlertBulkUpdateResult, AlertView, AssigneeCandidate } from '@alert-ingestion/contracts';
import { ProcessorHarness, TestIntegration } from './processor-harness';
import { ProjectApi, TestMember } from './project-api';

// docs/api-guide.md "Alert workflow": assignees (developer+ members), acknowledging assigns the
// acknowledger, the "assigned to" filter, bulk updates that never reopen a resolved alert, and
// alert.assigned on alerts.events.v1.
describe('alert processor: assignees and bulk updates', () => {
  const harness = new ProcessorHarness();
  let project: ProjectApi;
  let integration: TestIntegration;
  let alice: TestMember;
  let bob: TestMember;
  let maintainer: TestMember;
  let reporter: TestMember;
  let outsider: TestMember;

  beforeAll(async () => {
    await harness.start();
    project = await ProjectApi.create(harness);
    integration = await harness.integration('premium', [], project.projectId);
    alice = await project.member('developer', 'alice');
    bob = await project.member('developer', 'bob');
    maintainer = await project.member('maintainer', 'carol');
    reporter = await project.member('reporter', 'dave');
    outsider = await project.member(null, 'eve');
  });

  afterAll(async () => {
    await harness.stop();
  });

  let fingerprints = 0;
  async function newAlert(title = 'Disk full'): Promise<number> {
    const reply = await harness.receive(integration, { title, fingerprint: `fp-${++fingerprints}-${Date.now()}` });
    const iid = reply.alerts[0]?.iid;
    if (iid === undefined) throw new Error(`no alert: ${JSON.stringify(reply)}`);
    return iid;
  }

  const alert = async (iid: number) => (await project.call<AlertView>('GET', `/alerts/${iid}`, alice.token)).body;
  const assign = (iid: number, ids: number[], token = alice.token) => project.call<AlertView>('PUT', `/alerts/${iid}/assignees`, token, { assignee_ids: ids });
  const eventsOf = (iid: number, type: string) => harness.events.waitFor((event) => event.key === `${project.projectId}:${iid}` && event.value.type === type, 1);

  it('lists developer+ members as candidates, by username, with their role', async () => {
    const answer = await project.call<AssigneeCandidate[]>('GET', '/alerts/assignee_candidates', alice.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { id: alice.id, username: alice.username, access_level: 'developer' },
      { id: bob.id, username: bob.username, access_level: 'developer' },
      { id: maintainer.id, username: maintainer.username, access_level: 'maintainer' },
    ]);
    expect((await project.call('GET', '/alerts/assignee_candidates', reporter.token)).status).toBe(403);
  });

  it('sets and clears assignees, shows them in the alert JSON, and publishes alert.assigned saying who did it', async () => {
    const iid = await newAlert();
    expect((await alert(iid)).assignees).toEqual([]);
    expect((await alert(iid)).incident_iid).toBeNull();
    const answer = await assign(iid, [bob.id, maintainer.id, bob.id]);
    expect(answer.status).toBe(200);
    expect(answer.body.assignees).toEqual([
      { id: bob.id, username: bob.username },
      { id: maintainer.id, username: maintainer.username },
    ]);
    expect((await alert(iid)).assignees).toEqual(answer.body.assignees);
    const [event] = await eventsOf(iid, 'alert.assigned');
    expect(event.value).toMatchObject({ cause: { type: 'user', user_id: alice.id }, alert: { iid, assignees: answer.body.assignees } });
    expect((await assign(iid, [])).body.assignees).toEqual([]);
  });

  it('refuses a non-member, a reporter and a bad body (400 naming the field) and changes nothing', async () => {
    const iid = await newAlert();
    await assign(iid, [bob.id]);
    for (const ids of [[outsider.id], [reporter.id], [bob.id, 987654321]]) {
      const answer = await assign(iid, ids);
      expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_assignee', field: `assignee_ids[${ids.length - 1}]` } });
    }
    for (const body of [{}, { assignee_ids: 'bob' }, { assignee_ids: [0] }, { assignee_ids: [1.5] }]) {
      const answer = await project.call('PUT', `/alerts/${iid}/assignees`, alice.token, body);
      expect(answer).toMatchObject({ status: 400, body: { error: 'validation_failed', field: 'assignee_ids' } });
    }
    expect((await alert(iid)).assignees).toEqual([{ id: bob.id, username: bob.username }]);
    expect((await assign(iid, [bob.id], reporter.token)).status).toBe(403);
    expect((await assign(99_999, [bob.id])).body).toMatchObject({ error: 'alert_not_found' });
  });

  it('assigns the one who acknowledges an unassigned alert, in the same change; not when someone is assigned', async () => {
    const unassigned = await newAlert();
    const acked = await project.call<AlertView>('PUT', `/alerts/${unassigned}`, bob.token, { status: 'acknowledged' });
    expect(acked.body).toMatchObject({ status: 'acknowledged', assignees: [{ id: bob.id, username: bob.username }] });
    const [statusEvent] = await eventsOf(unassigned, 'alert.status_changed');
    expect(statusEvent.value.alert.assignees).toEqual([{ id: bob.id, username: bob.username }]);
    await eventsOf(unassigned, 'alert.assigned');

    const owned = await newAlert();
    await assign(owned, [alice.id]);
    const second = await project.call<AlertView>('PUT', `/alerts/${owned}`, bob.token, { status: 'acknowledged' });
    expect(second.body.assignees).toEqual([{ id: alice.id, username: alice.username }]);
  });

  it('never reopens a resolved alert by an acknowledge (409 alert_resolved); triggered still reopens it', async () => {
    const iid = await newAlert('Recovering');
    await project.call('PUT', `/alerts/${iid}`, alice.token, { status: 'resolved' });
    const stale = await project.call('PUT', `/alerts/${iid}`, bob.token, { status: 'acknowledged' });
    expect(stale).toMatchObject({ status: 409, body: { error: 'alert_resolved' } });
    expect(await alert(iid)).toMatchObject({ status: 'resolved', assignees: [] });
    expect((await project.call<AlertView>('PUT', `/alerts/${iid}`, bob.token, { status: 'triggered' })).body.status).toBe('triggered');
  });

  it('filters the list by assignee: a user id, me, none', async () => {
    const mine = await newAlert('Mine');
    const theirs = await newAlert('Theirs');
    await assign(mine, [alice.id, bob.id]);
    await assign(theirs, [maintainer.id]);
    const iids = async (query: string, token = alice.token) => {
      const answer = await project.call<AlertView[]>('GET', `/alerts?per_page=100&${query}`, token);
      expect(answer.status).toBe(200);
      return answer.body.map((item) => item.iid);
    };
    expect(await iids('assignee_id=me')).toContain(mine);
    expect(await iids('assignee_id=me')).not.toContain(theirs);
    expect(await iids(`assignee_id=${maintainer.id}`)).toEqual([theirs]);
    expect(await iids('assignee_id=me', maintainer.token)).toEqual([theirs]);
    const unassigned = await iids('assignee_id=none');
    expect(unassigned).not.toContain(mine);
    expect(unassigned).not.toContain(theirs);
    expect((await alert(unassigned[0])).assignees).toEqual([]);
    expect((await project.call('GET', '/alerts?assignee_id=me', 'test-admin-token')).body).toEqual([]);
    expect((await project.call('GET', '/alerts?assignee_id=someone', alice.token)).body).toMatchObject({ error: 'validation_failed', field: 'assignee_id' });
  });

  it('acknowledges several alerts at once, assigning the acknowledger where nobody is, and skips a resolved one without reopening it', async () => {
    const first = await newAlert('Storm 1');
    const second = await newAlert('Storm 2');
    const resolved = await newAlert('Storm 3');
    await assign(second, [maintainer.id]);
    await project.call('PUT', `/alerts/${resolved}`, alice.token, { status: 'resolved' });
    const answer = await project.call<AlertBulkUpdateResult>('POST', '/alerts/bulk_update', bob.token, {
      iids: [first, second, resolved, 99_999],
      status: 'acknowledged',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      updated: [first, second],
      skipped: [
        { iid: resolved, reason: 'resolved' },
        { iid: 99_999, reason: 'not_found' },
      ],
    });
    expect(await alert(first)).toMatchObject({ status: 'acknowledged', assignees: [{ id: bob.id }] });
    expect(await alert(second)).toMatchObject({ status: 'acknowledged', assignees: [{ id: maintainer.id }] });
    expect(await alert(resolved)).toMatchObject({ status: 'resolved', assignees: [] });
    // Again: nothing left to change.
    const again = await project.call<AlertBulkUpdateResult>('POST', '/alerts/bulk_update', bob.token, { iids: [first], status: 'acknowledged' });
    expect(again.body).toEqual({ updated: [], skipped: [{ iid: first, reason: 'unchanged' }] });
  });

  it('bulk-assigns, and refuses bad requests whole', async () => {
    const one = await newAlert('Bulk 1');
    const two = await newAlert('Bulk 2');
    const answer = await project.call<AlertBulkUpdateResult>('POST', '/alerts/bulk_update', alice.token, { iids: [one, two], assignee_ids: [bob.id] });
    expect(answer.body.updated).toEqual([one, two]);
    expect((await alert(two)).assignees).toEqual([{ id: bob.id, username: bob.username }]);
    const refused = await project.call('POST', '/alerts/bulk_update', alice.token, { iids: [one, two], assignee_ids: [outsider.id] });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_assignee', field: 'assignee_ids[0]' } });
    expect((await alert(one)).assignees).toEqual([{ id: bob.id, username: bob.username }]);
    for (const body of [{ iids: [] }, { iids: Array.from({ length: 101 }, (_, index) => index + 1), status: 'acknowledged' }, { iids: [one], status: 'closed' }]) {
      expect((await project.call('POST', '/alerts/bulk_update', alice.token, body)).status).toBe(400);
    }
    expect((await project.call('POST', '/alerts/bulk_update', alice.token, { iids: [one] })).body).toMatchObject({ error: 'nothing_to_update' });
    expect((await project.call('POST', '/alerts/bulk_update', reporter.token, { iids: [one], status: 'acknowledged' })).status).toBe(403);
  });
});
