import { AlertView, IncidentView } from '@alert-ingestion/contracts';
import { eventually, scrapeMetrics, ServiceProcess, ServiceStack, StackProject, TestSmtpServer } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

const WAIT_MS = 30_000;

/** The niceness of a running process, from /proc/<pid>/stat (field 19). */
function niceness(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/**
 * The alert workflow apart from intake (PROCESSOR_ROLES, docs/operating.md): the stack's processor
 * runs intake alone and another processor the workflow alone, at niceness 10. Alerts are stored and
 * answered by intake; incidents and emails come from the workflow processor, which may stop and
 * catch up without intake noticing.
 */
describe('processor roles: intake and the alert workflow in processors of their own', () => {
  const smtp = new TestSmtpServer();
  let stack: ServiceStack;
  let workflow: ServiceProcess;
  let project: StackProject;
  let ownerEmail: string;

  const workflowEnv = { PROCESSOR_ROLES: 'workflow', PROCESSOR_NICENESS: '10', KAFKA_CLIENT_ID: 'workflow-processor' };

  beforeAll(async () => {
    await smtp.start();
    stack = await ServiceStack.start({ processor: { PROCESSOR_ROLES: 'intake', SMTP_URL: smtp.url, EMAIL_BUNDLE_SECONDS: '0', EMAIL_POLL_MS: '100' } });
    workflow = await stack.startProcessor(workflowEnv);

    project = await stack.createProject('premium', { pathPrefix: 'roles' });
    const name = `roles-owner-${randomBytes(4).toString('hex')}`;
    ownerEmail = `${name}@example.com`;
    const owner = await stack.management<{ id: number }>('POST', '/users', { username: name, email: ownerEmail });
    await stack.management('POST', `/projects/${project.id}/members`, { user_id: owner.id, access_level: 'owner' });
    const settings = await stack.management<{ create_incident: boolean; send_email: boolean; email_configured: boolean }>('PUT', `/projects/${project.id}/alert_settings`, {
      create_incident: true,
      send_email: true,
      auto_close_incident: true,
    });
    expect(settings).toMatchObject({ create_incident: true, send_email: true, email_configured: true });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await smtp.stop();
  }, 60_000);

  async function alert(iid: number): Promise<AlertView> {
    return stack.processorApi<AlertView>('GET', `/projects/${project.id}/alerts/${iid}`);
  }

  /** The incident the alert is linked to, if any. */
  async function incidentOf(iid: number): Promise<IncidentView | undefined> {
    const linked = (await alert(iid)).incident_iid;
    return linked === null ? undefined : stack.processorApi<IncidentView>('GET', `/projects/${project.id}/incidents/${linked}`);
  }

  it('stores alerts in the intake processor and opens their incidents and sends their emails from the workflow processor, which gives way at niceness 10', async () => {
    const [iid] = await stack.notify(project.integration, { title: 'Disk full on db-1' });

    await eventually(async () => expect((await incidentOf(iid))?.title).toBe('Disk full on db-1'), WAIT_MS);
    await eventually(async () => expect(smtp.to(ownerEmail).map((email) => email.headers['x-alert-iid'])).toContain(String(iid)), WAIT_MS);

    const intakeMetrics = await scrapeMetrics(stack.processor.url);
    const workflowMetrics = await scrapeMetrics(workflow.url);
    expect(intakeMetrics.value('alert_processor_batch_messages_count')).toBeGreaterThan(0);
    expect(workflowMetrics.value('alert_processor_batch_messages_count')).toBe(0);
    // The event relays run with intake: the workflow processor leads no shard.
    expect(intakeMetrics.value('outbox_shards_led', { outbox: 'alert_events' })).toBeGreaterThan(0);
    expect(workflowMetrics.value('outbox_shards_led', { outbox: 'alert_events' })).toBe(0);

    expect(niceness(workflow.process.pid)).toBe(10);
    expect(niceness(stack.processor.process.pid)).toBe(0);
    // Each /healthz probes what its instance runs: the alert and incident relays with intake; the
    // incident automation, the alert emails and the on-call event relay (with its handoff publisher) with the workflow.
    const health = async (url: string) => {
      const answer = await fetch(`${url}/healthz`);
      return { status: answer.status, probes: Object.keys(((await answer.json()) as { details: Record<string, unknown> }).details).sort() };
    };
    expect(await health(stack.processor.url)).toEqual({ status: 200, probes: ['alert_event_relay', 'incident_event_relay', 'kafka', 'postgresql'] });
    expect(await health(workflow.url)).toEqual({ status: 200, probes: ['alert_email_events', 'escalation_events', 'incident_automation', 'kafka', 'oncall_event_relay', 'postgresql'] });
    expect(workflowMetrics.value('alert_processor_workflow_consuming', { consumer: 'incident_automation' })).toBe(1);
    expect(workflowMetrics.value('alert_processor_workflow_consuming', { consumer: 'alert_email_events' })).toBe(1);
    // No project has an escalation policy: the escalation consumer reads nothing.
    expect(workflowMetrics.value('alert_processor_workflow_consuming', { consumer: 'escalation_events' })).toBe(0);
  });

  it('keeps storing alerts while the workflow processor is down; a new one catches up with their incidents and emails', async () => {
    await workflow.stop();
    const [iid] = await stack.notify(project.integration, { title: 'Queue backlog on worker-3' });
    expect((await alert(iid)).status).toBe('triggered');
    // Nothing opens its incident while no processor runs the workflow.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await alert(iid)).incident_iid).toBeNull();

    workflow = await stack.startProcessor(workflowEnv);
    await eventually(async () => expect((await incidentOf(iid))?.title).toBe('Queue backlog on worker-3'), WAIT_MS);
    await eventually(async () => expect(smtp.to(ownerEmail).map((email) => email.headers['x-alert-iid'])).toContain(String(iid)), WAIT_MS);
  });

  it('reads no alert event while no project has a setting on, and follows again once one is on', async () => {
    const consuming = async (consumer: string) => (await scrapeMetrics(workflow.url)).value('alert_processor_workflow_consuming', { consumer });
    await stack.management('PUT', `/projects/${project.id}/alert_settings`, { create_incident: false, send_email: false, auto_close_incident: false });
    await eventually(async () => expect([await consuming('incident_automation'), await consuming('alert_email_events')]).toEqual([0, 0]), WAIT_MS);

    const mailed = smtp.to(ownerEmail).length;
    const [quiet] = await stack.notify(project.integration, { title: 'Sent while every setting is off' });
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    await stack.management('PUT', `/projects/${project.id}/alert_settings`, { create_incident: true, send_email: true });
    await eventually(async () => expect([await consuming('incident_automation'), await consuming('alert_email_events')]).toEqual([1, 1]), WAIT_MS);
    const [loud] = await stack.notify(project.integration, { title: 'Sent once the settings are on again' });
    await eventually(async () => expect((await incidentOf(loud))?.title).toBe('Sent once the settings are on again'), WAIT_MS);
    await eventually(async () => expect(smtp.to(ownerEmail).map((email) => email.headers['x-alert-iid'])).toContain(String(loud)), WAIT_MS);
    // What arrived while nothing wanted it opened nothing and mailed nobody, then or since.
    expect((await alert(quiet)).incident_iid).toBeNull();
    expect(smtp.to(ownerEmail).map((email) => email.headers['x-alert-iid'])).not.toContain(String(quiet));
    expect(smtp.to(ownerEmail).length).toBe(mailed + 1);
  });
});
