import { ActivityEntryView, AlertEvent, AlertView, Integration, Topic } from '@alert-ingestion/contracts';
import { eventually, ServiceProcess, ServiceStack, TopicCollector, testKafka } from '@alert-ingestion/testing';
import { logLevel } from 'kafkajs';

/**
 * The heartbeat minute of this spec (HEARTBEAT_MINUTE_MS, for tests only): a one-minute heartbeat
 * expires two seconds after its last request, and both processors check every 250 ms.
 */
const MINUTE_MS = 2_000;
const CHECK_INTERVAL_MS = 250;
const TITLE = 'No alerts received from Watchdog for 1 minute';

/**
 * Heartbeats through the real stack with two processor instances on one database and one consumer
 * group: a silent integration gets exactly one heartbeat alert (its `alert.created` event on
 * alerts.events.v1), a new request resolves it (`alert.resolved`), and after one instance is killed
 * the survivor raises the next one.
 */
describe('heartbeats (two processors, real PostgreSQL and Kafka)', () => {
  let stack: ServiceStack;
  let second: ServiceProcess;
  let events: TopicCollector<AlertEvent.AlertEventValue>;
  let projectId: number;
  let integration: Integration;

  beforeAll(async () => {
    stack = await ServiceStack.start({
      all: { HEARTBEAT_MINUTE_MS: String(MINUTE_MS) },
      processor: { HEARTBEAT_CHECK_INTERVAL_MS: String(CHECK_INTERVAL_MS) },
    });
    second = await stack.startProcessor();
    events = await TopicCollector.published(testKafka({ logLevel: logLevel.NOTHING }), stack.topics.prefix, Topic.AlertEvents);
    const project = await stack.management<{ id: number }>('POST', '/projects', { path: `heartbeats-${Date.now()}`, tier: 'premium' });
    projectId = project.id;
  }, 240_000);

  afterAll(async () => {
    await events?.stop();
    await stack?.stop();
  }, 60_000);

  const path = () => `/projects/${projectId}/alert_integrations/${integration.id}`;
  const send = async (body: unknown) => {
    const response = await fetch(integration.url as string, {
      method: 'POST',
      headers: { Authorization: `Bearer ${integration.authorization_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Array<{ iid: number; title: string }> };
  };
  const heartbeatAlerts = async () => (await stack.alerts(projectId)).filter((alert) => alert.title === TITLE).sort((a, b) => a.iid - b.iid);
  const heartbeatEvents = (type: AlertEvent.AlertEventType) =>
    events.received.filter((event) => event.value.project_id === projectId && event.value.type === type && event.value.alert.title === TITLE);

  it('is off until set, then waiting until the first request', async () => {
    const created = await stack.management<Integration>('POST', `/projects/${projectId}/alert_integrations`, { type: 'http', name: 'Watchdog', active: true });
    expect(created).toMatchObject({ heartbeat_interval_minutes: null, last_request_at: null, heartbeat_status: 'off' });
    integration = await stack.management<Integration>('PUT', `/projects/${projectId}/alert_integrations/${created.id}`, { heartbeat_interval_minutes: 1 });
    expect(integration).toMatchObject({ heartbeat_interval_minutes: 1, last_request_at: null, heartbeat_status: 'waiting' });

    // Waiting never raises an alert: nothing was ever received, so nothing went silent.
    await new Promise((resolve) => setTimeout(resolve, MINUTE_MS + 4 * CHECK_INTERVAL_MS));
    expect(await heartbeatAlerts()).toEqual([]);
  }, 30_000);

  it('records the last accepted request, and raises exactly one alert after a minute of silence', async () => {
    const before = Date.now();
    const answer = await send({ title: 'Watchdog', fingerprint: 'watchdog' });
    expect(answer.status).toBe(200);
    const shown = await stack.management<Integration>('GET', path());
    expect(shown.heartbeat_status).toBe('ok');
    const lastRequestAt = Date.parse(shown.last_request_at as string);
    expect(lastRequestAt).toBeGreaterThanOrEqual(before - 1_000);
    expect(lastRequestAt).toBeLessThanOrEqual(Date.now());

    await eventually(async () => expect(await heartbeatAlerts()).not.toHaveLength(0), 20_000, 200);
    // Both processors keep checking for a while: still one alert, one event, no grouping.
    await new Promise((resolve) => setTimeout(resolve, 10 * CHECK_INTERVAL_MS));
    const raised = await heartbeatAlerts();
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      status: 'triggered',
      severity: 'critical',
      events: 1,
      service: 'Watchdog',
      monitoring_tool: 'heartbeat',
      fingerprint: `heartbeat:${integration.id}`,
      integration_id: integration.id,
      started_at: new Date(lastRequestAt + MINUTE_MS).toISOString(),
      ended_at: null,
    });
    const created = await events.waitFor((event) => event.value.project_id === projectId && event.value.type === 'alert.created' && event.value.alert.title === TITLE);
    expect(created[0].key).toBe(`${projectId}:${raised[0].iid}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heartbeatEvents('alert.created')).toHaveLength(1);
    expect(heartbeatEvents('alert.grouped')).toHaveLength(0);
    expect((await stack.management<Integration>('GET', path())).heartbeat_status).toBe('expired');
  }, 60_000);

  it('resolves the heartbeat alert when requests resume, as of the new request', async () => {
    const [open] = await heartbeatAlerts();
    const answer = await send({ title: 'Watchdog', fingerprint: 'watchdog' });
    expect(answer.status).toBe(200);
    // The request's answer names its own alert only, not the heartbeat alert it resolved.
    expect(answer.body.map((alert) => alert.title)).toEqual(['Watchdog']);
    const shown = await stack.management<Integration>('GET', path());
    expect(shown.heartbeat_status).toBe('ok');

    const resolved = await stack.processorApi<AlertView>('GET', `/projects/${projectId}/alerts/${open.iid}`);
    expect(resolved).toMatchObject({ status: 'resolved', ended_at: shown.last_request_at });
    const [event] = await events.waitFor((received) => received.value.project_id === projectId && received.value.type === 'alert.resolved' && received.value.alert.iid === open.iid);
    expect(event.value.alert).toMatchObject({ status: 'resolved', ended_at: shown.last_request_at });
    // Its timeline says the heartbeat created it and resolved it (docs/api-guide.md "Alert workflow").
    const activity = await stack.processorApi<ActivityEntryView[]>('GET', `/projects/${projectId}/alerts/${open.iid}/activity`);
    expect(activity.map((entry) => [entry.kind, entry.source, entry.actor.type])).toEqual([
      ['alert_created', 'heartbeat', 'service'],
      ['status_changed', 'heartbeat', 'service'],
    ]);
  }, 30_000);

  it('raises the next silence once more when one processor has died', async () => {
    second.kill('SIGKILL');
    await second.exited;
    await eventually(async () => expect(await heartbeatAlerts()).toHaveLength(2), 20_000, 200);
    await new Promise((resolve) => setTimeout(resolve, 10 * CHECK_INTERVAL_MS));
    const raised = await heartbeatAlerts();
    expect(raised.map((alert) => [alert.status, alert.events])).toEqual([
      ['resolved', 1],
      ['triggered', 1],
    ]);
    await events.waitFor((event) => event.value.project_id === projectId && event.value.type === 'alert.created' && event.value.alert.title === TITLE, 2, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heartbeatEvents('alert.created')).toHaveLength(2);
  }, 60_000);
});
