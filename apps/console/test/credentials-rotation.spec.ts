import { eventually, StackProject } from '@alert-ingestion/testing';
import { Page } from 'playwright-core';
import { ConsoleBrowser, ConsoleStack, stepsInOrder } from './support/console-harness';

/**
 * View credentials and Send test alert in Chromium against the real stack: a test alert to an
 * integration with a signing secret is signed by the service and succeeds (from the settings tab and
 * from Monitor > Send test alert), two key resets with grace periods show both previous keys each
 * until its own expiry, a third is refused unless it revokes them, and the tab shows one current
 * message at a time.
 */
describe('web console: credentials during a double rotation, and signed test alerts', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let project: StackProject;
  let integrationPath: string;
  const keys: string[] = [];

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    project = await stack.createProject('premium', { integrationName: 'Grafana' });
    integrationPath = `/projects/${project.id}/settings/alerts/${project.integration.id}`;
    keys.push(project.integration.authorization_key);
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    // Up to eight test runs share two cores here: a full page load, or an action waiting for one,
    // may take more than the harness's 10 s.
    browser.context.setDefaultNavigationTimeout(60_000);
    browser.context.setDefaultTimeout(30_000);
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    const token = page.getByLabel('Access token', { exact: true });
    await token.fill(stack.adminToken);
    await token.press('Enter');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const step = stepsInOrder(() => browser);

  /** The success and error messages the page shows (outside dialogs). */
  const messages = () => page.locator('.notice-success, .notice-error').allTextContents();
  const resetKey = async (grace: string, options: { revoke?: boolean } = {}) => {
    await page.getByRole('button', { name: 'Reset key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset authorization key' });
    await dialog.getByLabel('Grace period for the current key').selectOption({ label: grace });
    if (options.revoke) await dialog.getByLabel(/Revoke the previous keys now/).check();
    await dialog.getByRole('button', { name: 'Reset key' }).click();
    await dialog.waitFor({ state: 'hidden' });
  };
  const sendTestAlert = async (title: string) => {
    await page.getByLabel('Alert test payload', { exact: true }).fill(JSON.stringify({ title }));
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.created-alerts li', { hasText: title }).or(page.getByRole('alert')).first().waitFor();
    expect(await page.locator('.created-alerts li').allTextContents()).toEqual([expect.stringContaining(`${title}`)]);
  };

  step('sets a signing secret: the message takes the focus, which the vanished form had', async () => {
    await page.goto(`${integrationPath}/credentials`);
    await page.getByRole('button', { name: 'Set secret' }).click();
    await page.getByLabel('New signing secret').fill('grafana-signing-secret-of-the-console-spec');
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByText('The signing secret was saved.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('The signing secret was saved.');
  });

  step('sends a test alert from the settings tab to the integration with the signing secret: signed by the service, it succeeds', async () => {
    await page.getByRole('link', { name: 'Send test alert' }).click();
    await sendTestAlert('Signed test alert from the settings');
  });

  step('sends a test alert from Monitor > Send test alert: the same endpoint, signed, succeeds', async () => {
    await page.goto(`/projects/${project.id}/alerts`);
    await page.getByRole('link', { name: 'Send test alert' }).first().click();
    await page.getByRole('link', { name: 'Send a test alert to Grafana' }).click();
    await sendTestAlert('Signed test alert from Monitor');
  });

  step('resets the key twice with grace periods: both previous keys are shown, each valid until its own UTC time, with one message at a time', async () => {
    await page.goto(`${integrationPath}/credentials`);
    await resetKey('1 hour');
    await page.getByText('The previous key keeps working until').waitFor();
    keys.push(await page.getByLabel('Authorization key', { exact: true }).inputValue());
    await resetKey('24 hours');
    await page.getByLabel('Older previous authorization key', { exact: true }).waitFor();
    keys.push(await page.getByLabel('Authorization key', { exact: true }).inputValue());
    expect(new Set(keys).size).toBe(3);
    expect(await page.getByLabel('Previous authorization key', { exact: true }).inputValue()).toBe(keys[1]);
    expect(await page.getByLabel('Older previous authorization key', { exact: true }).inputValue()).toBe(keys[0]);
    // Exact to the minute (the page's clock ticks every second): not "in 1 hour" or "tomorrow".
    await eventually(async () => {
      expect(await page.getByTestId('previous-key-expiry').allTextContents()).toEqual([
        expect.stringMatching(/^Valid until .+ UTC \(in 23 h 5\d min\)/),
        expect.stringMatching(/^Valid until .+ UTC \(in 5\d min\)/),
      ]);
    }, 5_000, 200);

    await page.getByRole('button', { name: 'Generate secret' }).click();
    await page.getByText('A new signing secret was generated.').waitFor();
    // The key resets' messages are gone: the last action's message replaced them.
    expect(await messages()).toEqual(['A new signing secret was generated. Requests signed with a previous one are refused.']);

    await page.getByText("Configure Grafana's webhook contact point").click();
    await browser.screenshot('credentials-rotation-and-signing');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await browser.screenshot('credentials-rotation-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('refuses a third reset with a grace period, saying why in the one message, and resets when the previous keys are revoked', async () => {
    browser.expectConsoleErrors(/409/);
    await resetKey('1 hour');
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/^Key not reset: This integration already has 2 previous authorization keys that still work/);
    expect(await messages()).toHaveLength(1);
    expect(await page.getByLabel('Authorization key', { exact: true }).inputValue()).toBe(keys[2]);

    await resetKey('1 hour', { revoke: true });
    await page.getByText('Earlier previous keys were revoked.').waitFor();
    expect(await messages()).toEqual([expect.stringMatching(/^A new authorization key was generated\. The previous key keeps working until .+ UTC\. Earlier previous keys were revoked\.$/)]);
    expect(await page.getByLabel('Previous authorization key', { exact: true }).inputValue()).toBe(keys[2]);
    expect(await page.getByLabel('Older previous authorization key', { exact: true }).count()).toBe(0);
  });
});
