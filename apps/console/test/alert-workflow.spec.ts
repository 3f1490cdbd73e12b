import { Page } from 'playwright-core';
import { addMember, ConsoleBrowser, ConsoleStack, stepsInOrder } from './support/console-harness';

/**
 * The alert workflow in Chromium against the real stack: a pager storm acknowledged at once from the
 * list (each alert assigned to the developer who acknowledged it), "Assigned to me", assignees set on
 * the alert page among the project's developers, and the activity timeline with a Markdown note whose
 * raw HTML is shown as text, never rendered.
 */
describe('web console: assignees, bulk acknowledge, activity and notes, in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let integration: { id: number; authorization_key: string; url: string };
  let developer: { id: number; token: string };

  /** The management API as the administrator. */
  const api = <T>(method: string, path: string, body?: unknown): Promise<T> => stack.management<T>(method, path, body);
  /** A payload sent to the integration's URL as a monitoring tool would. */
  const send = async (payload: unknown) => {
    const answer = await fetch(integration.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${integration.authorization_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    if (answer.status !== 200) throw new Error(`receive: ${answer.status} ${await answer.text()}`);
  };

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    projectId = (await api<{ id: number }>('POST', '/projects', { path: 'acme/checkout', tier: 'premium' })).id;
    developer = await addMember(stack, projectId, 'devi', 'developer');
    await addMember(stack, projectId, 'omar', 'developer');
    integration = await api('POST', `/projects/${projectId}/alert_integrations`, { name: 'Checkout', active: true });
    for (const title of ['Checkout 5xx above 2%', 'Checkout latency above 1s', 'Payment provider timeouts']) await send({ title, fingerprint: title });
    // Grouped repeats: one timeline entry, not one each.
    await send({ title: 'Payment provider timeouts', fingerprint: 'Payment provider timeouts' });
    await send({ title: 'Payment provider timeouts', fingerprint: 'Payment provider timeouts' });
  }, 180_000);

  const step = stepsInOrder(() => browser, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const heading = (name: string | RegExp) => page.getByRole('heading', { name, level: 1 });
  const row = (iid: number) => page.locator('tr', { has: page.getByRole('link', { name: new RegExp(`^#${iid} `) }) });

  step('acknowledges two alerts of a storm at once, each then assigned to the developer', async () => {
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    const field = page.getByLabel('Access token', { exact: true });
    await field.fill(developer.token);
    await field.press('Enter');
    await heading('Projects').waitFor();
    await page.goto(`/projects/${projectId}/alerts`);
    await heading('Alerts').waitFor();
    await row(3).waitFor();
    expect(await row(1).locator('td.assignee').textContent()).toBe('Unassigned');

    await page.getByRole('checkbox', { name: 'Select alert #1' }).check();
    await page.getByRole('checkbox', { name: 'Select alert #2' }).check();
    await page.getByRole('button', { name: 'Acknowledge selected (2)' }).click();
    await page.getByText('Acknowledged 2 alerts.').waitFor();
    await row(1).getByText('@devi').waitFor();
    await row(2).getByText('@devi').waitFor();
    expect(await row(3).locator('td.assignee').textContent()).toBe('Unassigned');
    expect(await page.getByLabel('Status of alert #1').inputValue()).toBe('acknowledged');
  });

  step('"Assigned to me" lists only the developer\'s alerts', async () => {
    // The filter is in the address (a link can share it): the select shows what the address says.
    const assignee = page.getByRole('combobox', { name: 'Assignee' });
    await assignee.selectOption({ label: 'Assigned to me' });
    await page.waitForURL(/assignee=me/);
    await row(3).waitFor({ state: 'detached' });
    expect(await assignee.inputValue()).toBe('me');
    expect(await page.locator('.alerts-table tbody tr').count()).toBe(2);
    await browser.screenshot('alerts-assigned-to-me');
    await assignee.selectOption({ label: 'Anyone' });
    await row(3).waitFor();
  });

  step('assigns an alert on its page among the project\'s developers, and its activity says who did what', async () => {
    await page.getByRole('link', { name: /^#3 / }).click();
    await heading(/#3 Payment provider timeouts/).waitFor();
    await page.getByRole('button', { name: 'Edit assignees' }).click();
    const choice = page.getByRole('group', { name: 'Assign alert #3 to' });
    await choice.getByRole('checkbox', { name: /@omar/ }).check();
    await choice.getByRole('button', { name: 'Save assignees' }).click();
    await page.getByText('Alert #3 is assigned to @omar.').waitFor();

    const timeline = page.getByRole('list', { name: 'Activity of alert #3' });
    await timeline.getByText('@devi assigned @omar.').waitFor();
    const texts = await timeline.locator('.timeline-text').allTextContents();
    expect(texts[0]).toMatch(/^Created by a payload of integration “.+”\.$/);
    expect(texts[1]).toMatch(/^2 more events grouped into this alert/);
    expect(texts).toHaveLength(3);
  });

  step('adds a Markdown note, refusing an empty one at its field; raw HTML in it is shown as text', async () => {
    const note = page.getByRole('textbox', { name: 'Note' });
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Write the note first: it cannot be empty.').waitFor();
    expect(await note.evaluate((element) => element === document.activeElement)).toBe(true);

    await note.fill('Provider **rolled back** to v2\n\n<img src=x onerror="window.hacked=1"> <b>bold?</b>');
    await page.getByRole('button', { name: 'Add note' }).click();
    const entry = page.locator('.timeline-note');
    await entry.locator('strong', { hasText: 'rolled back' }).waitFor();
    expect(await note.inputValue()).toBe('');
    expect(await entry.locator('img, b').count()).toBe(0);
    expect(await entry.textContent()).toContain('<b>bold?</b>');
    expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
    await browser.screenshot('alert-activity');
  });
});
