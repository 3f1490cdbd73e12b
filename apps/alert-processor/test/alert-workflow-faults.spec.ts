import { IncidentView } from '@alert-ingestion/contracts';
import { withClient } from '@alert-ingestion/database';
import { eventually, ServiceStack, TestSmtpServer } from '@alert-ingestion/testing';
import { randomUUID } from 'node:crypto';
import { WorkflowProjects } from './workflow-projects';

/**
 * Emails retried a few times a second at first, up to 3 s apart, for 40 attempts (so a minute's
 * outage is outlived); a claim is the mailer's for 5 s, four SMTP timeouts of 1 s.
 */
const WORKFLOW_SETTINGS = {
  EMAIL_BUNDLE_SECONDS: '1',
  EMAIL_HOURLY_CAP: '100',
  EMAIL_MAX_ATTEMPTS: '40',
  EMAIL_RETRY_MS: '300',
  EMAIL_MAX_RETRY_MS: '3000',
  EMAIL_POLL_MS: '100',
  EMAIL_SMTP_TIMEOUT_MS: '1000',
  EMAIL_CLAIM_LEASE_SECONDS: '5',
};
const WAIT_MS = 60_000;

/**
 * The alert workflow's faults drilled through the real stack (gateway, processor, integration-config
 * as processes, real PostgreSQL, Kafka and an SMTP server), as intake's are: a mail server away for
 * a minute, PostgreSQL going away under a storm with create_incident on, the processor killed between
 * the mail server's acceptance and the record of it, deadlocks in the mailer's transactions.
 */
describe('the alert workflow under faults (real stack)', () => {
  const smtp = new TestSmtpServer();
  let stack: ServiceStack;
  const projects = new WorkflowProjects(() => stack);

  beforeAll(async () => {
    await smtp.start();
    stack = await ServiceStack.start({ processor: { SMTP_URL: smtp.url, ...WORKFLOW_SETTINGS } });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await smtp.stop();
  }, 60_000);

  function sql<Row extends object>(text: string, values: unknown[] = []): Promise<Row[]> {
    return withClient(stack.database.url, async (client) => (await client.query<Row>(text, values)).rows);
  }

  it('sends every email once after the mail server was away for a minute, while intake answers every alert at once', async () => {
    const { project, users } = await projects.project([{ role: 'owner' }, { role: 'maintainer' }], { send_email: true });
    await smtp.stop();
    const sent: number[] = [];
    const outageEnds = Date.now() + 60_000;
    try {
      for (let n = 1; Date.now() < outageEnds - 5_000; n++) {
        const answer = await projects.send(project, { title: `During the outage ${n}`, fingerprint: `outage-${n}-${randomUUID()}` });
        // Intake never waits for email: each alert is stored and answered (200, not a 202).
        expect(answer.status).toBe(200);
        sent.push(answer.body[0].iid);
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageEnds - Date.now())));
    } finally {
      await smtp.start();
    }
    expect(sent.length).toBeGreaterThanOrEqual(10);
    // Every alert of the minute reaches each recipient, in as many messages as the mailer bundled them, each alert once.
    for (const user of users) {
      await eventually(
        () => expect(smtp.to(user.email as string).flatMap((email) => email.headers['x-alert-iid'].split(', ').map(Number)).sort((a, b) => a - b)).toEqual(sent),
        WAIT_MS,
        200,
      );
    }
    await eventually(async () => expect((await projects.notifications(project.id)).map((n) => n.status)).toEqual(Array(sent.length * 2).fill('sent')), WAIT_MS, 200);
    const settled = Date.now() + 3_000;
    await eventually(() => expect(Date.now()).toBeGreaterThan(settled), 10_000, 250);
    for (const user of users) expect(smtp.to(user.email as string).flatMap((email) => email.headers['x-alert-iid'].split(', '))).toHaveLength(sent.length);
  }, 180_000);

  it('sends no message twice when the claim or the record of an email meets a deadlock', async () => {
    const { project, users } = await projects.project([{ role: 'owner' }], { send_email: true });
    const [owner] = users;
    // A deadlock (SQLSTATE 40P01) the first time the owner's notification is claimed, and again the first time it is recorded sent.
    await sql(`CREATE SEQUENCE drill_claim_deadlocks; CREATE SEQUENCE drill_record_deadlocks;
      CREATE FUNCTION drill_deadlock() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.recipient = ${quoteLiteral(owner.email as string)} THEN
          IF nextval(TG_ARGV[0]) = 1 THEN
            RAISE EXCEPTION 'deadlock forced by the drill' USING ERRCODE = '40P01';
          END IF;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER drill_claim_deadlock BEFORE UPDATE ON alert_notifications FOR EACH ROW
        WHEN (OLD.claimed_by IS NULL AND NEW.claimed_by IS NOT NULL) EXECUTE FUNCTION drill_deadlock('drill_claim_deadlocks');
      CREATE TRIGGER drill_record_deadlock BEFORE UPDATE ON alert_notifications FOR EACH ROW
        WHEN (OLD.status = 'pending' AND NEW.status = 'sent') EXECUTE FUNCTION drill_deadlock('drill_record_deadlocks')`);
    try {
      const [{ iid }] = (await projects.send(project, { title: 'Deadlocked twice', fingerprint: `deadlock-${randomUUID()}` })).body;
      await eventually(async () => expect((await projects.notifications(project.id)).map((n) => [n.status, n.attempts])).toEqual([['sent', 1]]), WAIT_MS, 100);
      const [fired] = await sql<{ claims: string; records: string }>('SELECT (SELECT last_value FROM drill_claim_deadlocks) AS claims, (SELECT last_value FROM drill_record_deadlocks) AS records');
      // Each forced deadlock happened, and its transaction ran again.
      expect(fired).toEqual({ claims: '2', records: '2' });
      const settled = Date.now() + 2_000;
      await eventually(() => expect(Date.now()).toBeGreaterThan(settled), 5_000, 250);
      expect(smtp.to(owner.email as string).map((email) => email.headers['x-alert-iid'])).toEqual([String(iid)]);
      expect((await projects.timeline(project.id, 'alerts', iid, 'notification_')).map((entry) => entry.kind)).toEqual(['notification_sent']);
    } finally {
      await sql('DROP TRIGGER drill_claim_deadlock ON alert_notifications; DROP TRIGGER drill_record_deadlock ON alert_notifications; DROP FUNCTION drill_deadlock()');
    }
  }, 90_000);

  it('loses no email when the processor is killed between the mail server taking a message and its record, and sends it again with the same Message-ID', async () => {
    const { project, users } = await projects.project([{ role: 'owner' }], { send_email: true });
    const [owner] = users;
    const held = smtp.hold();
    const [{ iid }] = (await projects.send(project, { title: 'Killed mid-send', fingerprint: `killed-${randomUUID()}` })).body;
    const first = await held.arrived;
    stack.processor.kill('SIGKILL');
    await stack.processor.exited;
    // A call to a stack whose processor has ended says so (as a processor dying mid-test would).
    await expect(stack.alertCount(project.id)).rejects.toThrow(/alert-processor \(http:\/\/127\.0\.0\.1:\d+\) has ended \(killed by SIGKILL\)/);
    held.release();
    await stack.restartProcessor();
    // Once the dead mailer's claim runs out (5 s), the message goes again: the only duplicate a crash can make, and it is the same message.
    await eventually(() => expect(smtp.to(owner.email as string)).toHaveLength(2), WAIT_MS, 100);
    const [before, again] = smtp.to(owner.email as string);
    expect(before).toBe(first);
    expect(again.headers['message-id']).toBe(first.headers['message-id']);
    expect(again.headers['x-alert-iid']).toBe(String(iid));
    await eventually(async () => expect((await projects.notifications(project.id)).map((n) => [n.status, n.attempts])).toEqual([['sent', 2]]), WAIT_MS, 100);
    const settled = Date.now() + 2_000;
    await eventually(() => expect(Date.now()).toBeGreaterThan(settled), 5_000, 250);
    expect(smtp.to(owner.email as string)).toHaveLength(2);
  }, 120_000);

  it('opens exactly one incident per alert of a storm while PostgreSQL goes away and comes back', async () => {
    const { project } = await projects.project([], { create_incident: true });
    const storm = Array.from({ length: 30 }, (_, request) => Array.from({ length: 10 }, (_, n) => ({ title: `Storm ${request}.${n}`, fingerprint: `storm-${request}-${n}-${randomUUID()}` })));
    const answers: Array<Promise<{ status: number }>> = [];
    for (const [index, alerts] of storm.entries()) {
      answers.push(projects.send(project, alerts));
      // PostgreSQL goes away for 5 s a third of the way through, while requests keep coming.
      if (index === 10) answers.push(stack.database.interrupt(5_000).then(() => ({ status: 0 })));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Stored now (200) or once the processor is back (202): the gateway needs no database.
    expect((await Promise.all(answers)).filter((answer) => answer.status !== 0 && ![200, 202].includes(answer.status))).toEqual([]);
    await eventually(async () => expect(await stack.alertCount(project.id)).toBe(300), WAIT_MS, 250);
    await eventually(async () => expect(Number((await sql<{ count: string }>('SELECT count(*) FROM incidents WHERE project_id = $1', [project.id]))[0].count)).toBe(300), WAIT_MS, 250);
    const links = await sql<{ alerts: string; linked: string; distinct_incidents: string; opened_from_own: string; max_iid: number }>(
      `SELECT count(*) AS alerts, count(a.incident_id) AS linked, count(DISTINCT a.incident_id) AS distinct_incidents,
         count(*) FILTER (WHERE i.created_by_alert_id = a.id) AS opened_from_own, (SELECT max(iid) FROM incidents WHERE project_id = $1) AS max_iid
       FROM alerts a LEFT JOIN incidents i ON i.id = a.incident_id WHERE a.project_id = $1`,
      [project.id],
    );
    expect(links).toEqual([{ alerts: '300', linked: '300', distinct_incidents: '300', opened_from_own: '300', max_iid: 300 }]);
    const listed = await stack.processorApi<IncidentView[]>('GET', `/projects/${project.id}/incidents?per_page=1`);
    expect(listed[0]).toMatchObject({ iid: 300, status: 'open', created_by: { type: 'alert' } });
  }, 180_000);
});

function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
