import { Page } from 'playwright-core';
import { addMember, ADMIN_TOKEN, ConsoleBrowser, ConsoleStack, stackApi, stepsInOrder } from './support/console-harness';

/** What the monitoring tool sends: the title at `summary`, the severity at `labels.severity` (not the platform's own keys). */
const SAMPLE = {
  summary: 'Payments API error rate above 5%',
  labels: { severity: 'low', service: 'payments', instance: 'api-7' },
  starts_at: '2026-11-26T09:00:00Z',
};

const MAPPING = [
  { field_name: 'title', path: ['summary'], type: 'string' },
  { field_name: 'severity', path: ['labels', 'severity'], type: 'string' },
];

/**
 * A developer's day with test alerts, in Chromium against the real stack: the alert list says why
 * it is empty, Monitor > Send test alert starts from the integration's sample payload and previews
 * it under the integration's custom mapping (spec 1.7, 4.2: developers send test alerts but do not
 * see integration settings), the alert created has the mapped title and severity, and the message
 * that says so takes the focus that Send dropped; the 390 px project menu keeps its group headings.
 */
describe('web console: Send test alert for developers, in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let integration: { id: number; authorization_key: string; url: string };
  let developer: { id: number; token: string };

  const api = <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => stackApi<T>(stack, method, path, body, token);

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    projectId = (await api<{ id: number }>('POST', '/projects', { path: 'acme/payments', tier: 'premium' })).id;
    developer = await addMember(stack, projectId, 'devi', 'developer');
  }, 180_000);

  const step = stepsInOrder(() => browser, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const heading = (name: string | RegExp) => browser.heading(name);
  const signIn = (token: string, options?: { signOutFirst?: boolean }) => browser.signIn(token, options);
  /** The live preview's fields, as label -> text. */
  const previewed = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      await page
        .getByRole('region', { name: 'Preview' })
        .locator('dt')
        .evaluateAll((terms) => terms.map((term) => [term.textContent, term.nextElementSibling?.textContent ?? ''])),
    );
  /** Where the focus is: the current message (its text), or the tag of whatever else has it. */
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement;
      if (element?.classList.contains('current-message')) return `message: ${element.textContent}`;
      return element === document.body ? 'body' : `${element?.tagName.toLowerCase()}: ${element?.textContent}`;
    });
  const noOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  step('tells a developer whom to ask while the project has no integration, then that none is open once one exists', async () => {
    await signIn(developer.token);
    await page.goto(`/projects/${projectId}/alerts`);
    await page.getByText('No alerts yet: this project has no integration to receive them.').waitFor();
    await page.getByText('Ask a maintainer or owner of the project to add one.', { exact: false }).waitFor();
    expect(await page.getByText(/set one up in Settings/).count()).toBe(0);

    integration = await api('POST', `/projects/${projectId}/alert_integrations`, { name: 'Payments', active: true, sample_payload: JSON.stringify(SAMPLE), payload_field_mapping: MAPPING });
    await page.reload();
    await page.getByText('There are no open alerts: none is triggered or acknowledged.').waitFor();
    expect(await page.getByText(/no integration/).count()).toBe(0);

    await page.getByLabel('Search alerts', { exact: true }).fill('nothing like this');
    await page.getByText('No open alert matches “nothing like this”.').waitFor();
    await page.getByRole('link', { name: 'Search all alerts' }).waitFor();
    await page.getByLabel('Search alerts', { exact: true }).fill('');
    await page.getByText('There are no open alerts: none is triggered or acknowledged.').waitFor();
  });

  step("starts the developer from the integration's sample payload, with the preview under its mapping and no credential", async () => {
    await page.getByRole('link', { name: 'send a test alert' }).click();
    await heading('Send test alert').waitFor();
    await page.getByRole('link', { name: 'Send a test alert to Payments' }).click();
    await heading('Send test alert: Payments').waitFor();
    const payload = page.getByLabel('Alert test payload', { exact: true });
    expect(await payload.inputValue()).toBe(JSON.stringify(SAMPLE, null, 2));

    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('under the saved mapping', { exact: false }).waitFor();
    await preview.locator('dd', { hasText: SAMPLE.summary }).waitFor();
    expect(await previewed()).toMatchObject({ Title: SAMPLE.summary, Severity: 'Low' });
    const shown = (await page.locator('main').textContent()) ?? '';
    expect(shown).not.toContain(integration.authorization_key);
    expect(shown).not.toContain(integration.url);
    expect(shown).not.toMatch(/labels\.severity/);

    // Another payload is previewed under the same mapping.
    await payload.fill(JSON.stringify({ ...SAMPLE, summary: 'Payments API latency above 2s', labels: { severity: 'medium' } }, null, 2));
    await preview.locator('dd', { hasText: 'Payments API latency above 2s' }).waitFor();
    expect(await previewed()).toMatchObject({ Title: 'Payments API latency above 2s', Severity: 'Medium' });
    await payload.fill(JSON.stringify(SAMPLE, null, 2));
    await preview.locator('dd', { hasText: SAMPLE.summary }).waitFor();
  });

  step('sends it: the alert has the mapped title and severity, and the message that says so has the focus', async () => {
    await page.getByRole('button', { name: 'Send' }).click();
    const message = page.locator('.current-message');
    await message.getByText('Created alert', { exact: false }).waitFor();
    expect(await page.locator('.created-alerts li').allTextContents()).toEqual([`Created alert #1 ${SAMPLE.summary}.`]);
    expect(await focused()).toMatch(/^message: Test alert sent\..*Created alert #1/);

    const stored = await api<{ title: string; severity: string; status: string }>('GET', `/projects/${projectId}/alerts/1`, undefined, developer.token);
    expect(stored).toMatchObject({ title: SAMPLE.summary, severity: 'low', status: 'triggered' });
    await browser.screenshot('send-test-alert-developer');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('region', { name: 'Preview' }).locator('dd', { hasText: SAMPLE.summary }).waitFor();
    expect(await noOverflow()).toBe(0);
    await browser.screenshot('send-test-alert-developer-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step("moves the focus to the message after Send on the integration settings' Send test alert tab too", async () => {
    await signIn(ADMIN_TOKEN, { signOutFirst: true });
    await page.goto(`/projects/${projectId}/settings/alerts/${integration.id}/test`);
    const payload = page.getByLabel('Alert test payload', { exact: true });
    expect(JSON.parse(await payload.inputValue())).toEqual(SAMPLE);
    await page.getByRole('region', { name: 'Preview' }).locator('dd', { hasText: SAMPLE.summary }).waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.current-message').getByText('Grouped into alert', { exact: false }).waitFor();
    expect(await focused()).toMatch(/^message: Test alert sent\..*Grouped into alert #1/);

    // The next answer replaces it: one current message, not a pile.
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.current-message').getByText('3 events now', { exact: false }).waitFor();
    expect(await page.locator('.current-message').count()).toBe(1);
    expect(await page.locator('.created-alerts li').allTextContents()).toEqual([`Grouped into alert #1 ${SAMPLE.summary}: 3 events now.`]);
  });

  step('keeps the Monitor, Settings and Manage headings on the 390 px project menu', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/projects/${projectId}/alerts`);
    await heading('Alerts').waitFor();
    const menu = page.getByRole('navigation', { name: 'Project' });
    const groups = menu.locator('.side-nav-group');
    expect(await groups.allTextContents()).toEqual(['Monitor', 'Settings', 'Manage']);
    for (const group of await groups.all()) expect(await group.isVisible()).toBe(true);
    // Each heading sits on the line of its own links, before them.
    const [monitor, alerts] = [await groups.nth(0).boundingBox(), await menu.getByRole('link', { name: 'Alerts', exact: true }).boundingBox()];
    expect(Math.abs((monitor?.y ?? 0) + (monitor?.height ?? 0) / 2 - ((alerts?.y ?? 0) + (alerts?.height ?? 0) / 2))).toBeLessThan(8);
    expect(monitor!.x).toBeLessThan(alerts!.x);
    expect(await noOverflow()).toBe(0);
    await browser.screenshot('project-menu-narrow', { viewportOnly: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
