import { Page } from 'playwright-core';
import { addHttpIntegration, addMember, ConsoleBrowser, ConsoleStack, stackApi, stepsInOrder } from './support/console-harness';

/**
 * The incident page as a war room, the session across tabs and the console's smaller defects, in
 * Chromium against the real stack: a developer follows an incident's alerts (the firing one first,
 * the resolved one after), edits its title, severity, description and owner in place (each on the
 * timeline), closes it after a dialog that names the alerts it resolves; long incident titles stay
 * within the page at 1280 and 390 px; a second tab of the same browser opens an alert's address
 * signed in, and signing out in one tab sends the other to sign-in; and on the way: the focus on the
 * new page's heading, Create incident's Title focused, an address that names no incident, Markdown
 * headings under the page's, a success message that steps aside for a later error and a tab change,
 * the integration named in the timeline, and the alert settings' switches described, unmoved by
 * their message, and read-only for developers.
 */
describe('web console: the incident war room, the session across tabs, smaller defects, in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let maintainer: { id: number; token: string };
  let developer: { id: number; token: string };
  let firingIid: number;
  let resolvedIid: number;
  const FIRING = 'Checkout 5xx above 2%';
  const RESOLVED = 'Checkout latency above 2s';
  // One unbroken word as long as an incident's title may be (255 characters; a 400-character one is
  // refused): nothing but the console's own wrapping can break it.
  const longTitle = `Payment${'x'.repeat(248)}`;

  const api = <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => stackApi<T>(stack, method, path, body, token);

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    projectId = (await api<{ id: number }>('POST', '/projects', { path: 'acme/payments', tier: 'premium' })).id;
    maintainer = await addMember(stack, projectId, 'mara', 'maintainer');
    developer = await addMember(stack, projectId, 'dev', 'developer');
    await addMember(stack, projectId, 'sam', 'developer');
    const integration = await addHttpIntegration(stack, projectId, 'Prometheus prod');
    const sendAlert = (title: string) => integration.send({ title, severity: 'high', service: 'checkout', hosts: ['web-1'] });
    resolvedIid = await sendAlert(RESOLVED);
    firingIid = await sendAlert(FIRING);
    // An incident opened from the firing alert, the other linked and then resolved by hand.
    await api('POST', `/projects/${projectId}/alerts/${firingIid}/incident`, undefined, developer.token);
    await api('POST', `/projects/${projectId}/incidents/1/alerts`, { alert_iid: resolvedIid }, developer.token);
    await api('PUT', `/projects/${projectId}/alerts/${resolvedIid}`, { status: 'resolved' }, developer.token);
    expect((await stack.answerAs(developer.token, 'POST', `/projects/${projectId}/incidents`, { title: `Payment${'x'.repeat(393)}` })).status).toBe(400);
    await api('POST', `/projects/${projectId}/incidents`, { title: longTitle, severity: 'low' }, developer.token);
  }, 180_000);

  const step = stepsInOrder(() => browser, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const heading = (name: string | RegExp) => browser.heading(name);
  const incidentPath = () => `/projects/${projectId}/incidents/1`;
  const activity = () => page.getByRole('list', { name: 'Activity of incident #1' });
  /** The focused element's tag and text, to say where the focus is. */
  const focused = () => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? null, text: document.activeElement?.textContent?.trim() ?? null }));
  /** How far the page scrolls sideways (0: not at all). */
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  step("a developer opens an incident from the list: the focus is on its heading; the firing alert first, as firing, the resolved one after", async () => {
    await browser.signIn(developer.token);
    await page.goto(`/projects/${projectId}/incidents`);
    await heading('Incidents').waitFor();
    await page.getByRole('link', { name: `#1 ${FIRING}` }).click();
    await heading(`#1 ${FIRING}`).waitFor();
    // After the navigation the focus is on the new page's heading, not left on the body.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await focused()).toEqual({ tag: 'H1', text: `#1 ${FIRING}` });
    const table = page.locator('.incident-alerts-table');
    await table.getByRole('link', { name: `#${resolvedIid} ${RESOLVED}` }).waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({ alert: tr.querySelector('td.alert-title')?.textContent?.trim(), state: tr.querySelector('td.state')?.textContent?.trim() })),
    );
    expect(rows).toEqual([
      { alert: `#${firingIid} ${FIRING}`, state: 'Triggered · firing' },
      { alert: `#${resolvedIid} ${RESOLVED}`, state: 'Resolved' },
    ]);
    await page.getByRole('heading', { name: 'Alerts (1 open of 2)', level: 2 }).waitFor();
  });

  step('edits the title, severity, description and owner in place: each shows on the page and in the timeline', async () => {
    await page.getByRole('button', { name: 'Edit title' }).click();
    const title = page.getByRole('form', { name: 'Edit the title' }).getByLabel('Title', { exact: true });
    expect(await title.evaluate((element) => element === document.activeElement)).toBe(true);
    await title.fill('Checkout outage');
    await page.getByRole('button', { name: 'Save title' }).click();
    await heading('#1 Checkout outage').waitFor();
    await activity().getByText(`@dev changed the title from “${FIRING}” to “Checkout outage”.`).waitFor();

    const severity = page.getByRole('group', { name: 'Severity of incident #1' });
    await severity.getByLabel('Severity').selectOption({ label: 'Critical' });
    await severity.getByRole('button', { name: 'Change severity' }).click();
    await page.getByText('Severity changed to Critical.').waitFor();
    await activity().getByText('@dev changed the severity from “high” to “critical”.').waitFor();

    await page.getByRole('button', { name: 'Edit description' }).click();
    const description = page.getByLabel('Description (Markdown)');
    await description.fill(
      ['# Impact', 'Card payments fail for a third of checkouts.', '', '> Rolled back at 14:05', '', '| step | owner |', '|---|---|', '| rollback | @dev |', '', '```', 'kubectl rollout undo deploy/checkout', '```'].join('\n'),
    );
    await page.getByRole('button', { name: 'Save description' }).click();
    await page.getByText('Description saved.').waitFor();
    // The description's own heading sits under the page's h1 and the card's h2: an h3, never a second h1.
    await page.getByRole('heading', { name: 'Impact', level: 3 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await page.locator('.markdown blockquote', { hasText: 'Rolled back at 14:05' }).waitFor();
    await page.locator('.markdown table td', { hasText: 'rollback' }).waitFor();
    expect(await page.locator('.markdown pre').evaluate((element) => getComputedStyle(element).borderStyle)).toBe('solid');
    await activity().getByText('@dev changed the description.').waitFor();

    const owner = page.getByRole('group', { name: 'Owner of incident #1' });
    await owner.getByLabel('Owner').selectOption({ label: '@sam' });
    await owner.getByRole('button', { name: 'Change owner' }).click();
    await page.getByText('@sam owns the incident.').waitFor();
    await activity().getByText('@dev changed the owner from nobody to @sam.').waitFor();
    await owner.getByLabel('Owner').selectOption({ label: 'Nobody' });
    await owner.getByRole('button', { name: 'Change owner' }).click();
    await page.getByText('The incident has no owner now.').waitFor();
    await activity().getByText('@dev changed the owner from @sam to nobody.').waitFor();
    const stored = await api<{ title: string; severity: string; owner: unknown; description: string }>('GET', `/projects/${projectId}/incidents/1`, undefined, developer.token);
    expect(stored).toMatchObject({ title: 'Checkout outage', severity: 'critical', owner: null });
    expect(stored.description).toContain('# Impact');
  });

  step("a note's heading is at most an h3 in the timeline", async () => {
    await page.getByRole('textbox', { name: 'Note' }).fill('# Status\n\nCustomers notified.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await activity().getByRole('heading', { name: 'Status', level: 3 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
  });

  step('shows the page at 1280 and 390 px without sideways scrolling', async () => {
    await browser.screenshot('incident-war-room');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.incident-alerts-table').getByRole('link', { name: `#${firingIid} ${FIRING}` }).waitFor();
    expect(await sideways()).toBe(0);
    await browser.screenshot('incident-war-room-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('a success message steps aside for a later error on the same screen', async () => {
    const severity = page.getByRole('group', { name: 'Severity of incident #1' });
    await severity.getByLabel('Severity').selectOption({ label: 'High' });
    await severity.getByRole('button', { name: 'Change severity' }).click();
    await page.getByText('Severity changed to High.').waitFor();
    browser.expectConsoleErrors(/status of 400/);
    const link = page.getByRole('form', { name: 'Link an alert' });
    await link.getByLabel('Alert #').fill('999');
    await link.getByRole('button', { name: 'Link alert' }).click();
    await link.locator('.field-error').waitFor();
    await page.getByText('Severity changed to High.').waitFor({ state: 'detached' });
  });

  step('the close dialog names the open alerts it resolves; closing resolves them', async () => {
    await page.getByRole('button', { name: 'Close incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close this incident?' });
    await dialog.getByText('Closing it resolves its open alert:').waitFor();
    expect(await dialog.getByRole('list', { name: 'Alerts closing resolves' }).getByRole('listitem').allTextContents()).toEqual([`#${firingIid} ${FIRING} (Triggered · firing)`]);
    await dialog.getByRole('button', { name: 'Close incident' }).click();
    await page.getByText('Incident #1 closed; its alerts are resolved.').waitFor();
    const alert = await api<{ status: string }>('GET', `/projects/${projectId}/alerts/${firingIid}`, undefined, developer.token);
    expect(alert.status).toBe('resolved');
    await activity().getByText(`@dev closed the incident, resolving alert #${firingIid}.`).waitFor();
    await page.getByRole('heading', { name: 'Alerts (0 open of 2)', level: 2 }).waitFor();
    expect(await page.locator('.incident-alerts-table td.state').allTextContents()).toEqual(['Resolved', 'Resolved']);
  });

  step('the alert page and its timeline name the integration a developer cannot open', async () => {
    await page.goto(`/projects/${projectId}/alerts/${firingIid}`);
    await heading(`#${firingIid} ${FIRING}`).waitFor();
    await page.getByRole('list', { name: `Activity of alert #${firingIid}` }).getByText('Created by a payload of integration “Prometheus prod”.').waitFor();
    await page.locator('dt', { hasText: /^Integration$/ }).locator('xpath=following-sibling::dd[1]').getByText('Prometheus prod', { exact: true }).waitFor();
  });

  step('a long unbroken title wraps in the incident list at 1280 and 390 px, whole on hover', async () => {
    await page.goto(`/projects/${projectId}/incidents?status=all`);
    const link = page.getByRole('link', { name: `#2 ${longTitle}` });
    await link.waitFor();
    expect(await link.getAttribute('title')).toBe(`#2 ${longTitle}`);
    expect(await sideways()).toBe(0);
    const box = () => page.evaluate(() => {
      const scroller = document.querySelector('.incidents-table')?.parentElement;
      return scroller ? scroller.scrollWidth - scroller.clientWidth : -1;
    });
    expect(await box()).toBe(0);
    await browser.screenshot('incidents-long-title');
    await page.setViewportSize({ width: 390, height: 844 });
    await link.waitFor();
    expect(await sideways()).toBe(0);
    expect(await box()).toBe(0);
    await browser.screenshot('incidents-long-title-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('Create incident focuses its Title', async () => {
    await page.getByRole('button', { name: 'Create incident' }).click();
    const form = page.getByRole('form', { name: 'New incident' });
    expect(await form.getByLabel('Title', { exact: true }).evaluate((element) => element === document.activeElement)).toBe(true);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  step('an address that names no incident says so, without "#NaN"', async () => {
    await page.goto(`/projects/${projectId}/incidents/abc`);
    await heading('Incident not found').waitFor();
    await page.getByText('This project has no incident “abc”.').waitFor();
    expect(await page.getByText('NaN').count()).toBe(0);
  });

  step('a second tab of the browser opens an alert address signed in; signing out in one sends the other to sign-in', async () => {
    const other = await browser.context.newPage();
    await other.goto(`/projects/${projectId}/alerts/${resolvedIid}`);
    await other.getByRole('heading', { name: `#${resolvedIid} ${RESOLVED}`, level: 1 }).waitFor();
    expect(new URL(other.url()).pathname).toBe(`/projects/${projectId}/alerts/${resolvedIid}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await other.waitForURL('**/sign-in');
    await other.getByText('You were signed out in another tab.').waitFor();
    // Signing in again there returns to the page it was on.
    const field = other.getByLabel('Access token', { exact: true });
    await field.fill(developer.token);
    await field.press('Enter');
    await other.getByRole('heading', { name: `#${resolvedIid} ${RESOLVED}`, level: 1 }).waitFor();
    await other.close();
  });

  step('a deep link in a browser without the session lands on its page after sign-in', async () => {
    const chromium = browser.context.browser();
    if (!chromium) throw new Error('the context has no browser');
    const fresh = await chromium.newContext({ baseURL: stack.integrationConfig.url });
    try {
      const tab = await fresh.newPage();
      await tab.goto(incidentPath());
      await tab.waitForURL('**/sign-in');
      const field = tab.getByLabel('Access token', { exact: true });
      await field.fill(developer.token);
      await field.press('Enter');
      await tab.getByRole('heading', { name: '#1 Checkout outage', level: 1 }).waitFor();
      expect(new URL(tab.url()).pathname).toBe(incidentPath());
    } finally {
      await fresh.close();
    }
  });

  step('the alert settings: each switch described by its hint; the first change says so under the switches, which stay put; a tab change drops it', async () => {
    // This tab followed the other tab's sign-in: signed in again as the developer.
    await browser.signIn(maintainer.token, { signOutFirst: true });
    await page.goto(`/projects/${projectId}/settings/alerts/alert_settings`);
    const create = page.getByRole('switch', { name: 'Create an incident' });
    await create.waitFor();
    expect(await create.evaluate((element) => (element.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent))).toEqual([
      'Open an incident for each triggered alert (not for grouped events or resolutions).',
    ]);
    const autoClose = page.getByRole('switch', { name: 'Automatically close associated incident' });
    const before = await autoClose.boundingBox();
    await create.click();
    await page.getByText('Create an incident: on.').waitFor();
    expect((await autoClose.boundingBox())?.y).toBe(before?.y);
    const tabs = page.getByRole('navigation', { name: 'Alerts settings' });
    await tabs.getByRole('link', { name: 'Current integrations' }).click();
    await tabs.getByRole('link', { name: 'Alert settings' }).click();
    await create.waitFor();
    expect(await page.getByText('Create an incident: on.').count()).toBe(0);
  });

  step('a developer sees the alert settings read-only', async () => {
    await browser.signIn(developer.token, { signOutFirst: true });
    await page.goto(`/projects/${projectId}/alerts`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Alert settings' }).click();
    await page.getByText('You see these settings read-only: maintainers and owners of the project change them.').waitFor();
    const create = page.getByRole('switch', { name: 'Create an incident' });
    expect(await create.isChecked()).toBe(true);
    expect(await create.isDisabled()).toBe(true);
  });
});
