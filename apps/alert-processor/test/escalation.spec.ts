import { eventually, scrapeMetrics, ServiceStack, TestSmtpServer, TestWebhookReceiver } from '@alert-ingestion/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { ESCALATION_SETTINGS, EscalationTeam, MINUTE_MS } from './escalation-team';

const WAIT_MS = 20_000;

/**
 * Escalation until someone acknowledges, through the real stack (gateway, processor and
 * integration-config as processes, real PostgreSQL and Kafka), a real SMTP server and a real HTTP
 * receiver that checks every page's signature: who is paged, how and when, what stops it, and
 * that a page survives a processor's SIGKILL and two processors send each step once.
 */
describe('escalation (real stack, real SMTP server, a webhook receiver checking signatures)', () => {
  const smtp = new TestSmtpServer();
  const receiver = new TestWebhookReceiver();
  let stack: ServiceStack;

  beforeAll(async () => {
    await Promise.all([smtp.start(), receiver.start()]);
    stack = await ServiceStack.start({ processor: { SMTP_URL: smtp.url, ...ESCALATION_SETTINGS } });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([smtp.stop(), receiver.stop()]);
  }, 60_000);

  it("pages the on-call by email and webhook within seconds of the alert, signed, and records each page on the alert's timeline", async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada']);
    const primary = await team.schedule('Primary', 'ada');
    await team.contact('ada', 'email');
    const phone = await team.contact('ada', 'webhook', 'phone');
    const policy = await team.policy([{ after_minutes: 0, condition: 'not_acknowledged', targets: [{ type: 'schedule', schedule_id: primary.id }, team.webhook('/team-channel')] }]);
    expect(policy.rules[0].description).toBe(`at once, if not acknowledged, page whoever is on call in Primary and the webhook ${receiver.url}/team-channel`);
    expect(policy.webhook_secrets.map((secret) => secret.url)).toEqual([`${receiver.url}/team-channel`]);

    const triggered = Date.now();
    const iid = await team.trigger('Disk full', { severity: 'high' });
    await eventually(() => expect([smtp.to(`${team.members.ada.username}@example.com`).length, receiver.to(phone.path).length, receiver.to('/team-channel').length]).toEqual([1, 1, 1]), WAIT_MS, 50);
    process.stdout.write(`escalation: first pages ${Date.now() - triggered} ms after the alert was sent\n`);

    const [email] = smtp.to(`${team.members.ada.username}@example.com`);
    expect(email.subject).toBe(`[Page] Alert #${iid} in ${team.project.path}: Disk full (high)`);
    expect(email.text).toContain(`Acknowledge it: http://console.example.test/projects/${team.project.id}/alerts/${iid}`);
    const [page] = receiver.to(phone.path);
    expect(page.signatureValid).toBe(true);
    expect(page.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(email.headers['message-id']).toMatch(/^<escalation-page-[0-9a-f-]{36}@localhost>$/);
    expect(page.body).toMatchObject({
      event: 'page',
      alert: { project_id: team.project.id, project_path: team.project.path, iid, title: 'Disk full', severity: 'high', status: 'triggered' },
      incident: null,
      rule: { number: 1, after_minutes: 0, condition: 'not_acknowledged' },
      loop: 1,
      recipient: { type: 'user', id: team.members.ada.id, username: team.members.ada.username },
      links: { alert: `http://console.example.test/projects/${team.project.id}/alerts/${iid}`, acknowledge: `/api/v4/projects/${team.project.id}/alerts/${iid}` },
      idempotency_key: page.headers['idempotency-key'],
    });
    expect(receiver.to('/team-channel')[0]).toMatchObject({ signatureValid: true, body: { recipient: { type: 'webhook', url: `${receiver.url}/team-channel` } } });

    await eventually(async () => expect((await team.timeline(iid, ['page_sent'])).length).toBe(3), WAIT_MS);
    const escalation = await team.escalation(iid);
    expect(escalation).toMatchObject({ state: 'ended', ended_reason: 'completed', run: 1, next_step: null });
    expect(escalation.pages.map((sent) => [sent.method, sent.status, sent.user?.username ?? null]).sort()).toEqual(
      [
        ['email', 'sent', team.members.ada.username],
        ['webhook', 'sent', team.members.ada.username],
        ['webhook', 'sent', null],
      ].sort(),
    );
    // Webhook URLs show as their origin to developers' eyes (a path may hold a token).
    expect(escalation.pages.find((sent) => sent.user === null)?.address).toBe(`${receiver.url}/…`);
    expect((await team.timeline(iid, ['escalation_started', 'escalation_stopped'])).map((entry) => entry.kind)).toEqual(['escalation_started', 'escalation_stopped']);
  }, 60_000);

  it("stops a rule when the alert is acknowledged a moment before it is due, and tells those paged who asked for notices, and by whom", async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada', 'bob']);
    await team.contact('ada', 'email');
    await team.contact('bob', 'email');
    await team.call('ada', 'PUT', '/user/paging_settings', { status_notices: true });
    await team.policy([
      { after_minutes: 0, condition: 'not_acknowledged', targets: [{ type: 'user', user_id: team.members.ada.id }] },
      { after_minutes: 10, condition: 'not_acknowledged', targets: [{ type: 'user', user_id: team.members.bob.id }] },
    ]);
    const iid = await team.trigger('CPU hot');
    await eventually(() => expect(smtp.to(`${team.members.ada.username}@example.com`)).toHaveLength(1), WAIT_MS, 50);
    const { next_step } = await team.escalation(iid);
    expect(next_step).toMatchObject({ loop: 1, rule: 2, description: `after 10 min, if not acknowledged, page @${team.members.bob.username}` });
    const due = Date.parse(next_step!.due_at);

    await sleep(Math.max(0, due - Date.now() - 400));
    const acknowledged = await team.setStatus('ada', iid, 'acknowledged');
    // The acknowledgement committed before the step was due (what this case is about).
    expect(Date.parse(acknowledged.updated_at)).toBeLessThan(due);
    await sleep(Math.max(0, due + 10 * MINUTE_MS - Date.now()));

    expect(smtp.to(`${team.members.bob.username}@example.com`)).toEqual([]);
    await eventually(() => expect(smtp.to(`${team.members.ada.username}@example.com`).map((email) => email.subject)).toContain(`Acknowledged by @${team.members.ada.username}: alert #${iid} in ${team.project.path}: CPU hot`), WAIT_MS, 50);
    expect(await team.escalation(iid)).toMatchObject({ state: 'ended', ended_reason: 'acknowledged', next_step: null });
    expect((await team.timeline(iid, ['escalation_stopped'])).map((entry) => entry.reason)).toEqual([`Acknowledged by @${team.members.ada.username}: nothing more is paged.`]);
  }, 60_000);

  it('records whom a rule could not reach (nobody on call, no contact method) and goes on to the next rules at once', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada', 'cy']);
    const empty = await team.schedule('Empty', null);
    await team.contact('ada', 'email');
    const policy = await team.policy([
      { after_minutes: 0, condition: 'not_acknowledged', targets: [{ type: 'schedule', schedule_id: empty.id }] },
      { after_minutes: 30, condition: 'not_acknowledged', targets: [{ type: 'user', user_id: team.members.cy.id }] },
      { after_minutes: 60, condition: 'not_resolved', targets: [{ type: 'user', user_id: team.members.ada.id }] },
    ]);
    expect(policy.unreachable_users).toEqual([{ id: team.members.cy.id, username: team.members.cy.username }]);

    const iid = await team.trigger('Queue backed up');
    await eventually(() => expect(smtp.to(`${team.members.ada.username}@example.com`)).toHaveLength(1), WAIT_MS, 50);
    expect((await team.timeline(iid, ['page_skipped', 'page_sent'])).map((entry) => [entry.kind, entry.details['skipped'] ?? null, entry.details['rule']])).toEqual([
      ['page_skipped', 'nobody_on_call', 1],
      ['page_skipped', 'no_contact_method', 2],
      ['page_sent', null, 3],
    ]);
    expect((await team.timeline(iid, ['page_skipped'])).map((entry) => entry.reason)).toEqual(['Nobody is on call in Empty.', `@${team.members.cy.username} has no contact method: not notified.`]);
  }, 60_000);

  it('pages exactly three loops with repeat 2, each with a key of its own, then stops', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada']);
    await team.policy([{ after_minutes: 0, condition: 'not_acknowledged', targets: [team.webhook(`/loops-${team.project.id}`)] }], 2);
    const iid = await team.trigger('Flapping');
    await eventually(() => expect(receiver.to(`/loops-${team.project.id}`)).toHaveLength(3), WAIT_MS, 50);
    // Two more loops' time: nothing more comes.
    await sleep(2 * 5 * MINUTE_MS + 500);
    const pages = receiver.to(`/loops-${team.project.id}`);
    expect(pages.map((page) => page.body['loop'])).toEqual([1, 2, 3]);
    expect(new Set(pages.map((page) => page.headers['idempotency-key'])).size).toBe(3);
    expect(pages.every((page) => page.signatureValid)).toBe(true);
    expect(await team.escalation(iid)).toMatchObject({ state: 'ended', ended_reason: 'completed', repeat: 2, loop_minutes: 5 });
  }, 60_000);

  it('pages nobody for a silenced alert, keeps the policy a running escalation started with, and starts over from the first rule when triggered again', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada']);
    const first = team.webhook(`/first-${team.project.id}`);
    const second = team.webhook(`/second-${team.project.id}`);
    await team.policy([
      { after_minutes: 0, condition: 'not_acknowledged', targets: [first] },
      { after_minutes: 10, condition: 'not_resolved', targets: [second] },
    ]);
    await team.call('lead', 'POST', `/projects/${team.project.id}/silences`, {
      comment: 'Maintenance',
      ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      matchers: [{ field: 'title', operator: '=', value: 'Quiet' }],
    });
    const quiet = await team.trigger('Quiet');
    const loud = await team.trigger('Loud');
    await eventually(() => expect(receiver.to(new URL(first.url).pathname)).toHaveLength(1), WAIT_MS, 50);
    // The policy changes under the running escalation: its second rule still pages the second URL.
    await team.policy([{ after_minutes: 0, condition: 'not_acknowledged', targets: [team.webhook(`/third-${team.project.id}`)] }]);
    await eventually(() => expect(receiver.to(new URL(second.url).pathname)).toHaveLength(1), WAIT_MS, 50);
    expect(receiver.to(`/third-${team.project.id}`)).toEqual([]);
    expect(receiver.to(new URL(first.url).pathname).map((page) => (page.body['alert'] as { iid: number }).iid)).toEqual([loud]);
    expect(await team.escalation(quiet)).toMatchObject({ state: 'skipped', ended_reason: expect.stringMatching(/^Silenced by silence #\d+ \(Maintenance\): nobody was paged\.$/) });
    expect((await team.timeline(quiet, ['escalation_skipped'])).length).toBe(1);

    // Resolved, then triggered again: a second run, from the first rule, with the policy as it is now.
    await team.setStatus('ada', loud, 'resolved');
    await team.setStatus('ada', loud, 'triggered');
    await eventually(() => expect(receiver.to(`/third-${team.project.id}`)).toHaveLength(1), WAIT_MS, 50);
    expect(await team.escalation(loud)).toMatchObject({ run: 2, state: 'ended', ended_reason: 'completed' });
  }, 60_000);

  it('retries a page the receiver refuses, with the same idempotency key, until it is taken', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada']);
    const path = `/flaky-${team.project.id}`;
    receiver.answer(path, 503);
    await team.policy([{ after_minutes: 0, condition: 'not_acknowledged', targets: [team.webhook(path)] }]);
    const iid = await team.trigger('Retried');
    await eventually(() => expect(receiver.to(path).length).toBeGreaterThanOrEqual(2), WAIT_MS, 50);
    receiver.answer(path, 200);
    await eventually(async () => expect((await team.escalation(iid)).pages[0]).toMatchObject({ status: 'sent', error: null }), WAIT_MS, 100);
    const attempts = receiver.to(path);
    expect(new Set(attempts.map((attempt) => attempt.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(attempts.map((attempt) => attempt.raw.toString())).size).toBe(1);
    expect(attempts.map((attempt) => attempt.status).slice(-1)).toEqual([200]);
    expect((await team.escalation(iid)).pages[0].attempts).toBe(attempts.length);
  }, 60_000);

  it('keeps the policy to maintainers, refuses a bad one field by field, previews it in words, and takes the same policy twice as one change', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada']);
    const path = `/projects/${team.project.id}/escalation_policy`;
    const primary = await team.schedule('Primary', 'ada');
    const rules = [{ after_minutes: 5, condition: 'not_acknowledged' as const, targets: [{ type: 'schedule', schedule_id: primary.id }, team.webhook('/policy-api')] }];
    expect((await stack.answerAs(team.members.ada.token, 'GET', path)).status).toBe(403);
    expect((await stack.answerAs(team.members.ada.token, 'PUT', path, { rules })).status).toBe(403);
    expect(await team.call('lead', 'GET', path)).toMatchObject({ rules: [], repeat: 0, created_at: null });

    const refusals = [
      [{ rules: [{ ...rules[0], targets: [{ type: 'schedule', schedule_id: 999_999 }] }] }, 'rules[0].targets[0].schedule_id'],
      [{ rules: [{ ...rules[0], after_minutes: 1441 }] }, 'rules[0].after_minutes'],
      [{ rules: [{ ...rules[0], after_minutes: '5' }] }, 'rules[0].after_minutes'],
      [{ rules: [rules[0], { ...rules[0], after_minutes: 1 }] }, 'rules[1].after_minutes'],
      [{ rules: [{ ...rules[0], targets: [{ type: 'webhook', url: 'https://user:password@example.com/' }] }] }, 'rules[0].targets[0].url'],
      [{ rules, repeat: 10 }, 'repeat'],
    ] as const;
    for (const [body, field] of refusals) {
      const answer = await stack.answerAs<{ error: string; field: string }>(team.members.lead.token, 'PUT', path, body);
      expect([field, answer.status, answer.body.error, answer.body.field]).toEqual([field, 400, 'validation_failed', field]);
    }
    const preview = await team.call<{ rules: Array<{ description: string }> }>('lead', 'POST', `${path}/preview`, { rules }, 200);
    expect(preview.rules[0].description).toBe(`after 5 min, if not acknowledged, page whoever is on call in Primary and the webhook ${receiver.url}/policy-api`);
    expect(await team.call('lead', 'GET', path)).toMatchObject({ rules: [] });

    const first = await team.policy(rules);
    const again = await team.policy(rules);
    expect(first.webhook_secrets).toHaveLength(1);
    expect(again).toMatchObject({ webhook_secrets: [], updated_at: first.updated_at, loop_minutes: 10 });
    const reset = await team.call<{ url: string; secret: string }>('lead', 'POST', `${path}/reset_webhook_secret`, { url: `${receiver.url}/policy-api` }, 200);
    expect(reset.secret).not.toBe(first.webhook_secrets[0].secret);
    await team.call('lead', 'DELETE', path);
    expect(await team.call('lead', 'GET', path)).toMatchObject({ rules: [], created_at: null });
    expect((await stack.answerAs(team.members.lead.token, 'DELETE', path)).status).toBe(404);
  }, 60_000);

  it("lets every member manage their own contact methods, notification rules and notices (and nobody else's), and send themselves a test page", async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada', 'bob']);
    expect((await stack.answerAs(stack.adminToken, 'GET', '/user/contact_methods')).status).toBe(403);
    expect((await fetch(`${stack.urls.integrationConfig}/api/v4/user/contact_methods`)).status).toBe(401);

    const email = await team.contact('ada', 'email', 'Work');
    const phone = await team.contact('ada', 'webhook', 'Phone');
    expect([email.secret, phone.secret?.length]).toEqual([null, 43]);
    expect((await team.call<Array<{ secret: string | null }>>('ada', 'GET', '/user/contact_methods')).map((method) => method.secret)).toEqual([null, null]);
    const refused = async (body: unknown) => (await stack.answerAs<{ error: string; field?: string }>(team.members.ada.token, 'POST', '/user/contact_methods', body)).body;
    expect(await refused({ type: 'email', name: 'Home', address: 'not an address' })).toMatchObject({ error: 'validation_failed', field: 'address' });
    expect(await refused({ type: 'email', name: 'Work', address: 'other@example.com' })).toMatchObject({ error: 'contact_method_name_taken', field: 'name' });
    expect(await refused({ type: 'pager', name: 'Old', address: '555' })).toMatchObject({ error: 'validation_failed', field: 'type' });

    const rule = await team.call<{ id: number; after_minutes: number }>('ada', 'POST', '/user/notification_rules', { contact_method_id: phone.id, after_minutes: 5 });
    expect(rule.after_minutes).toBe(5);
    expect((await stack.answerAs<{ field: string }>(team.members.bob.token, 'POST', '/user/notification_rules', { contact_method_id: phone.id, after_minutes: 0 })).body).toMatchObject({ field: 'contact_method_id' });
    expect((await stack.answerAs(team.members.bob.token, 'DELETE', `/user/contact_methods/${phone.id}`)).status).toBe(404);
    expect((await stack.answerAs(team.members.bob.token, 'DELETE', `/user/notification_rules/${rule.id}`)).status).toBe(404);
    expect((await stack.answerAs(team.members.ada.token, 'PUT', '/user/paging_settings', { status_notices: 'yes' })).status).toBe(400);
    expect(await team.call('ada', 'PUT', '/user/paging_settings', { status_notices: true })).toEqual({ status_notices: true });
    expect(await team.call('bob', 'GET', '/user/paging_settings')).toEqual({ status_notices: false });

    expect(await team.call('ada', 'POST', `/user/contact_methods/${email.id}/test`, undefined, 200)).toEqual({ sent: true, error: null });
    expect(smtp.to(email.address).map((received) => received.subject)).toEqual(['Test page']);
    expect(await team.call('ada', 'POST', `/user/contact_methods/${phone.id}/test`, undefined, 200)).toEqual({ sent: true, error: null });
    expect(receiver.to(phone.path)).toEqual([expect.objectContaining({ signatureValid: true, body: expect.objectContaining({ event: 'test', recipient: { type: 'user', id: team.members.ada.id, username: team.members.ada.username } }) })]);

    await team.call('ada', 'DELETE', `/user/contact_methods/${phone.id}`);
    expect(await team.call('ada', 'GET', '/user/notification_rules')).toEqual([]);
    const iid = await team.trigger('No policy');
    expect(await team.call('ada', 'GET', `/projects/${team.project.id}/alerts/${iid}/escalation`)).toMatchObject({ state: 'none', pages: [] });
    expect((await stack.answerAs(team.members.ada.token, 'GET', `/projects/${team.project.id}/alerts/99999/escalation`)).status).toBe(404);
  }, 60_000);

  it('sends a step that fell due while the processor was SIGKILLed once it is back, and counts it late', async () => {
    const team = await EscalationTeam.create(stack, receiver, ['ada']);
    const path = `/restart-${team.project.id}`;
    await team.policy([
      { after_minutes: 0, condition: 'not_acknowledged', targets: [team.webhook(path)] },
      { after_minutes: 10, condition: 'not_acknowledged', targets: [team.webhook(path)] },
    ]);
    const iid = await team.trigger('Processor down');
    await eventually(() => expect(receiver.to(path)).toHaveLength(1), WAIT_MS, 50);
    const { next_step } = await team.escalation(iid);
    stack.processor.kill('SIGKILL');
    await stack.processor.exited;
    await sleep(Math.max(0, Date.parse(next_step!.due_at) - Date.now() + 2_000));
    expect(receiver.to(path)).toHaveLength(1);

    await stack.restartProcessor();
    await eventually(() => expect(receiver.to(path)).toHaveLength(2), WAIT_MS, 50);
    await sleep(1_000);
    expect(receiver.to(path).map((page) => (page.body['rule'] as { number: number }).number)).toEqual([1, 2]);
    const metrics = await scrapeMetrics(stack.urls.processor);
    expect(metrics.value('alert_processor_escalation_steps_total', { outcome: 'late' })).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('has two processors send each step once', async () => {
    const second = await stack.startProcessor();
    try {
      const team = await EscalationTeam.create(stack, receiver, ['ada']);
      const path = `/shared-${team.project.id}`;
      await team.policy(
        [
          { after_minutes: 0, condition: 'not_acknowledged', targets: [team.webhook(path)] },
          { after_minutes: 1, condition: 'not_acknowledged', targets: [team.webhook(path)] },
        ],
        1,
      );
      const alerts = 20;
      for (let n = 0; n < alerts; n++) await team.trigger(`Storm ${n}`);
      // Two rules, two loops: four steps per alert.
      await eventually(() => expect(receiver.to(path).length).toBeGreaterThanOrEqual(alerts * 4), 40_000, 100);
      await sleep(2 * 6 * MINUTE_MS);
      const pages = receiver.to(path);
      const steps = pages.map((page) => `${(page.body['alert'] as { iid: number }).iid}/${page.body['loop']}/${(page.body['rule'] as { number: number }).number}`);
      expect(pages).toHaveLength(alerts * 4);
      expect(new Set(steps).size).toBe(alerts * 4);
      expect(new Set(pages.map((page) => page.headers['idempotency-key'])).size).toBe(alerts * 4);
      // Both processors' engines took steps.
      const taken = await Promise.all(
        [stack.urls.processor, second.url].map(async (url) => (await scrapeMetrics(url)).value('alert_processor_escalation_steps_total', { outcome: 'due' })),
      );
      process.stdout.write(`escalation: steps taken by each processor ${taken.join(', ')}\n`);
      expect(taken.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(alerts * 4);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
