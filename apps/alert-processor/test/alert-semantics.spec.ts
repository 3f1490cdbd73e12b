import { ProcessorHarness } from './processor-harness';

// Spec 2.2 and 3, CONTRACT.md "Alert semantics": raw alert messages in, stored alerts, replies and events out.
describe('alert processor: alert semantics', () => {
  const harness = new ProcessorHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(async () => {
    await harness.stop();
  });

  describe('defaults and normalisation (spec 2.2)', () => {
    it('creates an alert with every default and answers [{iid, title}]', async () => {
      const integration = await harness.integration('free');
      const before = Date.now();
      const reply = await harness.receive(integration, {});
      expect(reply).toMatchObject({ status: 'processed', alerts: [{ iid: 1, title: 'New: Alert' }], reply_to: harness.replyTo });
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert).toMatchObject({
        iid: 1,
        title: 'New: Alert',
        description: null,
        severity: 'critical',
        status: 'triggered',
        events: 1,
        ended_at: null,
        service: null,
        monitoring_tool: null,
        hosts: [],
        platform_environment_name: null,
        fingerprint: null,
        fingerprint_sha256: null,
        integration_id: integration.id,
        payload: {},
      });
      expect((alert.started_at as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect((alert.started_at as Date).getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('uses every field present and keeps custom fields of any JSON type', async () => {
      const integration = await harness.integration('premium');
      const payload = {
        title: 'Disk full',
        description: 'sda1 at 99%',
        start_time: '2024-05-31T10:00:00+02:00',
        service: 'storage',
        monitoring_tool: 'Zabbix',
        hosts: ['db-1', 'db-2'],
        severity: 'HIGH',
        fingerprint: 'disk-sda1',
        platform_environment_name: 'production',
        custom: { nested: [1, { deep: true }], nothing: null },
        flag: false,
        ratio: 0.5,
      };
      const reply = await harness.receive(integration, payload);
      expect(reply.alerts).toEqual([{ iid: 1, title: 'Disk full' }]);
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert).toMatchObject({
        title: 'Disk full',
        description: 'sda1 at 99%',
        started_at: new Date('2024-05-31T08:00:00Z'),
        service: 'storage',
        monitoring_tool: 'Zabbix',
        hosts: ['db-1', 'db-2'],
        severity: 'high',
        fingerprint: 'disk-sda1',
        platform_environment_name: 'production',
        payload,
      });
    });

    it.each([
      ['critical', 'critical'],
      ['High', 'high'],
      ['MEDIUM', 'medium'],
      ['low', 'low'],
      ['Info', 'info'],
      ['unknown', 'unknown'],
      ['warning', 'critical'],
      [5, 'critical'],
    ])('stores severity %j as %s', async (severity, expected) => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { severity });
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert.severity).toBe(expected);
    });

    it.each([
      ['a string', 'web-1', ['web-1']],
      ['an array', ['web-1', 'web-2'], ['web-1', 'web-2']],
    ])('stores hosts given as %s', async (_, hosts, expected) => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { hosts });
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert.hosts).toEqual(expected);
    });

    it('cuts long text safely and keeps the full value in payload', async () => {
      const integration = await harness.integration('free');
      const title = '😀'.repeat(300);
      await harness.receive(integration, { title, description: 'x'.repeat(5000) });
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert.title).toBe('😀'.repeat(200));
      expect(alert.description).toHaveLength(1000);
      expect((alert.payload as { title: string }).title).toBe(title);
    });

    it('keeps text PostgreSQL cannot hold (NUL, unpaired surrogates): exactly in the payload, as JSON escapes in the text fields', async () => {
      const integration = await harness.integration('free');
      const payload = { title: 'a\u0000b', custom: 'x\u0000', 'k\uD800': ['\uDC00'] };
      const reply = await harness.receive(integration, payload);
      expect(reply.alerts).toEqual([{ iid: 1, title: 'a\\u0000b' }]);
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert.payload).toEqual(payload);
    });

    it('stores quotes, backslashes and SQL-looking text exactly as sent (values travel inlined in SQL text)', async () => {
      const integration = await harness.integration('premium');
      const title = `O'Brien's \\ "disk" \\' ''; DROP TABLE alerts; -- $1 $$ E'\\x'`;
      const payload = { title, fingerprint: `fp'\\`, path: 'C:\\temp\\new', nested: { "k'ey": ["\\'", '\n\t', '$json$', '$$', 'x$json'] } };
      const reply = await harness.receive(integration, payload);
      expect(reply.alerts).toEqual([{ iid: 1, title }]);
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert).toMatchObject({ title, fingerprint: `fp'\\`, payload });
      const [event] = await harness.events.waitFor((candidate) => candidate.key === `${integration.projectId}:1`, 1);
      expect(event.value.alert).toMatchObject({ title, payload });
    });

    it('counts iids from 1 per project', async () => {
      const first = await harness.integration('free');
      const second = await harness.integration('free');
      expect((await harness.receive(first, { title: 'a' })).alerts).toEqual([{ iid: 1, title: 'a' }]);
      expect((await harness.receive(first, { title: 'b' })).alerts).toEqual([{ iid: 2, title: 'b' }]);
      expect((await harness.receive(second, { title: 'c' })).alerts).toEqual([{ iid: 1, title: 'c' }]);
    });
  });

  describe('grouping (spec 3, CONTRACT.md)', () => {
    it('Premium: groups identical payloads, ignoring start_time and hosts, into one alert with an events counter', async () => {
      const integration = await harness.integration('premium');
      const first = await harness.receive(integration, { title: 'CPU', labels: { a: 1, b: 2 }, start_time: '2024-01-01T00:00:00Z', hosts: 'h1' });
      const second = await harness.receive(integration, { labels: { b: 2, a: 1 }, title: 'CPU', start_time: '2024-02-01T00:00:00Z', hosts: ['h2'] });
      expect(first.alerts).toEqual([{ iid: 1, title: 'CPU' }]);
      expect(second.alerts).toEqual([{ iid: 1, title: 'CPU' }]);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ events: 2, status: 'triggered', hosts: ['h1'] });
    });

    it('Premium: a payload that differs elsewhere creates another alert', async () => {
      const integration = await harness.integration('premium');
      await harness.receive(integration, { title: 'CPU', value: 1 });
      const reply = await harness.receive(integration, { title: 'CPU', value: 2 });
      expect(reply.alerts).toEqual([{ iid: 2, title: 'CPU' }]);
      expect((await harness.alerts(integration.projectId)).map((alert) => alert.events)).toEqual([1, 1]);
    });

    it('Free: identical payloads without a fingerprint are not grouped', async () => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { title: 'CPU' });
      const reply = await harness.receive(integration, { title: 'CPU' });
      expect(reply.alerts).toEqual([{ iid: 2, title: 'CPU' }]);
      expect(await harness.alerts(integration.projectId)).toHaveLength(2);
    });

    it.each([['free'], ['premium']] as const)('%s: groups by an explicit fingerprint, whatever else differs', async (tier) => {
      const integration = await harness.integration(tier);
      await harness.receive(integration, { title: 'one', fingerprint: 'f-1' });
      const reply = await harness.receive(integration, { title: 'two', fingerprint: 'f-1' });
      expect(reply.alerts).toEqual([{ iid: 1, title: 'one' }]);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ events: 2, fingerprint: 'f-1' });
    });

    it('groups an array fingerprint regardless of other fields, and tells arrays apart from joined text', async () => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { fingerprint: ['a', 'b'] });
      expect((await harness.receive(integration, { fingerprint: ['a', 'b'], title: 'x' })).alerts).toEqual([{ iid: 1, title: 'New: Alert' }]);
      expect((await harness.receive(integration, { fingerprint: 'a,b' })).alerts).toEqual([{ iid: 2, title: 'New: Alert' }]);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts.map((alert) => [alert.fingerprint, alert.events])).toEqual([
        ['["a","b"]', 2],
        ['a,b', 1],
      ]);
    });

    it('groups into acknowledged and ignored alerts too (not resolved)', async () => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { fingerprint: 'ack' });
      await harness.receive(integration, { fingerprint: 'ign' });
      await harness.db.query(`UPDATE alerts SET status = CASE WHEN fingerprint = 'ack' THEN 'acknowledged'::alert_status ELSE 'ignored'::alert_status END WHERE project_id = $1`, [
        integration.projectId,
      ]);
      await harness.receive(integration, { fingerprint: 'ack' });
      await harness.receive(integration, { fingerprint: 'ign' });
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts.map((alert) => [alert.status, alert.events])).toEqual([
        ['acknowledged', 2],
        ['ignored', 2],
      ]);
    });

    it('keeps projects apart: the same fingerprint in another project is another alert', async () => {
      const one = await harness.integration('free');
      const other = await harness.integration('free');
      await harness.receive(one, { fingerprint: 'shared' });
      expect((await harness.receive(other, { fingerprint: 'shared' })).alerts).toEqual([{ iid: 1, title: 'New: Alert' }]);
      expect((await harness.alerts(one.projectId))[0].events).toBe(1);
    });

    it('groups payloads of two integrations of one project', async () => {
      const one = await harness.integration('premium');
      const two = await harness.integration('premium', [], one.projectId);
      await harness.receive(one, { title: 'same' });
      expect((await harness.receive(two, { title: 'same' })).alerts).toEqual([{ iid: 1, title: 'same' }]);
      expect((await harness.alerts(one.projectId))[0]).toMatchObject({ events: 2, integration_id: one.id });
    });
  });

  describe('recovery alerts (spec 1.5, 3)', () => {
    it('Premium: a payload with end_time resolves the matching alert and lists it', async () => {
      const integration = await harness.integration('premium');
      await harness.receive(integration, { title: 'Down', service: 'api' });
      const reply = await harness.receive(integration, { title: 'Down', service: 'api', end_time: '2024-06-01T12:00:00Z' });
      expect(reply.alerts).toEqual([{ iid: 1, title: 'Down' }]);
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert).toMatchObject({ status: 'resolved', ended_at: new Date('2024-06-01T12:00:00Z'), events: 1 });
    });

    it('resolves by explicit fingerprint on Free', async () => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { fingerprint: 'x', title: 'Down' });
      const reply = await harness.receive(integration, { fingerprint: 'x', end_time: '2024-06-01T12:00:00Z' });
      expect(reply.alerts).toEqual([{ iid: 1, title: 'Down' }]);
      expect((await harness.alerts(integration.projectId))[0].status).toBe('resolved');
    });

    it('without a match creates nothing and answers []', async () => {
      const integration = await harness.integration('premium');
      const reply = await harness.receive(integration, { title: 'never fired', end_time: '2024-06-01T12:00:00Z' });
      expect(reply).toMatchObject({ status: 'processed', alerts: [] });
      expect(await harness.alerts(integration.projectId)).toHaveLength(0);
    });

    it('Free without a fingerprint: a recovery payload matches nothing', async () => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { title: 'Down' });
      expect((await harness.receive(integration, { title: 'Down', end_time: '2024-06-01T12:00:00Z' })).alerts).toEqual([]);
      expect((await harness.alerts(integration.projectId))[0].status).toBe('triggered');
    });

    it('an invalid end_time resolves nothing', async () => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { fingerprint: 'f' });
      const reply = await harness.receive(integration, { fingerprint: 'f', end_time: 'soon' });
      expect(reply.alerts).toEqual([{ iid: 1, title: 'New: Alert' }]);
      expect((await harness.alerts(integration.projectId))[0]).toMatchObject({ status: 'triggered', events: 2 });
    });

    it('after resolution an identical payload creates a new alert; the resolved one is not grouped into', async () => {
      const integration = await harness.integration('premium');
      await harness.receive(integration, { title: 'Flap' });
      await harness.receive(integration, { title: 'Flap', end_time: '2024-06-01T12:00:00Z' });
      const reply = await harness.receive(integration, { title: 'Flap' });
      expect(reply.alerts).toEqual([{ iid: 2, title: 'Flap' }]);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts.map((alert) => [alert.iid, alert.status, alert.events])).toEqual([
        [1, 'resolved', 1],
        [2, 'triggered', 1],
      ]);
    });
  });

  describe('payload field mapping (spec 2.1, 3 rule 1 and 3)', () => {
    const mapping = [
      { field_name: 'title' as const, path: ['alert', 'name'], type: 'string' as const },
      { field_name: 'severity' as const, path: ['alert', 'level'], type: 'string' as const },
      { field_name: 'start_time' as const, path: ['alert', 'fired_at'], type: 'datetime' as const },
      { field_name: 'end_time' as const, path: ['alert', 'resolved_at'], type: 'datetime' as const },
      { field_name: 'hosts' as const, path: ['targets'], type: 'array' as const },
    ];

    it('reads mapped keys instead of the default names', async () => {
      const integration = await harness.integration('premium', mapping);
      const payload = { alert: { name: 'Mapped title', level: 'Low', fired_at: '2024-06-01T10:00:00Z' }, targets: ['t1', 't2'], title: 'ignored' };
      expect((await harness.receive(integration, payload)).alerts).toEqual([{ iid: 1, title: 'Mapped title' }]);
      const [alert] = await harness.alerts(integration.projectId);
      expect(alert).toMatchObject({ title: 'Mapped title', severity: 'low', started_at: new Date('2024-06-01T10:00:00Z'), hosts: ['t1', 't2'], payload });
    });

    it('resolves with the mapped end-time field, ignoring mapped start time and hosts for grouping', async () => {
      const integration = await harness.integration('premium', mapping);
      await harness.receive(integration, { alert: { name: 'M', fired_at: '2024-06-01T10:00:00Z', resolved_at: null }, targets: ['a'] });
      const grouped = await harness.receive(integration, { alert: { name: 'M', fired_at: '2024-06-01T11:00:00Z', resolved_at: null }, targets: ['b'] });
      expect(grouped.alerts).toEqual([{ iid: 1, title: 'M' }]);
      const notEnd = await harness.receive(integration, { alert: { name: 'M', resolved_at: null }, end_time: '2024-06-01T12:00:00Z' });
      expect(notEnd.alerts).toEqual([{ iid: 2, title: 'M' }]);
      const resolved = await harness.receive(integration, { alert: { name: 'M', fired_at: '2024-06-01T10:00:00Z', resolved_at: '2024-06-01T12:30:00Z' }, targets: ['a'] });
      expect(resolved.alerts).toEqual([{ iid: 1, title: 'M' }]);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts.map((alert) => [alert.iid, alert.status, alert.events, alert.ended_at])).toEqual([
        [1, 'resolved', 2, new Date('2024-06-01T12:30:00Z')],
        [2, 'triggered', 1, null],
      ]);
    });

    it('uses a mapped fingerprint', async () => {
      const integration = await harness.integration('premium', [{ field_name: 'fingerprint', path: ['id'], type: 'string' }]);
      await harness.receive(integration, { id: 'k1', title: 'a' });
      expect((await harness.receive(integration, { id: 'k1', title: 'b' })).alerts).toEqual([{ iid: 1, title: 'a' }]);
    });
  });

  describe('body forms (CONTRACT.md "Receiving alerts")', () => {
    it('takes an array as one alert per element, answering in request order', async () => {
      const integration = await harness.integration('premium');
      const reply = await harness.receive(integration, [{ title: 'a' }, { title: 'b' }, { title: 'a' }, { title: 'c', end_time: '2024-06-01T00:00:00Z' }]);
      expect(reply.alerts).toEqual([
        { iid: 1, title: 'a' },
        { iid: 2, title: 'b' },
        { iid: 1, title: 'a' },
      ]);
      expect((await harness.alerts(integration.projectId)).map((alert) => [alert.title, alert.events])).toEqual([
        ['a', 2],
        ['b', 1],
      ]);
    });

    it('processes payloads of one array in order: create, resolve, create again', async () => {
      const integration = await harness.integration('premium');
      const reply = await harness.receive(integration, [{ title: 'f' }, { title: 'f', end_time: '2024-06-01T00:00:00Z' }, { title: 'f' }]);
      expect(reply.alerts).toEqual([
        { iid: 1, title: 'f' },
        { iid: 1, title: 'f' },
        { iid: 2, title: 'f' },
      ]);
      expect((await harness.alerts(integration.projectId)).map((alert) => alert.status)).toEqual(['resolved', 'triggered']);
    });

    it('answers [] for an empty array', async () => {
      const integration = await harness.integration('premium');
      expect((await harness.receive(integration, [])).alerts).toEqual([]);
    });

    it('takes an Alertmanager webhook body: one alert per element; resolved elements resolve', async () => {
      const integration = await harness.integration('free');
      const element = (status: 'firing' | 'resolved', fingerprint: string, alertname: string, severity: string) => ({
        status,
        labels: { alertname, severity, instance: 'node-1:9100', job: 'node' },
        annotations: { summary: `${alertname} summary`, description: `${alertname} description` },
        startsAt: '2024-06-01T10:00:00Z',
        endsAt: status === 'resolved' ? '2024-06-01T10:30:00Z' : '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus:9090/graph',
        fingerprint,
      });
      const body = (status: 'firing' | 'resolved', alerts: unknown[]) => ({ version: '4', groupKey: '{}:{}', status, receiver: 'platform', alerts });
      const firing = await harness.receive(integration, body('firing', [element('firing', 'fa', 'HighCPU', 'warning'), element('firing', 'fb', 'DiskFull', 'error')]));
      expect(firing.alerts).toEqual([
        { iid: 1, title: 'HighCPU summary' },
        { iid: 2, title: 'DiskFull summary' },
      ]);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts[0]).toMatchObject({
        title: 'HighCPU summary',
        description: 'HighCPU description',
        severity: 'medium',
        fingerprint: 'fa',
        hosts: ['node-1:9100'],
        service: 'node',
        monitoring_tool: 'Prometheus',
        started_at: new Date('2024-06-01T10:00:00Z'),
        ended_at: null,
        payload: element('firing', 'fa', 'HighCPU', 'warning'),
      });
      expect(alerts[1].severity).toBe('high');
      const resolved = await harness.receive(integration, body('resolved', [element('resolved', 'fa', 'HighCPU', 'warning')]));
      expect(resolved.alerts).toEqual([{ iid: 1, title: 'HighCPU summary' }]);
      expect((await harness.alerts(integration.projectId)).map((alert) => [alert.status, alert.ended_at])).toEqual([
        ['resolved', new Date('2024-06-01T10:30:00Z')],
        ['triggered', null],
      ]);
    });
  });
});
