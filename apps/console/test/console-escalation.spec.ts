import { TestSmtpServer, TestWebhookReceiver, eventually } from '@alert-ingestion/testing';
import { Page } from 'playwright-core';
import { addHttpIntegration, addMember, ConsoleBrowser, ConsoleStack, HttpIntegration, stackApi, stepsInOrder } from './support/console-harness';

/**
 * Escalation in Chromium against the real stack (docs/console.md "Escalation"), as the README walks
 * a team through it: a developer sets on their profile how they are paged (an email, a webhook after
 * five minutes) and sends themselves a test page; a maintainer writes the escalation policy under
 * Monitor, each rule said in words as it is edited, and is warned of a member it cannot reach; an
 * alert pages the on-call developer, whose alert page shows who was paged, the next step and when,
 * and acknowledges it from there.
 */
describe('web console: escalation, in Chromium', () => {
  const smtp = new TestSmtpServer();
  const receiver = new TestWebhookReceiver();
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let integration: HttpIntegration;
  let maintainer: { id: number; username: string; token: string };
  let ada: { id: number; username: string; token: string };

  const api = <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => stackApi<T>(stack, method, path, body, token);

  beforeAll(async () => {
    await Promise.all([smtp.start(), receiver.start()]);
    stack = await ConsoleStack.start({ processor: { SMTP_URL: smtp.url, ESCALATION_POLL_MS: '200', EMAIL_POLL_MS: '200', ESCALATION_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    // An escalation moves on the processor's poll and its consumer: a step waits a few seconds, not one.
    browser.context.setDefaultTimeout(30_000);
    projectId = (await api<{ id: number }>('POST', '/projects', { path: 'acme/web', tier: 'premium' })).id;
    maintainer = await addMember(stack, projectId, 'mara', 'maintainer');
    ada = await addMember(stack, projectId, 'ada', 'developer');
    integration = await addHttpIntegration(stack, projectId);
    // Ada is on call in Primary today.
    const schedule = await api<{ id: number }>('POST', `/projects/${projectId}/oncall_schedules`, { name: 'Primary', time_zone: 'UTC' }, maintainer.token);
    await api('POST', `/projects/${projectId}/oncall_schedules/${schedule.id}/rotations`, {
      name: 'Days',
      starts_at: `${Temporal.Now.plainDateISO('UTC').subtract({ days: 1 })}T00:00`,
      shift_length: 1,
      shift_length_unit: 'days',
      participant_ids: [ada.id],
    }, maintainer.token);
  }, 180_000);

  const step = stepsInOrder(() => browser, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await Promise.all([smtp.stop(), receiver.stop()]);
  });

  step('a developer adds an email and a webhook to their profile, sees the webhook’s secret once, sends a test page, and pages the webhook only after five minutes', async () => {
    await browser.signIn(ada.token);
    await page.getByRole('link', { name: 'Profile' }).click();
    await browser.heading('Profile').waitFor();
    await page.getByText('No contact method: escalation policies cannot reach you.').waitFor();
    const add = page.getByRole('form', { name: 'Add a contact method' });
    await add.getByLabel('Name', { exact: true }).fill('Work email');
    await add.getByLabel('Address to page', { exact: true }).fill('ada@example.com');
    await add.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Added Work email: send yourself a test page to check it reaches you.').waitFor();
    await add.getByLabel('Type', { exact: true }).selectOption('webhook');
    await add.getByLabel('Name', { exact: true }).fill('Phone');
    await add.getByLabel('Webhook URL', { exact: true }).fill(`${receiver.url}/ada-phone`);
    await add.getByRole('button', { name: 'Add' }).click();
    const secret = page.getByLabel('Signing secret of Phone (shown once)');
    await secret.waitFor();
    receiver.secret('/ada-phone', await secret.inputValue());

    const methods = page.getByRole('table').first();
    await methods.getByRole('row', { name: /Work email/ }).getByRole('button', { name: 'Send me a test page' }).click();
    await page.getByText('Test page sent to Work email (ada@example.com).').waitFor();
    expect(smtp.to('ada@example.com').map((email) => email.subject)).toEqual(['Test page']);
    await methods.getByRole('row', { name: /Phone/ }).getByRole('button', { name: 'Send me a test page' }).click();
    await page.getByText(`Test page sent to Phone (${receiver.url}/ada-phone).`).waitFor();
    expect(receiver.to('/ada-phone').map((request) => [request.signatureValid, request.body['event']])).toEqual([[true, 'test']]);

    const rule = page.getByRole('form', { name: 'Add a notification rule' });
    await rule.getByLabel('Contact method', { exact: true }).selectOption({ label: 'Work email' });
    await rule.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('cell', { name: 'at once' }).waitFor();
    await rule.getByLabel('Contact method', { exact: true }).selectOption({ label: 'Phone' });
    await rule.getByLabel('After (minutes)', { exact: true }).fill('5');
    await rule.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('cell', { name: '5 minutes' }).waitFor();
    await page.getByLabel('Tell me when an alert I was paged for is acknowledged or resolved, and by whom').check();
    await eventually(async () => expect(await api('GET', '/user/paging_settings', undefined, ada.token)).toEqual({ status_notices: true }), 10_000);
    await browser.screenshot('profile-paging');
  });

  step('a maintainer writes the escalation policy under Monitor, each rule said in words as it is edited, and is warned of a member it cannot reach', async () => {
    await browser.signIn(maintainer.token, { signOutFirst: true });
    await page.goto(`/projects/${projectId}/alerts`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Escalation policy' }).click();
    await browser.heading('Escalation policy').waitFor();
    const rule1 = page.getByRole('group', { name: 'Rule 1' });
    await rule1.getByLabel('Schedule', { exact: true }).selectOption({ label: 'Primary' });
    await rule1.getByText('At once, if not acknowledged, page whoever is on call in Primary.').waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rule2 = page.getByRole('group', { name: 'Rule 2' });
    await rule2.getByLabel('After (minutes)', { exact: true }).fill('15');
    await rule2.getByLabel('Condition', { exact: true }).selectOption('not_resolved');
    await rule2.getByLabel('Member', { exact: true }).selectOption({ label: 'mara' });
    await rule2.getByText('After 15 min, if not resolved, page @mara.').waitFor();
    await page.getByText('@mara would be paged in vain', { exact: false }).waitFor();
    await page.getByLabel('Repeat (times)', { exact: true }).fill('1');
    await page.getByText('The rules run 2 loops; a loop lasts 20 minutes', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByText('Saved: alerts triggered from now on escalate with these rules.').waitFor();
    await browser.screenshot('escalation-policy');
  });

  step("an alert pages the on-call developer by email at once; their alert page shows who was paged, the webhook due in five minutes and the next rule, and they acknowledge it there", async () => {
    const iid = await integration.send({ title: 'Checkout latency over 2 s', severity: 'high', service: 'checkout' });
    await eventually(() => expect(smtp.to('ada@example.com').map((email) => email.subject)).toContain(`[Page] Alert #${iid} in acme/web: Checkout latency over 2 s (high)`), 30_000, 200);

    await browser.signIn(ada.token, { signOutFirst: true });
    await page.goto(`/projects/${projectId}/alerts/${iid}`);
    const card = page.locator('.alert-escalation');
    await card.getByText('Escalating').waitFor();
    await card.getByText('Next: loop 1, rule 2: after 15 min, if not resolved, page @mara', { exact: false }).waitFor();
    const pages = card.getByRole('table');
    await pages.getByRole('row', { name: /@ada Email ada@example\.com Sent/ }).waitFor();
    await pages.getByRole('row', { name: /@ada Webhook .* Pending Due in/ }).waitFor();
    await page.getByText('Paged @ada by email.').waitFor();
    await browser.screenshot('alert-escalation');

    await card.getByRole('button', { name: 'Acknowledge' }).click();
    await card.getByText('Acknowledged: only the "if not resolved" rules go on').waitFor();
    await pages.getByRole('row', { name: /@ada Webhook .* Cancelled/ }).waitFor();
    await eventually(() => expect(smtp.to('ada@example.com').map((email) => email.subject)).toContain(`Acknowledged by @ada: alert #${iid} in acme/web: Checkout latency over 2 s`), 30_000, 200);
    await page.getByText('Acknowledged by @ada: its "if not resolved" rules go on.', { exact: false }).waitFor();
    await browser.screenshot('alert-escalation-acknowledged');
  });
});
