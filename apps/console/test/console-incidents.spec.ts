import { Page } from 'playwright-core';
import { addHttpIntegration, addMember, ConsoleBrowser, ConsoleStack, stackApi, stepsInOrder } from './support/console-harness';

/**
 * Incidents and the alert settings in Chromium against the real stack: a maintainer turns a switch
 * of Settings > Monitor > Alerts > Alert settings (email said to be not configured); a developer
 * opens an incident from an alert, writes a note, closes it (its alert resolved) and reopens it,
 * finds it under Monitor > Incidents with its tab counts and search, and links another alert to it
 * from the keyboard.
 */
describe('web console: incidents and alert settings, in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let maintainer: { id: number; token: string };
  let developer: { id: number; token: string };
  let alertIid: number;
  let sendAlert: (title: string) => Promise<number>;

  const api = <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => stackApi<T>(stack, method, path, body, token);

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    projectId = (await api<{ id: number }>('POST', '/projects', { path: 'acme/checkout', tier: 'premium' })).id;
    maintainer = await addMember(stack, projectId, 'mara', 'maintainer');
    developer = await addMember(stack, projectId, 'dev', 'developer');
    const integration = await addHttpIntegration(stack, projectId);
    sendAlert = (title) => integration.send({ title, severity: 'high', service: 'checkout', hosts: ['web-1'] });
    alertIid = await sendAlert('Checkout error rate high');
  }, 180_000);

  const step = stepsInOrder(() => browser, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const heading = (name: string | RegExp) => browser.heading(name);
  const signIn = (token: string, options?: { signOutFirst?: boolean }) => browser.signIn(token, options);

  step('a maintainer turns on auto-close in the Alert settings tab, which says email is not configured', async () => {
    await signIn(maintainer.token);
    await page.goto(`/projects/${projectId}/settings/alerts`);
    await page.getByRole('navigation', { name: 'Alerts settings' }).getByRole('link', { name: 'Alert settings' }).click();
    const autoClose = page.getByRole('switch', { name: 'Automatically close associated incident' });
    await autoClose.waitFor();
    await page.getByText('Email is not configured on this service', { exact: false }).waitFor();
    expect(await autoClose.isChecked()).toBe(false);
    // From the keyboard: the switch keeps the focus through the save, so the next Tab goes on from it.
    await autoClose.focus();
    await page.keyboard.press('Space');
    await page.getByText('Automatically close associated incident: on.').waitFor();
    expect(await autoClose.isChecked()).toBe(true);
    expect(await autoClose.evaluate((element) => element === document.activeElement)).toBe(true);
    const settings = await api<Record<string, boolean>>('GET', `/projects/${projectId}/alert_settings`, undefined, maintainer.token);
    expect(settings).toEqual({ create_incident: false, send_email: false, auto_close_incident: true, email_configured: false });
    await browser.screenshot('alert-settings');
  });

  step('a developer opens an incident from the alert page and lands on it, linked to the alert', async () => {
    await signIn(developer.token, { signOutFirst: true });
    await page.goto(`/projects/${projectId}/alerts/${alertIid}`);
    await heading(`#${alertIid} Checkout error rate high`).waitFor();
    await page.getByRole('button', { name: 'Create incident' }).click();
    // The alert and its incident are both "#1 Checkout error rate high": the address tells them apart.
    await page.waitForURL(`**/projects/${projectId}/incidents/1`);
    await page.getByRole('navigation', { name: 'Incident' }).waitFor();
    await heading('#1 Checkout error rate high').waitFor();
    await page.getByRole('link', { name: `Alert #${alertIid}` }).first().waitFor();
    const activity = page.getByRole('list', { name: 'Activity of incident #1' });
    await activity.getByText('opened the incident', { exact: false }).waitFor();
    await page.getByText(`Opened from alert #${alertIid}.`).waitFor();
  });

  step('writes a note, rendered as Markdown', async () => {
    await page.getByRole('textbox', { name: 'Note' }).fill('Rolled back **checkout v2**');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('list', { name: 'Activity of incident #1' }).locator('strong', { hasText: 'checkout v2' }).waitFor();
  });

  step('closes it after a confirmation: its alert is resolved; then reopens it', async () => {
    await page.getByRole('button', { name: 'Close incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close this incident?' });
    await dialog.getByRole('button', { name: 'Close incident' }).click();
    await page.getByText('Incident #1 closed; its alerts are resolved.').waitFor();
    const alert = await api<{ status: string; incident_iid: number }>('GET', `/projects/${projectId}/alerts/${alertIid}`, undefined, developer.token);
    expect(alert).toMatchObject({ status: 'resolved', incident_iid: 1 });
    // The incident's timeline says it in the alert timeline's words, linking the alert it resolved.
    const activity = page.getByRole('list', { name: 'Activity of incident #1' });
    await activity.getByText(`@dev closed the incident, resolving alert #${alertIid}.`).waitFor();
    await browser.screenshot('incident');
    await page.getByRole('button', { name: 'Reopen incident' }).click();
    await page.getByText('Incident #1 reopened.').waitFor();
    await activity.getByText('@dev reopened the incident.').waitFor();
  });

  step('finds it under Monitor > Incidents with tab counts and search', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Incidents' }).click();
    await heading('Incidents').waitFor();
    const tabs = page.getByRole('navigation', { name: 'Incident status' });
    await tabs.getByRole('link', { name: 'Open 1' }).waitFor();
    await tabs.getByRole('link', { name: 'Closed 0' }).waitFor();
    await page.getByRole('link', { name: '#1 Checkout error rate high' }).waitFor();
    await page.getByLabel('Search incidents', { exact: true }).fill('nothing like this');
    await page.getByText('No incident matches “nothing like this”.').waitFor();
    await page.getByLabel('Search incidents', { exact: true }).fill('checkout');
    await page.getByRole('link', { name: '#1 Checkout error rate high' }).waitFor();
    await browser.screenshot('incidents');
  });

  step('shows the incident list as cards on a narrow screen: nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: '#1 Checkout error rate high' }).waitFor();
    const sideways = await page.evaluate(() => {
      const box = document.querySelector('.incidents-table')?.parentElement;
      return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, table: box ? box.scrollWidth - box.clientWidth : -1 };
    });
    expect(sideways).toEqual({ page: 0, table: 0 });
    expect(await page.locator('.incidents-table td.creator').first().textContent()).toBe('alert #1');
    await browser.screenshot('incidents-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('links another alert to the open incident by keyboard: arrows choose, Enter links, "View incident" takes the focus', async () => {
    const other = await sendAlert('Checkout latency above 2s');
    await page.goto(`/projects/${projectId}/alerts/${other}`);
    await heading(`#${other} Checkout latency above 2s`).waitFor();
    const group = page.getByRole('group', { name: `Incident of alert #${other}` });
    await group.getByRole('button', { name: 'Link to incident' }).focus();
    await page.keyboard.press('Enter');
    await group.getByText('Choose an open incident first.').waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(300);
    expect(await api<{ incident_iid: number | null }>('GET', `/projects/${projectId}/alerts/${other}`, undefined, developer.token)).toMatchObject({ incident_iid: null });
    await page.keyboard.press('Enter');
    const confirmation = page.getByText(`Alert #${other} linked to incident #1.`);
    await confirmation.waitFor();
    const view = page.getByRole('link', { name: 'View incident #1' });
    await view.waitFor();
    expect(await view.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByRole('link', { name: 'Incident #1', exact: true }).waitFor();
  });
});
