import { enableAlertEmails, eventually, TestSmtpServer } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { ConsoleBrowser, ConsoleStack } from './support/console-harness';

/**
 * Alert emails in Debian's Chromium against the real stack and a real SMTP server in this process:
 * a maintainer sets their own address on the Profile page, a new alert is mailed there, and the
 * alert page's Notifications card shows the email as sent.
 */
describe('web console: alert emails', () => {
  const smtp = new TestSmtpServer();
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    await smtp.start();
    stack = await ConsoleStack.start({ processor: { SMTP_URL: smtp.url, EMAIL_BUNDLE_SECONDS: '1', EMAIL_POLL_MS: '100' } });
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    // A few pages and clicks: a longer wait than the harness's 10 s lets it pass on a busy machine.
    browser.page.setDefaultTimeout(60_000);
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await smtp.stop();
  });

  it('lets a maintainer set their address, mails them a new alert and shows the email on the alert page', async () => {
    const page = browser.page;
    const suffix = randomBytes(4).toString('hex');
    const maria = await stack.management<{ id: number; token: string }>('POST', '/users', { username: `maria-${suffix}` });
    const project = await stack.createProject('premium', { pathPrefix: 'console-emails' });
    await stack.management('POST', `/projects/${project.id}/members`, { user_id: maria.id, access_level: 'maintainer' });
    await enableAlertEmails(stack, project.id);

    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await page.getByLabel('Access token', { exact: true }).fill(maria.token);
    await page.getByLabel('Access token', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    const email = page.getByLabel('Email address');
    await email.fill('not an address');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter an email address, such as jane@example.com.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const address = `Maria.${suffix}@Example.com`;
    await email.fill(address);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved: alert emails go to ${address.toLowerCase()}.`).waitFor();
    await browser.screenshot('profile-email');

    const sent = await fetch(project.integration.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.integration.authorization_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Checkout latency above 2s', severity: 'high', service: 'checkout' }),
    });
    const [{ iid }] = (await sent.json()) as Array<{ iid: number }>;
    await eventually(() => expect(smtp.to(address)).toHaveLength(1), 30_000, 100);
    expect(smtp.to(address)[0].subject).toBe(`New alert #${iid} in ${project.path}: Checkout latency above 2s`);

    await page.goto(`/projects/${project.id}/alerts/${iid}`);
    const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Notifications' }) });
    await card.getByRole('cell', { name: address.toLowerCase() }).waitFor();
    await card.getByText('Sent', { exact: true }).waitFor();
    expect(await card.getByRole('cell').allTextContents()).toEqual([address.toLowerCase(), 'New alert', 'Sent', expect.stringMatching(/ago|now/)]);
    await browser.screenshot('alert-notifications');
    expect(browser.takeErrors()).toEqual([]);
  }, 300_000);
});
