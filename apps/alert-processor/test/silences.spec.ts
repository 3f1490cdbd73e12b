import { AlertEvent, AlertView, SilenceView, Topic } from '@alert-ingestion/contracts';
import { eventually, ServiceStack, StackProject, testKafka, TopicCollector } from '@alert-ingestion/testing';
import { logLevel } from 'kafkajs';

interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

const HOUR = 3_600_000;

/**
 * Silences through the real stack (docs/api-guide.md "Silences"): created through integration-config's
 * alerts proxy as the console does, alerts sent to the gateway, the processor marks the alerts a
 * silence matches in its API and on alerts.events.v1.
 */
describe('silences (maintenance windows) through the stack', () => {
  let stack: ServiceStack;
  let project: StackProject;
  let events: TopicCollector<AlertEvent.AlertEventValue>;
  const tokens: Record<string, string> = {};
  let maintainer: { id: number; username: string };

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown): Promise<Answer<T>> => stack.answerAs<T>(token, method, path, body);

  const send = (payload: unknown): Promise<number[]> => stack.notify(project.integration, payload);

  async function alert(iid: number): Promise<AlertView> {
    const answer = await call<AlertView>('GET', `/projects/${project.id}/alerts/${iid}`, tokens.developer);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  async function eventsOf(iid: number, count: number): Promise<AlertEvent.AlertEventValue[]> {
    const received = await events.waitFor((event) => event.key === `${project.id}:${iid}`, count);
    return received.map((event) => event.value);
  }

  async function createSilence(body: Record<string, unknown>, token = tokens.maintainer): Promise<Answer<SilenceView>> {
    return call<SilenceView>('POST', `/projects/${project.id}/silences`, token, body);
  }

  const inAnHour = () => new Date(Date.now() + HOUR).toISOString();

  beforeAll(async () => {
    stack = await ServiceStack.start();
    project = await stack.createProject('premium', { pathPrefix: 'silences' });
    for (const level of ['developer', 'maintainer']) {
      const user = await stack.management<{ id: number; username: string; token: string }>('POST', '/users', { username: `${level}-${project.id}` });
      await stack.management('POST', `/projects/${project.id}/members`, { user_id: user.id, access_level: level });
      tokens[level] = user.token;
      if (level === 'maintainer') maintainer = { id: user.id, username: user.username };
    }
    const prefix = stack.topics.prefix;
    events = await TopicCollector.published<AlertEvent.AlertEventValue>(testKafka({ logLevel: logLevel.NOTHING }), prefix, Topic.AlertEvents);
  });

  afterAll(async () => {
    await events?.stop().catch(() => undefined);
    await stack?.stop();
  });

  describe('validation and roles', () => {
    it.each<[string, Record<string, unknown>, RegExp, string]>([
      ['no matcher', { matchers: [], ends_at: inAnHour(), comment: 'x' }, /at least one matcher/, 'matchers'],
      ['an unknown field', { matchers: [{ field: 'status', operator: '=', value: 'x' }], ends_at: inAnHour(), comment: 'x' }, /field must be one of/, 'matchers[0].field'],
      [
        'a regex that does not compile',
        { matchers: [{ field: 'service', operator: '=', value: 'db' }, { field: 'title', operator: '=~', value: '(disk' }], ends_at: inAnHour(), comment: 'x' },
        /^matchers\[1\]: This is not a valid regular expression \(RE2 syntax\): a \( is not closed\.$/,
        'matchers[1].value',
      ],
      ['a backreference (not RE2)', { matchers: [{ field: 'title', operator: '=~', value: '(a)\\1' }], ends_at: inAnHour(), comment: 'x' }, /not a valid regular expression/, 'matchers[0].value'],
      ['a regex longer than 1024 characters', { matchers: [{ field: 'title', operator: '=~', value: 'a'.repeat(1025) }], ends_at: inAnHour(), comment: 'x' }, /at most 1024/, 'matchers[0].value'],
      [
        'matchers that all match the empty value (they would silence every alert)',
        { matchers: [{ field: 'service', operator: '=', value: '' }, { field: 'title', operator: '=~', value: '.*' }], ends_at: inAnHour(), comment: 'x' },
        /must not match the empty value/,
        'matchers',
      ],
      [
        'ends_at before starts_at',
        { matchers: [{ field: 'title', operator: '=', value: 'x' }], starts_at: new Date(Date.now() + 2 * HOUR).toISOString(), ends_at: inAnHour(), comment: 'x' },
        /ends_at must be after starts_at/,
        'ends_at',
      ],
      ['ends_at in the past', { matchers: [{ field: 'title', operator: '=', value: 'x' }], ends_at: new Date(Date.now() - HOUR).toISOString(), comment: 'x' }, /in the future/, 'ends_at'],
      ['no comment', { matchers: [{ field: 'title', operator: '=', value: 'x' }], ends_at: inAnHour() }, /comment/, 'comment'],
    ])('refuses %s: 400 {error, message, field}', async (_, body, message, field) => {
      const answer = await createSilence(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'validation_failed', message: expect.stringMatching(message), field });
    });

    it('takes service="" beside a matcher that does not match the empty value', async () => {
      const body = { matchers: [{ field: 'service', operator: '=', value: '' }, { field: 'title', operator: '=', value: 'Disk full' }], ends_at: inAnHour(), comment: 'x' };
      const created = await createSilence(body);
      expect(created.status).toBe(201);
      await call('POST', `/projects/${project.id}/silences/${created.body.id}/expire`, tokens.maintainer);
    });

    it('lets a developer read silences but not create, edit or expire them (403)', async () => {
      const body = { matchers: [{ field: 'title', operator: '=', value: 'x' }], ends_at: inAnHour(), comment: 'x' };
      const refused = await createSilence(body, tokens.developer);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'insufficient_role', message: 'This needs at least the maintainer role in the project; you are developer.' });
      const created = await createSilence(body);
      expect(created.status).toBe(201);
      expect((await call('GET', `/projects/${project.id}/silences`, tokens.developer)).status).toBe(200);
      expect((await call('GET', `/projects/${project.id}/silences/${created.body.id}`, tokens.developer)).status).toBe(200);
      expect((await call('PUT', `/projects/${project.id}/silences/${created.body.id}`, tokens.developer, { comment: 'y' })).status).toBe(403);
      expect((await call('POST', `/projects/${project.id}/silences/${created.body.id}/expire`, tokens.developer)).status).toBe(403);
      expect((await call('POST', `/projects/${project.id}/silences/${created.body.id}/expire`, tokens.maintainer)).status).toBe(200);
      expect((await call('GET', `/projects/${project.id}/silences/987654`, tokens.developer)).body).toEqual({ error: 'silence_not_found', message: 'Silence 987654 not found.' });
      const notAnId = { error: 'silence_not_found', message: 'Silence 0x1 not found.' };
      expect((await call('GET', `/projects/${project.id}/silences/0x1`, tokens.developer)).body).toEqual(notAnId);
      expect((await call('PUT', `/projects/${project.id}/silences/0x1`, tokens.maintainer, { comment: 'y' })).body).toEqual(notAnId);
      expect((await call('POST', `/projects/${project.id}/silences/0x1/expire`, tokens.maintainer)).body).toEqual(notAnId);
    });
  });

  describe('an active silence', () => {
    let silence: SilenceView;
    let silenced: number;
    let other: number;

    beforeAll(async () => {
      const answer = await createSilence({
        matchers: [
          { field: 'service', operator: '=', value: 'checkout' },
          { path: ['labels', 'team'], operator: '=~', value: 'stor.*' },
        ],
        ends_at: inAnHour(),
        comment: 'Replacing the disks of db-1',
      });
      expect(answer.status).toBe(201);
      silence = answer.body;
      [silenced] = await send({ title: 'Disk full', service: 'checkout', fingerprint: 'disk-db-1', labels: { team: 'storage' } });
      [other] = await send({ title: 'CPU high', service: 'checkout', fingerprint: 'cpu', labels: { team: 'web' } });
    });

    it('is answered as created, active, with its creator', () => {
      expect(silence).toEqual({
        id: expect.any(Number),
        matchers: [
          { field: 'service', operator: '=', value: 'checkout' },
          { path: ['labels', 'team'], operator: '=~', value: 'stor.*' },
        ],
        starts_at: expect.any(String),
        ends_at: expect.any(String),
        comment: 'Replacing the disks of db-1',
        created_by: maintainer,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        state: 'active',
      });
    });

    it('marks the matching alert, stored as usual, in the alerts API and its event; not the other one', async () => {
      const silencedBy = { id: silence.id, comment: 'Replacing the disks of db-1', ends_at: silence.ends_at };
      expect(await alert(silenced)).toMatchObject({ title: 'Disk full', status: 'triggered', silenced_by: silencedBy });
      expect((await alert(other)).silenced_by).toBeNull();
      const [created] = await eventsOf(silenced, 1);
      expect(created).toMatchObject({ type: 'alert.created', alert: { iid: silenced, silenced_by: silencedBy } });
      const [otherCreated] = await eventsOf(other, 1);
      expect(otherCreated.alert.silenced_by).toBeNull();
    });

    it('filters the alerts list with ?silenced=', async () => {
      const only = await call<AlertView[]>('GET', `/projects/${project.id}/alerts?silenced=true`, tokens.developer);
      expect(only.body.map((entry) => entry.iid)).toEqual([silenced]);
      expect(only.headers.get('x-total')).toBe('1');
      const others = await call<AlertView[]>('GET', `/projects/${project.id}/alerts?silenced=false`, tokens.developer);
      expect(others.body.map((entry) => entry.iid)).toContain(other);
      expect(others.body.map((entry) => entry.iid)).not.toContain(silenced);
      expect((await call('GET', `/projects/${project.id}/alerts?silenced=maybe`, tokens.developer)).status).toBe(400);
    });

    it('marks an event grouped into the alert while the silence is active', async () => {
      expect(await send({ title: 'Disk full', service: 'checkout', fingerprint: 'disk-db-1', labels: { team: 'storage' } })).toEqual([silenced]);
      const [, grouped] = await eventsOf(silenced, 2);
      expect(grouped).toMatchObject({ type: 'alert.grouped', alert: { events: 2, silenced_by: { id: silence.id } } });
    });

    it('edits the comment of a silence that has not expired', async () => {
      const edited = await call<SilenceView>('PUT', `/projects/${project.id}/silences/${silence.id}`, tokens.maintainer, { comment: 'Disks of db-1 and db-2' });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ id: silence.id, comment: 'Disks of db-1 and db-2', state: 'active' });
      // The alert shows the silence as it is now.
      expect((await alert(silenced)).silenced_by).toMatchObject({ id: silence.id, comment: 'Disks of db-1 and db-2' });
      const bad = await call('PUT', `/projects/${project.id}/silences/${silence.id}`, tokens.maintainer, { matchers: [] });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'validation_failed', field: 'matchers' });
      // A 400 about the end names ends_at, and the silence is left as it was.
      const past = await call('PUT', `/projects/${project.id}/silences/${silence.id}`, tokens.maintainer, { ends_at: new Date(Date.now() - HOUR).toISOString() });
      expect(past).toMatchObject({ status: 400, body: { error: 'validation_failed', message: expect.stringMatching(/in the future/), field: 'ends_at' } });
      const kept = await call<SilenceView>('GET', `/projects/${project.id}/silences/${silence.id}`, tokens.developer);
      expect(kept.body).toMatchObject({ comment: 'Disks of db-1 and db-2', ends_at: silence.ends_at, state: 'active' });
    });

    it('once expired: stays listed, no longer applies to the alert or to new events, and cannot be edited', async () => {
      const expired = await call<SilenceView>('POST', `/projects/${project.id}/silences/${silence.id}/expire`, tokens.maintainer);
      expect(expired.status).toBe(200);
      expect(expired.body.state).toBe('expired');
      expect(new Date(expired.body.ends_at).getTime()).toBeLessThanOrEqual(Date.now());

      const listed = await call<SilenceView[]>('GET', `/projects/${project.id}/silences?state=expired`, tokens.developer);
      expect(listed.body.map((entry) => entry.id)).toContain(silence.id);
      const active = await call<SilenceView[]>('GET', `/projects/${project.id}/silences?state=active`, tokens.developer);
      expect(active.body.map((entry) => entry.id)).not.toContain(silence.id);

      expect((await alert(silenced)).silenced_by).toBeNull();
      expect((await call<AlertView[]>('GET', `/projects/${project.id}/alerts?silenced=true`, tokens.developer)).body).toEqual([]);

      await send({ title: 'Disk full', service: 'checkout', fingerprint: 'disk-db-1', labels: { team: 'storage' } });
      const [, , grouped] = await eventsOf(silenced, 3);
      expect(grouped).toMatchObject({ type: 'alert.grouped', alert: { events: 3, silenced_by: null } });

      const edit = await call('PUT', `/projects/${project.id}/silences/${silence.id}`, tokens.maintainer, { comment: 'again' });
      expect(edit.status).toBe(409);
      expect(edit.body).toMatchObject({ error: 'silence_expired' });
    });
  });

  describe('a pending silence', () => {
    it('is listed as pending and does not apply before it starts', async () => {
      const pending = await createSilence({
        matchers: [{ field: 'fingerprint', operator: '=', value: 'later' }],
        starts_at: inAnHour(),
        ends_at: new Date(Date.now() + 2 * HOUR).toISOString(),
        comment: 'Tonight',
      });
      expect(pending.status).toBe(201);
      expect(pending.body.state).toBe('pending');
      const listed = await call<SilenceView[]>('GET', `/projects/${project.id}/silences?state=pending`, tokens.developer);
      expect(listed.body.map((entry) => entry.id)).toEqual([pending.body.id]);

      const [iid] = await send({ title: 'Later', fingerprint: 'later' });
      await eventually(async () => expect((await alert(iid)).silenced_by).toBeNull());
      const [created] = await eventsOf(iid, 1);
      expect(created.alert.silenced_by).toBeNull();
    });

    it('lists every silence newest first with the pagination headers', async () => {
      const page = await call<SilenceView[]>('GET', `/projects/${project.id}/silences?per_page=2`, tokens.developer);
      expect(page.status).toBe(200);
      expect(page.body).toHaveLength(2);
      expect(page.body[0].id).toBeGreaterThan(page.body[1].id);
      expect(Number(page.headers.get('x-total'))).toBeGreaterThanOrEqual(3);
      expect(page.headers.get('x-next-page')).toBe('2');
    });
  });

  describe('a silence is matched against each arriving payload, not the alert\'s first one', () => {
    let silence: SilenceView;
    let silencedBy: { id: number; comment: string; ends_at: string };
    const payload = (fingerprint: string, phase: string, extra: Record<string, unknown> = {}) => ({ title: 'Replica lag', fingerprint, labels: { phase }, ...extra });
    const listed = async (silenced: boolean) =>
      (await call<AlertView[]>('GET', `/projects/${project.id}/alerts?silenced=${silenced}&per_page=100`, tokens.developer)).body.map((entry) => entry.iid);

    beforeAll(async () => {
      const answer = await createSilence({ matchers: [{ path: ['labels', 'phase'], operator: '=', value: 'maintenance' }], ends_at: inAnHour(), comment: 'Failover drill' });
      expect(answer.status).toBe(201);
      silence = answer.body;
      silencedBy = { id: silence.id, comment: 'Failover drill', ends_at: silence.ends_at };
    });

    it('a later payload that matches marks its grouped event and the alert, though the first did not', async () => {
      const [iid] = await send(payload('lag-a', 'live'));
      const [created] = await eventsOf(iid, 1);
      expect(created).toMatchObject({ type: 'alert.created', alert: { silenced_by: null } });

      expect(await send(payload('lag-a', 'maintenance'))).toEqual([iid]);
      const [, grouped] = await eventsOf(iid, 2);
      expect(grouped).toMatchObject({ type: 'alert.grouped', alert: { iid, events: 2, silenced_by: silencedBy } });
      // The alert keeps its first payload (grouping only counts the event) and shows the silence of the latest one.
      expect(await alert(iid)).toMatchObject({ events: 2, payload: payload('lag-a', 'live'), silenced_by: silencedBy });
      expect(await listed(true)).toContain(iid);
      expect(await listed(false)).not.toContain(iid);
    });

    it('a later payload that does not match carries null and the alert no longer shows the silence, though the first matched', async () => {
      const [iid] = await send(payload('lag-b', 'maintenance'));
      const [created] = await eventsOf(iid, 1);
      expect(created).toMatchObject({ type: 'alert.created', alert: { silenced_by: silencedBy } });

      expect(await send(payload('lag-b', 'live'))).toEqual([iid]);
      const [, grouped] = await eventsOf(iid, 2);
      expect(grouped).toMatchObject({ type: 'alert.grouped', alert: { iid, events: 2, silenced_by: null } });
      expect(await alert(iid)).toMatchObject({ events: 2, payload: payload('lag-b', 'maintenance'), silenced_by: null });
      expect(await listed(true)).not.toContain(iid);
      expect(await listed(false)).toContain(iid);

      // The recovery payload is matched too: this one matches, so the resolved event carries the silence.
      expect(await send(payload('lag-b', 'maintenance', { end_time: new Date().toISOString() }))).toEqual([iid]);
      const [, , resolved] = await eventsOf(iid, 3);
      expect(resolved).toMatchObject({ type: 'alert.resolved', alert: { iid, status: 'resolved', silenced_by: silencedBy } });
      expect((await alert(iid)).silenced_by).toEqual(silencedBy);
    });
  });
});
