import { ActivityEntryView, AlertSettingsView, AlertView, IncidentAlertView, IncidentEvent, IncidentStatusCounts, IncidentView, RawAlert, Topic } from '@alert-ingestion/contracts';
import { ConsumerGroup, KafkaNames, TopicProducer } from '@alert-ingestion/kafka';
import { eventually, ServiceStack, StackProject, testKafka, TopicCollector } from '@alert-ingestion/testing';
import { Kafka, logLevel } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';

interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * Incidents and the alert settings through the real stack (docs/api-guide.md "Incidents", "Alert
 * settings"): called through integration-config's alerts proxy as the console does, alerts sent to
 * the gateway, incident events read from incidents.events.v1 by a consumer of the test's own.
 */
describe('incidents and alert settings through the stack', () => {
  let stack: ServiceStack;
  let kafka: Kafka;
  let db: Pool;
  let incidentEvents: TopicCollector<IncidentEvent.IncidentEventValue>;
  const tokens: Record<string, string> = {};

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown): Promise<Answer<T>> => stack.answerAs<T>(token, method, path, body);

  const send = (project: StackProject, payload: unknown): Promise<number[]> => stack.notify(project.integration, payload);

  /** A Premium project (recovery by end time) with a developer, a maintainer and a reporter. */
  async function newProject(): Promise<StackProject> {
    const project = await stack.createProject('premium', { pathPrefix: 'incidents' });
    for (const level of ['developer', 'maintainer', 'reporter']) {
      const user = await stack.management<{ id: number; token: string }>('POST', '/users', { username: `${level}-${project.id}` });
      await stack.management('POST', `/projects/${project.id}/members`, { user_id: user.id, access_level: level });
      tokens[`${project.id}:${level}`] = user.token;
    }
    return project;
  }

  const token = (project: StackProject, level: string) => tokens[`${project.id}:${level}`];

  async function incident(project: StackProject, iid: number): Promise<IncidentView> {
    const answer = await call<IncidentView>('GET', `/projects/${project.id}/incidents/${iid}`, token(project, 'developer'));
    expect(answer.status).toBe(200);
    return answer.body;
  }

  async function alert(project: StackProject, iid: number): Promise<AlertView> {
    return (await call<AlertView>('GET', `/projects/${project.id}/alerts/${iid}`, token(project, 'developer'))).body;
  }

  async function incidents(project: StackProject, query = ''): Promise<Answer<IncidentView[]>> {
    return call<IncidentView[]>('GET', `/projects/${project.id}/incidents${query}`, token(project, 'developer'));
  }

  /** An alert's or an incident's timeline through the API (entries derived from the alert row left out), oldest first. */
  async function timeline(subject: { alert: [StackProject, number] } | { incident: [StackProject, number] }): Promise<ActivityEntryView[]> {
    const [project, iid] = 'alert' in subject ? subject.alert : subject.incident;
    const path = `/projects/${project.id}/${'alert' in subject ? 'alerts' : 'incidents'}/${iid}/activity?per_page=100`;
    const answer = await call<ActivityEntryView[]>('GET', path, token(project, 'developer'));
    expect(answer.status).toBe(200);
    return answer.body.filter((entry) => entry.kind !== 'alert_created' && entry.kind !== 'events_grouped');
  }

  /** The automation has handled every alert event published so far (its group's committed offsets reached the end of the topic). */
  async function automationCaughtUp(): Promise<void> {
    const names = new KafkaNames(stack.topics.prefix);
    const admin = kafka.admin();
    await admin.connect();
    try {
      await eventually(async () => {
        // Every alert event the outbox holds is on the topic first.
        expect(Number((await db.query('SELECT count(*) AS n FROM alert_event_outbox')).rows[0].n)).toBe(0);
        const ends = await admin.fetchTopicOffsets(names.topic(Topic.AlertEvents));
        const [committed] = await admin.fetchOffsets({ groupId: names.group(ConsumerGroup.IncidentAutomation), topics: [names.topic(Topic.AlertEvents)] });
        const at = new Map(committed.partitions.map((partition) => [partition.partition, Number(partition.offset)]));
        // The relay publishes in Kafka transactions: a partition's last offset is a commit marker, which
        // no consumer is handed (nor commits past), so handled everything = committed at the marker.
        for (const end of ends) if (Number(end.high) > 0) expect(Math.max(at.get(end.partition) ?? 0, 0)).toBeGreaterThanOrEqual(Number(end.high) - 1);
      }, 30_000);
    } finally {
      await admin.disconnect();
    }
  }

  async function setSettings(project: StackProject, settings: Partial<AlertSettingsView>): Promise<AlertSettingsView> {
    const answer = await call<AlertSettingsView>('PUT', `/projects/${project.id}/alert_settings`, token(project, 'maintainer'), settings);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  beforeAll(async () => {
    stack = await ServiceStack.start();
    kafka = testKafka({ logLevel: logLevel.NOTHING });
    db = stack.database.pool(2);
    const prefix = stack.topics.prefix;
    incidentEvents = await TopicCollector.published<IncidentEvent.IncidentEventValue>(kafka, prefix, Topic.IncidentEvents);
  });

  afterAll(async () => {
    await incidentEvents?.stop().catch(() => undefined);
    await db?.end().catch(() => undefined);
    await stack?.stop();
  });

  describe('roles', () => {
    let project: StackProject;
    beforeAll(async () => {
      project = await newProject();
    });

    it('developers see, open and change incidents; reporters may not', async () => {
      const created = await call<IncidentView>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'Checkout is down', severity: 'high' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ iid: 1, title: 'Checkout is down', severity: 'high', status: 'open', alert_iids: [], closed_at: null, description: null });
      expect(created.body.created_by).toMatchObject({ type: 'user', username: `developer-${project.id}` });
      expect((await call('PUT', `/projects/${project.id}/incidents/1`, token(project, 'developer'), { title: 'Checkout down' })).status).toBe(200);
      expect((await call('GET', `/projects/${project.id}/incidents`, token(project, 'reporter'))).status).toBe(403);
      expect((await call('POST', `/projects/${project.id}/incidents`, token(project, 'reporter'), { title: 'x' })).status).toBe(403);
    });

    it('alert settings: developers read them, only maintainers change them, and email is not configured without SMTP_URL', async () => {
      const read = await call<AlertSettingsView>('GET', `/projects/${project.id}/alert_settings`, token(project, 'developer'));
      expect(read).toMatchObject({ status: 200, body: { create_incident: false, send_email: false, auto_close_incident: false, email_configured: false } });
      const refused = await call<{ error: string }>('PUT', `/projects/${project.id}/alert_settings`, token(project, 'developer'), { create_incident: true });
      expect(refused.status).toBe(403);
      expect(await setSettings(project, { auto_close_incident: true })).toEqual({ create_incident: false, send_email: false, auto_close_incident: true, email_configured: false });
      // A switch left out keeps its value.
      expect(await setSettings(project, { send_email: true })).toMatchObject({ send_email: true, auto_close_incident: true });
      const bad = await call<{ error: string; message: string }>('PUT', `/projects/${project.id}/alert_settings`, token(project, 'maintainer'), { create_incident: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      await setSettings(project, { send_email: false, auto_close_incident: false });
    });

    it('refuses bad input with {error, message} and stores nothing', async () => {
      const empty = await call<{ error: string; message: string }>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: '' });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      const severity = await call('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'x', severity: 'dire' });
      expect(severity.status).toBe(400);
      expect((await call('PUT', `/projects/${project.id}/incidents/1`, token(project, 'developer'), { status: 'gone' })).status).toBe(400);
      expect((await call<{ error: string }>('GET', `/projects/${project.id}/incidents/999`, token(project, 'developer'))).body).toMatchObject({ error: 'incident_not_found' });
      expect((await call('GET', `/projects/${project.id}/incidents/abc`, token(project, 'developer'))).status).toBe(404);
      expect((await incidents(project)).headers.get('x-total')).toBe('1');
    });
  });

  describe('incidents from alerts, links, close and reopen', () => {
    let project: StackProject;
    beforeAll(async () => {
      project = await newProject();
    });

    it('"Create incident" copies the alert into an incident linked to it; a second one is refused with 409', async () => {
      const [iid] = await send(project, { title: 'Disk full', severity: 'high', service: 'db', hosts: ['db-1'], labels: { team: 'storage' } });
      const created = await call<IncidentView>('POST', `/projects/${project.id}/alerts/${iid}/incident`, token(project, 'developer'));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ title: 'Disk full', severity: 'high', status: 'open', created_by: { type: 'alert', alert_iid: iid }, alert_iids: [iid] });
      expect(created.body.description).toContain(`Opened from alert #${iid}.`);
      expect(created.body.description).toContain('"team": "storage"');
      const again = await call<{ error: string }>('POST', `/projects/${project.id}/alerts/${iid}/incident`, token(project, 'developer'));
      expect(again).toMatchObject({ status: 409, body: { error: 'alert_has_incident' } });
      expect((await call('POST', `/projects/${project.id}/alerts/9999/incident`, token(project, 'developer'))).status).toBe(404);
      // The incident's creation names its alert; the link is noted on the alert's timeline.
      expect((await timeline({ incident: [project, created.body.iid] })).map((entry) => [entry.kind, entry.details])).toEqual([['incident_created', { alert_iid: iid }]]);
      expect((await timeline({ alert: [project, iid] })).map((entry) => entry.kind)).toEqual(['incident_linked']);
      expect((await alert(project, iid)).incident_iid).toBe(created.body.iid);
    });

    it('notes on an incident are on its timeline, with their author', async () => {
      const opened = await call<IncidentView>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'Noted' });
      const note = await call<ActivityEntryView>('POST', `/projects/${project.id}/incidents/${opened.body.iid}/notes`, token(project, 'developer'), { body: 'Rolled back **v2**' });
      expect(note).toMatchObject({ status: 201, body: { kind: 'note', details: { body: 'Rolled back **v2**' }, actor: { type: 'user', username: `developer-${project.id}` } } });
      expect((await timeline({ incident: [project, opened.body.iid] })).map((entry) => entry.kind)).toEqual(['incident_created', 'note']);
      expect((await call('POST', `/projects/${project.id}/incidents/${opened.body.iid}/notes`, token(project, 'reporter'), { body: 'x' })).status).toBe(403);
      expect((await call('GET', `/projects/${project.id}/incidents/999/activity`, token(project, 'developer'))).status).toBe(404);
    });

    it('linking the same alert twice at once makes one link; an alert of another incident is refused', async () => {
      const opened = await call<IncidentView>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'Payments degraded' });
      const [iid] = await send(project, { title: 'Latency high', service: 'payments' });
      const links = await Promise.all(
        [1, 2, 3].map(() => call<IncidentView>('POST', `/projects/${project.id}/incidents/${opened.body.iid}/alerts`, token(project, 'developer'), { alert_iid: iid })),
      );
      expect(links.map((link) => link.status)).toEqual([200, 200, 200]);
      expect((await incident(project, opened.body.iid)).alert_iids).toEqual([iid]);
      expect((await timeline({ alert: [project, iid] })).filter((entry) => entry.kind === 'incident_linked')).toHaveLength(1);
      expect((await timeline({ incident: [project, opened.body.iid] })).filter((entry) => entry.kind === 'incident_linked')).toHaveLength(1);

      const other = await call<IncidentView>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'Another' });
      const refused = await call<{ error: string; field: string }>('POST', `/projects/${project.id}/incidents/${other.body.iid}/alerts`, token(project, 'developer'), { alert_iid: iid });
      expect(refused).toMatchObject({ status: 409, body: { error: 'alert_has_incident', field: 'alert_iid' } });
      const missing = await call<{ field: string }>('POST', `/projects/${project.id}/incidents/${other.body.iid}/alerts`, token(project, 'developer'), { alert_iid: 99_999 });
      expect(missing).toMatchObject({ status: 400, body: { field: 'alert_iid' } });
    });

    it('closing resolves its linked alerts (noted on both timelines), reopening leaves them resolved; events on incidents.events.v1', async () => {
      const opened = await call<IncidentView>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'Region down' });
      const [first] = await send(project, { title: 'API down', service: 'api' });
      const [second] = await send(project, { title: 'Web down', service: 'web' });
      expect((await call('PUT', `/projects/${project.id}/alerts/${second}`, token(project, 'developer'), { status: 'acknowledged' })).status).toBe(200);
      for (const iid of [first, second]) {
        expect((await call('POST', `/projects/${project.id}/incidents/${opened.body.iid}/alerts`, token(project, 'developer'), { alert_iid: iid })).status).toBe(200);
      }

      const closed = await call<IncidentView>('PUT', `/projects/${project.id}/incidents/${opened.body.iid}`, token(project, 'developer'), { status: 'closed' });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ status: 'closed', closed_at: expect.any(String), alert_iids: [first, second] });
      for (const iid of [first, second]) {
        expect(await alert(project, iid)).toMatchObject({ status: 'resolved', ended_at: closed.body.closed_at });
        const entries = await timeline({ alert: [project, iid] });
        expect(entries.at(-1)).toMatchObject({ kind: 'status_changed', source: 'incident', details: { to: 'resolved', incident_iid: opened.body.iid } });
      }
      const incidentEntries = await timeline({ incident: [project, opened.body.iid] });
      expect(incidentEntries.at(-1)).toMatchObject({
        kind: 'incident_closed',
        source: 'api',
        actor: { type: 'user', username: `developer-${project.id}` },
        details: { resolved_alert_iids: [first, second] },
      });

      const reopened = await call<IncidentView>('PUT', `/projects/${project.id}/incidents/${opened.body.iid}`, token(project, 'developer'), { status: 'open' });
      expect(reopened.body).toMatchObject({ status: 'open', closed_at: null });
      expect((await alert(project, first)).status).toBe('resolved');

      const key = `${project.id}:${opened.body.iid}`;
      const events = await incidentEvents.waitFor((event) => event.key === key, 3);
      expect(events.map((event) => event.value.type)).toEqual(['incident.created', 'incident.closed', 'incident.reopened']);
      expect(events[1].value).toMatchObject({ project_id: project.id, incident: { iid: opened.body.iid, status: 'closed', alert_iids: [first, second] } });
    });

    it("lists its alerts in one request, open ones first, each with its state and latest event; 404 for no such incident, 403 for a reporter", async () => {
      const opened = await call<IncidentView>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'Search slow' });
      const [resolved] = await send(project, { title: 'Search 5xx', service: 'search' });
      const [acknowledged] = await send(project, { title: 'Search latency', service: 'search-api' });
      const [firing] = await send(project, { title: 'Search queue backlog', fingerprint: 'search-queue' });
      // A second payload of the firing alert is grouped into it: its latest event is that payload.
      expect(await send(project, { title: 'Search queue backlog', fingerprint: 'search-queue' })).toEqual([firing]);
      expect((await call('PUT', `/projects/${project.id}/alerts/${acknowledged}`, token(project, 'developer'), { status: 'acknowledged' })).status).toBe(200);
      expect((await call('PUT', `/projects/${project.id}/alerts/${resolved}`, token(project, 'developer'), { status: 'resolved' })).status).toBe(200);
      for (const iid of [resolved, firing, acknowledged]) {
        expect((await call('POST', `/projects/${project.id}/incidents/${opened.body.iid}/alerts`, token(project, 'developer'), { alert_iid: iid })).status).toBe(200);
      }

      const listed = await call<IncidentAlertView[]>('GET', `/projects/${project.id}/incidents/${opened.body.iid}/alerts`, token(project, 'developer'));
      expect(listed.status).toBe(200);
      expect(listed.body.map((linked) => [linked.iid, linked.status])).toEqual([
        [firing, 'triggered'],
        [acknowledged, 'acknowledged'],
        [resolved, 'resolved'],
      ]);
      const grouped = (await db.query<{ last_grouped_at: Date }>('SELECT last_grouped_at FROM alerts WHERE project_id = $1 AND iid = $2', [project.id, firing])).rows[0];
      expect(listed.body[0]).toEqual({
        iid: firing,
        title: 'Search queue backlog',
        severity: (await alert(project, firing)).severity,
        status: 'triggered',
        events: 2,
        started_at: (await alert(project, firing)).started_at,
        ended_at: null,
        last_event_at: grouped.last_grouped_at.toISOString(),
      });
      const ended = (await alert(project, resolved)).ended_at;
      expect(listed.body[2]).toMatchObject({ title: 'Search 5xx', ended_at: ended, last_event_at: ended });

      const missing = await call<{ error: string; message: string }>('GET', `/projects/${project.id}/incidents/999/alerts`, token(project, 'developer'));
      expect(missing).toMatchObject({ status: 404, body: { error: 'incident_not_found', message: expect.any(String) } });
      expect((await call('GET', `/projects/${project.id}/incidents/abc/alerts`, token(project, 'developer'))).status).toBe(404);
      expect((await call('GET', `/projects/${project.id}/incidents/${opened.body.iid}/alerts`, token(project, 'reporter'))).status).toBe(403);
    });

    it('notes each edit of title, severity, description and owner on the timeline, with who and the old value; an owner must be a developer+', async () => {
      const project = await newProject();
      const created = await call<IncidentView>('POST', `/projects/${project.id}/incidents`, token(project, 'developer'), { title: 'Checkout down', severity: 'high' });
      const iid = created.body.iid;
      const developer = await stack.answerAs<{ id: number; username: string }>(token(project, 'developer'), 'GET', '/user');
      const edited = await call<IncidentView>('PUT', `/projects/${project.id}/incidents/${iid}`, token(project, 'developer'), {
        title: 'Checkout down in eu-west',
        severity: 'critical',
        owner_id: developer.body.id,
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ title: 'Checkout down in eu-west', severity: 'critical', owner: { id: developer.body.id, username: developer.body.username } });
      const [entry] = (await timeline({ incident: [project, iid] })).filter((found) => found.kind === 'incident_updated');
      expect(entry).toMatchObject({
        actor: { type: 'user', username: developer.body.username },
        details: {
          changes: [
            { field: 'title', from: 'Checkout down', to: 'Checkout down in eu-west' },
            { field: 'severity', from: 'high', to: 'critical' },
            { field: 'owner', from: null, to: { id: developer.body.id, username: developer.body.username } },
          ],
        },
      });
      const reporter = await stack.answerAs<{ id: number }>(token(project, 'reporter'), 'GET', '/user');
      const refused = await call<{ error: string; field: string }>('PUT', `/projects/${project.id}/incidents/${iid}`, token(project, 'developer'), { owner_id: reporter.body.id });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_owner', field: 'owner_id' });
      // The same edit again changes nothing and notes nothing.
      await call('PUT', `/projects/${project.id}/incidents/${iid}`, token(project, 'developer'), { title: 'Checkout down in eu-west' });
      expect((await timeline({ incident: [project, iid] })).filter((found) => found.kind === 'incident_updated')).toHaveLength(1);
      expect((await incident(project, iid)).owner).toEqual({ id: developer.body.id, username: developer.body.username });
    });

    it('lists with Open, Closed and All counts, search and paging', async () => {
      const counts = await call<IncidentStatusCounts>('GET', `/projects/${project.id}/incidents/status_counts`, token(project, 'developer'));
      const all = await incidents(project, '?per_page=100');
      expect(counts.body.all).toBe(all.body.length);
      expect(counts.body.open + counts.body.closed).toBe(counts.body.all);
      await call('PUT', `/projects/${project.id}/incidents/${all.body[0].iid}`, token(project, 'developer'), { status: 'closed' });
      const closed = await incidents(project, '?status=closed');
      expect(closed.body.every((found) => found.status === 'closed')).toBe(true);
      expect(Number(closed.headers.get('x-total'))).toBe((await call<IncidentStatusCounts>('GET', `/projects/${project.id}/incidents/status_counts`, token(project, 'developer'))).body.closed);
      expect((await incidents(project, '?search=payments%20DEGRADED')).body.map((found) => found.title)).toEqual(['Payments degraded']);
      const page = await incidents(project, '?per_page=1&page=2');
      expect(page.body).toHaveLength(1);
      expect(page.body[0].iid).toBe(all.body[1].iid);
      expect(page.headers.get('x-total')).toBe(String(all.body.length));
    });
  });

  describe('automation by the alert settings', () => {
    it('create_incident: one incident per new triggered alert, also when one raw alert is delivered twice; none for grouped events', async () => {
      const project = await newProject();
      await setSettings(project, { create_incident: true });
      // The gateway's raw alert, delivered twice (same request id), as Kafka may redeliver it.
      const names = new KafkaNames(stack.topics.prefix);
      const producer = new TopicProducer(kafka, names);
      await producer.connect();
      const raw: RawAlert.RawAlertValue = {
        request_id: randomUUID(),
        integration_id: String(project.integration.id),
        project_id: String(project.id),
        received_at: new Date().toISOString(),
        payload: { title: 'Queue stuck', fingerprint: 'queue-stuck' },
      };
      try {
        await producer.send(Topic.RawAlerts, [{ key: raw.integration_id, value: raw }]);
        await producer.send(Topic.RawAlerts, [{ key: raw.integration_id, value: raw }]);
      } finally {
        await producer.disconnect();
      }
      await eventually(async () => expect((await incidents(project)).body).toHaveLength(1), 30_000);
      // A grouped repeat of the same alert, through the gateway.
      expect(await send(project, { title: 'Queue stuck', fingerprint: 'queue-stuck' })).toEqual([1]);
      await automationCaughtUp();
      const [only] = (await incidents(project)).body;
      expect(only).toMatchObject({ created_by: { type: 'alert', alert_iid: 1 }, alert_iids: [1], title: 'Queue stuck' });
      expect((await incidents(project)).body).toHaveLength(1);
      expect((await alert(project, 1)).events).toBe(2);
      expect((await timeline({ incident: [project, only.iid] }))[0]).toMatchObject({ kind: 'incident_created', source: 'settings', actor: { type: 'service' } });
    });

    it('auto_close_incident: a recovery payload closes the incident only when the setting is on, and a manual resolve never does', async () => {
      const project = await newProject();
      await setSettings(project, { create_incident: true });
      const [first] = await send(project, { title: 'CPU hot', service: 'api' });
      await eventually(async () => expect((await incidents(project)).body.map((found) => found.alert_iids)).toEqual([[first]]), 30_000);
      // Setting off: the recovery resolves the alert, the incident stays open.
      expect(await send(project, { title: 'CPU hot', service: 'api', end_time: new Date().toISOString() })).toEqual([first]);
      expect((await alert(project, first)).status).toBe('resolved');
      await automationCaughtUp();
      expect((await incidents(project)).body[0].status).toBe('open');

      await setSettings(project, { auto_close_incident: true });
      const [second] = await send(project, { title: 'Memory high', service: 'worker' });
      await eventually(async () => expect((await incidents(project, '?status=open')).body.map((found) => found.alert_iids)).toContainEqual([second]), 30_000);
      const [third] = await send(project, { title: 'Disk slow', service: 'db' });
      await eventually(async () => expect((await incidents(project, '?status=open')).body.map((found) => found.alert_iids)).toContainEqual([third]), 30_000);
      // A manual resolve: the incident stays open.
      expect((await call('PUT', `/projects/${project.id}/alerts/${second}`, token(project, 'developer'), { status: 'resolved' })).status).toBe(200);
      await automationCaughtUp();
      const secondIncident = (await incidents(project)).body.find((found) => found.alert_iids.includes(second)) as IncidentView;
      expect(secondIncident.status).toBe('open');
      // A recovery payload with the setting on: closed.
      await send(project, { title: 'Disk slow', service: 'db', end_time: new Date().toISOString() });
      await eventually(async () => {
        const thirdIncident = (await incidents(project)).body.find((found) => found.alert_iids.includes(third)) as IncidentView;
        expect(thirdIncident.status).toBe('closed');
      }, 30_000);
      const thirdIncident = (await incidents(project)).body.find((found) => found.alert_iids.includes(third)) as IncidentView;
      expect((await timeline({ incident: [project, thirdIncident.iid] })).at(-1)).toMatchObject({ kind: 'incident_closed', source: 'payload', actor: { type: 'service' } });
      const closedEvent = await incidentEvents.waitFor((event) => event.key === `${project.id}:${thirdIncident.iid}` && event.value.type === 'incident.closed');
      expect(closedEvent[0].value.incident).toMatchObject({ status: 'closed', alert_iids: [third] });
    });

    it('auto_close_incident: a recovery keeps the incident open while another of its alerts fires, and closes it when the last one recovers', async () => {
      const project = await newProject();
      await setSettings(project, { create_incident: true, auto_close_incident: true });
      const [firing] = await send(project, { title: 'Checkout errors', service: 'checkout' });
      await eventually(async () => expect((await incidents(project)).body.map((found) => found.alert_iids)).toEqual([[firing]]), 30_000);
      const [opened] = (await incidents(project)).body;
      await setSettings(project, { create_incident: false });
      const [recovering] = await send(project, { title: 'Payment latency', service: 'payments' });
      expect((await call('POST', `/projects/${project.id}/incidents/${opened.iid}/alerts`, token(project, 'developer'), { alert_iid: recovering })).status).toBe(200);

      expect(await send(project, { title: 'Payment latency', service: 'payments', end_time: new Date().toISOString() })).toEqual([recovering]);
      await eventually(async () => expect((await timeline({ incident: [project, opened.iid] })).map((entry) => entry.kind)).toContain('incident_kept_open'), 30_000);
      const kept = (await timeline({ incident: [project, opened.iid] })).find((entry) => entry.kind === 'incident_kept_open');
      expect(kept).toMatchObject({ source: 'payload', reason: `Alert #${recovering} recovered; the incident stays open while alert #${firing} is not resolved.`, details: { alert_iid: recovering, open_alert_iids: [firing] } });
      // Still firing, still open: the recovery resolved only its own alert.
      expect((await incident(project, opened.iid)).status).toBe('open');
      expect((await alert(project, firing)).status).toBe('triggered');

      await send(project, { title: 'Checkout errors', service: 'checkout', end_time: new Date().toISOString() });
      await eventually(async () => expect((await incident(project, opened.iid)).status).toBe('closed'), 30_000);
      expect((await timeline({ incident: [project, opened.iid] })).at(-1)).toMatchObject({ kind: 'incident_closed', details: { resolved_alert_iids: [], recovered_alert_iid: firing } });
    });

    it('create_incident: an alert a silence covers opens no incident, and its timeline says which silence', async () => {
      const project = await newProject();
      await setSettings(project, { create_incident: true });
      const silence = await call<{ id: number }>('POST', `/projects/${project.id}/silences`, token(project, 'maintainer'), {
        matchers: [{ field: 'service', operator: '=', value: 'batch' }],
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
        comment: 'Nightly batch window',
      });
      expect(silence.status).toBe(201);
      const [silenced] = await send(project, { title: 'Batch slow', service: 'batch' });
      const [loud] = await send(project, { title: 'API down', service: 'api' });
      await eventually(async () => expect((await incidents(project)).body.map((found) => found.alert_iids)).toEqual([[loud]]), 30_000);
      await automationCaughtUp();
      expect((await incidents(project)).body).toHaveLength(1);
      expect((await alert(project, silenced)).incident_iid).toBeNull();
      expect((await timeline({ alert: [project, silenced] })).map((entry) => [entry.kind, entry.source, entry.reason])).toEqual([
        ['incident_skipped', 'settings', `Silenced by silence #${silence.body.id} (Nightly batch window): no incident was opened.`],
      ]);
    });
  });
});
