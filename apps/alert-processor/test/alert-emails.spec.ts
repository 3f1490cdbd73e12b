import { RawAlert, Topic } from '@alert-ingestion/contracts';
import { KafkaNames, TopicProducer } from '@alert-ingestion/kafka';
import { enableAlertEmails, eventually, ServiceStack, StackProject, testKafka, TestSmtpServer } from '@alert-ingestion/testing';
import { logLevel } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { ProcessorHarness } from './processor-harness';
import { WorkflowProjects } from './workflow-projects';

/** Short windows so that each case takes seconds: a bundle of 1 s, three emails an hour, six attempts 0.3 s apart and up. */
const EMAIL_SETTINGS = {
  EMAIL_BUNDLE_SECONDS: '1',
  EMAIL_HOURLY_CAP: '3',
  EMAIL_MAX_ATTEMPTS: '6',
  EMAIL_RETRY_MS: '300',
  EMAIL_MAX_RETRY_MS: '1500',
  EMAIL_POLL_MS: '100',
  EMAIL_SMTP_TIMEOUT_MS: '3000',
  CONSOLE_URL: 'http://console.example.test',
};
const WAIT_MS = 30_000;

/**
 * Alert emails through the real stack (gateway, processor, integration-config as processes) and a
 * real SMTP server in this process, whose received messages the cases read: who gets mail, on which
 * changes, bundled and capped, through an outage and a refusal, once under redelivery.
 */
describe('alert emails (real stack, real SMTP server)', () => {
  const smtp = new TestSmtpServer();
  let stack: ServiceStack;

  beforeAll(async () => {
    await smtp.start();
    stack = await ServiceStack.start({ processor: { SMTP_URL: smtp.url, ...EMAIL_SETTINGS } });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await smtp.stop();
  }, 60_000);

  const projects = new WorkflowProjects(() => stack);
  const project = (members: Array<{ role: string; email?: null }>) => projects.project(members, { send_email: true });
  const send = (target: StackProject, body: unknown) => projects.send(target, body);
  const notifications = (projectId: number, query = '') => projects.notifications(projectId, query);
  const timeline = (projectId: number, iid: number) => projects.timeline(projectId, 'alerts', iid, 'notification_');

  it('mails the owners and maintainers of a new alert (not developers, not members without an address), naming the alert', async () => {
    const { project: target, users } = await project([{ role: 'owner' }, { role: 'maintainer' }, { role: 'developer' }, { role: 'maintainer', email: null }]);
    const [owner, maintainer, developer] = users;
    const answer = await send(target, { title: 'Disk full on db-1', severity: 'high', service: 'db', fingerprint: `disk-${randomUUID()}` });
    expect(answer.status).toBe(200);
    const [{ iid }] = answer.body;

    await eventually(() => expect([smtp.to(owner.email as string).length, smtp.to(maintainer.email as string).length]).toEqual([1, 1]), WAIT_MS, 100);
    const [email] = smtp.to(owner.email as string);
    expect(email.subject).toBe(`New alert #${iid} in ${target.path}: Disk full on db-1`);
    expect(email.headers['x-alert-iid']).toBe(String(iid));
    expect(email.headers['x-alert-reason']).toBe('new');
    expect(email.headers['x-alert-id']).toMatch(/^\d+$/);
    expect(email.headers['from']).toContain('alerts@localhost');
    expect(email.text).toContain('Severity: high');
    expect(email.text).toContain(`http://console.example.test/projects/${target.id}/alerts/${iid}`);

    const records = await notifications(target.id);
    expect(records.map((record) => [record.recipient, record.reason, record.status, record.attempts]).sort()).toEqual(
      [
        [owner.email, 'new', 'sent', 1],
        [maintainer.email, 'new', 'sent', 1],
      ].sort(),
    );
    expect(smtp.to(developer.email as string)).toEqual([]);
    expect((await timeline(target.id, iid)).map((entry) => [entry.kind, entry.details['recipient']]).sort()).toEqual(
      [
        ['notification_sent', owner.email],
        ['notification_sent', maintainer.email],
      ].sort(),
    );
  }, 60_000);

  it('mails nothing for a grouped repeat, and mails again when the alert is resolved', async () => {
    const { project: target, users } = await project([{ role: 'owner' }]);
    const [owner] = users;
    const fingerprint = `cpu-${randomUUID()}`;
    const [{ iid }] = (await send(target, { title: 'CPU hot', fingerprint })).body;
    await eventually(() => expect(smtp.to(owner.email as string)).toHaveLength(1), WAIT_MS, 100);

    const repeat = await send(target, { title: 'CPU hot', fingerprint });
    expect(repeat.body).toEqual([{ iid, title: 'CPU hot' }]);
    await send(target, { title: 'CPU hot', fingerprint, end_time: new Date().toISOString() });
    await eventually(() => expect(smtp.to(owner.email as string)).toHaveLength(2), WAIT_MS, 100);
    const resolved = smtp.to(owner.email as string)[1];
    expect(resolved.subject).toBe(`Resolved #${iid} in ${target.path}: CPU hot`);
    expect(resolved.headers['x-alert-reason']).toBe('resolved');
    // The repeat made no record: one for the new alert, one for its resolution.
    expect((await notifications(target.id, `&alert_iid=${iid}`)).map((record) => record.reason).sort()).toEqual(['new', 'resolved']);
  }, 60_000);

  it('bundles a storm into one message per recipient, saying how many alerts and listing them', async () => {
    const { project: target, users } = await project([{ role: 'owner' }, { role: 'maintainer' }]);
    const storm = Array.from({ length: 6 }, (_, index) => ({ title: `Storm ${index + 1}`, fingerprint: `storm-${index}-${randomUUID()}` }));
    const answer = await send(target, storm);
    expect(answer.body).toHaveLength(6);

    await eventually(async () => expect((await notifications(target.id, '&status=sent')).length).toBe(12), WAIT_MS, 100);
    for (const member of users) {
      const received = smtp.to(member.email as string);
      expect(received).toHaveLength(1);
      expect(received[0].subject).toBe(`6 alert updates in ${target.path} (6 new)`);
      expect(received[0].headers['x-alert-count']).toBe('6');
      expect(received[0].headers['x-alert-iid'].split(', ').map(Number).sort((a, b) => a - b)).toEqual(answer.body.map((alert) => alert.iid).sort((a, b) => a - b));
      for (const alert of storm) expect(received[0].text).toContain(alert.title);
    }
  }, 60_000);

  it("records what is over a recipient's hourly cap as suppressed, and sends it never", async () => {
    const { project: target, users } = await project([{ role: 'owner' }]);
    const [owner] = users;
    for (let sent = 1; sent <= 3; sent++) {
      await send(target, { title: `Capped ${sent}`, fingerprint: `capped-${sent}-${randomUUID()}` });
      await eventually(() => expect(smtp.to(owner.email as string)).toHaveLength(sent), WAIT_MS, 100);
    }
    const [{ iid }] = (await send(target, { title: 'Capped 4', fingerprint: `capped-4-${randomUUID()}` })).body;
    await eventually(async () => expect((await notifications(target.id, '&status=suppressed')).map((record) => record.alert_iid)).toEqual([iid]), WAIT_MS, 100);
    expect(smtp.to(owner.email as string)).toHaveLength(3);
    expect((await timeline(target.id, iid)).map((entry) => entry.kind)).toEqual(['notification_suppressed']);
  }, 60_000);

  it('mails nobody about an alert a silence covers, and says on its timeline which silence', async () => {
    const { project: target, users } = await project([{ role: 'owner' }]);
    const [owner] = users;
    const silence = await stack.processorApi<{ id: number }>('POST', `/projects/${target.id}/silences`, {
      matchers: [{ field: 'service', operator: '=', value: 'batch' }],
      ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      comment: 'Nightly batch window',
    });
    const [{ iid: silenced }] = (await send(target, { title: 'Batch slow', service: 'batch', fingerprint: `silenced-${randomUUID()}` })).body;
    const [{ iid: loud }] = (await send(target, { title: 'API down', service: 'api', fingerprint: `loud-${randomUUID()}` })).body;
    await eventually(() => expect(smtp.to(owner.email as string).map((email) => email.headers['x-alert-iid'])).toEqual([String(loud)]), WAIT_MS, 100);
    await eventually(async () => expect((await timeline(target.id, silenced)).map((entry) => [entry.kind, entry.reason])).toEqual([
      ['notification_skipped', `Silenced by silence #${silence.id} (Nightly batch window): no email was sent.`],
    ]), WAIT_MS, 100);
    expect((await notifications(target.id)).map((record) => record.alert_iid)).toEqual([loud]);
  }, 60_000);

  it('never mails a resolution that was undone before it went: the alert triggered again, its email is cancelled and says why', async () => {
    const { project: target, users } = await project([{ role: 'owner' }]);
    const [owner] = users;
    const fingerprint = `flapping-${randomUUID()}`;
    const [{ iid }] = (await send(target, { title: 'Flapping', fingerprint })).body;
    await eventually(() => expect(smtp.to(owner.email as string)).toHaveLength(1), WAIT_MS, 100);
    // Resolved by its recovery, then set back to triggered within the bundling window (1 s).
    expect((await send(target, { title: 'Flapping', fingerprint, end_time: new Date().toISOString() })).body).toEqual([{ iid, title: 'Flapping' }]);
    await stack.processorApi('PUT', `/projects/${target.id}/alerts/${iid}`, { status: 'triggered' });
    await eventually(async () => expect((await notifications(target.id, '&status=cancelled')).map((record) => [record.alert_iid, record.reason])).toEqual([[iid, 'resolved']]), WAIT_MS, 100);
    expect(smtp.to(owner.email as string).map((email) => email.subject)).toEqual([`New alert #${iid} in ${target.path}: Flapping`]);
    expect((await timeline(target.id, iid)).map((entry) => [entry.kind, entry.reason])).toEqual([
      ['notification_sent', null],
      ['notification_cancelled', `Alert #${iid} was triggered again before the email about its resolution went out.`],
    ]);
  }, 60_000);

  it('retries a refused email with backoff and records it failed with the reason after its last attempt', async () => {
    const { project: target, users } = await project([{ role: 'owner' }]);
    const [owner] = users;
    smtp.refused.add(owner.email as string);
    const [{ iid }] = (await send(target, { title: 'Nobody home', fingerprint: `refused-${randomUUID()}` })).body;
    await eventually(async () => expect((await notifications(target.id))[0]).toMatchObject({ status: 'failed', attempts: 6, error: expect.stringContaining('550') }), WAIT_MS, 100);
    expect(smtp.to(owner.email as string)).toEqual([]);
    const [entry] = await timeline(target.id, iid);
    expect(entry).toMatchObject({
      kind: 'notification_failed',
      source: 'notification',
      actor: { type: 'service' },
      reason: expect.stringContaining('550'),
      details: { recipient: owner.email, attempts: 6 },
    });
  }, 60_000);

  it('mails once for a raw alert delivered twice', async () => {
    const { project: target, users } = await project([{ role: 'owner' }, { role: 'maintainer' }]);
    const kafka = testKafka({ logLevel: logLevel.NOTHING });
    const producer = new TopicProducer(kafka, new KafkaNames(stack.topics.prefix));
    await producer.connect();
    const raw: RawAlert.RawAlertValue = {
      request_id: randomUUID(),
      integration_id: String(target.integration.id),
      project_id: String(target.id),
      received_at: new Date().toISOString(),
      payload: { title: 'Delivered twice', fingerprint: `twice-${randomUUID()}` },
    };
    try {
      await producer.send(Topic.RawAlerts, [{ key: raw.integration_id, value: raw }]);
      await producer.send(Topic.RawAlerts, [{ key: raw.integration_id, value: raw }]);
    } finally {
      await producer.disconnect();
    }
    await eventually(() => expect(users.map((member) => smtp.to(member.email as string).length)).toEqual([1, 1]), WAIT_MS, 100);
    // Longer than a bundle window and several mailer rounds later, still one each.
    const settled = Date.now() + 2_500;
    await eventually(() => expect(Date.now()).toBeGreaterThan(settled), 5_000, 250);
    expect(users.map((member) => smtp.to(member.email as string).length)).toEqual([1, 1]);
    expect(await notifications(target.id)).toHaveLength(2);
    expect(await stack.alertCount(target.id)).toBe(1);
  }, 60_000);
});

/**
 * Without SMTP_URL the processor consumes no alert events for email: no notification is recorded
 * (rather than a record saying "not sent"), and the list answers empty.
 */
describe('alert emails without SMTP_URL', () => {
  const harness = new ProcessorHarness();

  beforeAll(async () => {
    await harness.start();
  }, 120_000);

  afterAll(async () => {
    await harness.stop();
  });

  it('records and sends nothing, even for a project that turned email on', async () => {
    const integration = await harness.integration('premium');
    await harness.db.query('INSERT INTO projects (id, path, tier, updated_at) VALUES ($1, $2, $3, now())', [integration.projectId, `no-smtp-${integration.projectId}`, 'premium']);
    const { rows } = await harness.db.query<{ id: string }>('INSERT INTO users (username, email) VALUES ($1, $2) RETURNING id', [`owner-${integration.projectId}`, `owner-${integration.projectId}@example.com`]);
    await harness.db.query("INSERT INTO project_members (project_id, user_id, access_level) VALUES ($1, $2, 'owner')", [integration.projectId, rows[0].id]);
    await enableAlertEmails({ baseUrl: harness.baseUrl, adminToken: harness.env.ADMIN_TOKEN }, integration.projectId);

    const reply = await harness.receive(integration, { title: 'Nobody to mail', fingerprint: 'no-smtp' });
    expect(reply.alerts).toHaveLength(1);
    await harness.events.waitFor((event) => event.value.project_id === Number(integration.projectId) && event.value.type === 'alert.created', 1);
    // The event is out; a consumer of it (there is none) would have had several poll rounds.
    const settled = Date.now() + 2_000;
    await eventually(() => expect(Date.now()).toBeGreaterThan(settled), 5_000, 250);
    expect((await harness.db.query('SELECT id FROM alert_notifications')).rows).toEqual([]);
  }, 60_000);
});
