import { eventually } from '@alert-ingestion/testing';
import { Page } from 'playwright-core';
import { ADMIN_TOKEN, ConsoleBrowser, ConsoleStack } from './support/console-harness';

/**
 * The console's forms and the selects that change stored data, driven by keyboard in Chromium
 * against the real stack: arrow keys only choose (nothing is saved, as the API confirms), applying
 * saves; members are picked by username; errors are said at their field, which takes the focus.
 */
describe('console forms and choose-then-apply selects, in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let projectPath: string;

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    const project = await stack.createProject('premium', { pathPrefix: 'forms' });
    projectId = project.id;
    projectPath = (await stack.management<{ path: string }>('GET', `/projects/${projectId}`)).path;
    const developer = await stack.management<{ id: number }>('POST', '/users', { username: 'devon' });
    await stack.management('POST', `/projects/${projectId}/members`, { user_id: developer.id, access_level: 'developer' });
    await stack.management('POST', '/users', { username: 'maria' });
    await stack.management('POST', '/users', { username: 'marek' });
    const sent = await fetch(project.integration.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${project.integration.authorization_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Disk full' }),
    });
    expect(sent.status).toBe(200);
    await eventually(async () => expect(await stack.alertCount(projectId)).toBe(1), 15_000);

    await page.goto('/sign-in');
    const token = page.getByLabel('Access token', { exact: true });
    await token.fill(ADMIN_TOKEN);
    await token.press('Enter');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  afterEach(() => {
    expect(browser.takeErrors()).toEqual([]);
  });

  const role = async (username: string) =>
    (await stack.management<Array<{ username: string; access_level: string }>>('GET', `/projects/${projectId}/members`)).find((member) => member.username === username)
      ?.access_level;
  const tier = async () => (await stack.management<{ tier: string }>('GET', `/projects/${projectId}`)).tier;
  const status = async () => (await stack.alerts(projectId))[0].status;
  /** A moment for a save the arrow key might have started, before the API is asked. */
  const settle = () => page.waitForTimeout(700);

  it("changes a member's role only when applied: ArrowDown saves nothing", async () => {
    await page.goto(`/projects/${projectId}/members`);
    const select = page.getByLabel('Role of devon', { exact: true });
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await settle();
    expect(await role('devon')).toBe('developer');
    expect(await select.inputValue()).toBe('maintainer');
    await page.keyboard.press('Enter');
    await eventually(async () => expect(await role('devon')).toBe('maintainer'), 5_000);
    await page.getByText('devon is now maintainer.').waitFor();
  });

  it("changes a project's tier only when applied: ArrowUp saves nothing", async () => {
    await page.goto('/admin');
    const select = page.getByLabel(`Tier of ${projectPath}`, { exact: true });
    await select.focus();
    await page.keyboard.press('ArrowUp');
    await settle();
    expect(await tier()).toBe('premium');
    await page.getByRole('button', { name: `Change tier of ${projectPath}` }).click();
    await eventually(async () => expect(await tier()).toBe('free'), 5_000);
    await page.getByText(`${projectPath} is now on the Free tier.`).waitFor();
    await stack.management('PUT', `/projects/${projectId}`, { tier: 'premium' });
  });

  it("changes an alert's status only when applied: ArrowDown saves nothing", async () => {
    await page.goto(`/projects/${projectId}/alerts`);
    const select = page.getByLabel(/^Status of alert #\d+$/);
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await settle();
    expect(await status()).toBe('triggered');
    await page.keyboard.press('Enter');
    await eventually(async () => expect(await status()).toBe('acknowledged'), 5_000);
  });

  it('adds a member picked by username from the keyboard (combobox), and says so', async () => {
    await page.goto(`/projects/${projectId}/members`);
    const username = page.getByRole('combobox', { name: 'Username' });
    await username.fill('mar');
    await page.getByRole('option', { name: 'marek' }).waitFor();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['marek', 'maria']);
    await username.press('ArrowDown');
    await username.press('ArrowDown');
    expect(await page.getByRole('option', { name: 'maria' }).getAttribute('aria-selected')).toBe('true');
    await username.press('Enter');
    expect(await username.inputValue()).toBe('maria');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await browser.screenshot('members-username-search-picked', { viewportOnly: true });
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('maria added as developer.').waitFor();
    expect(await role('maria')).toBe('developer');

    await username.fill('ma');
    await page.getByRole('option', { name: 'marek' }).waitFor();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['marek']);
    await browser.screenshot('members-username-search');
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('members-username-search-390');
    await username.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('says a silence refusal at its field in plain words, focused, and clears it on typing', async () => {
    browser.expectConsoleErrors(/status of 400/);
    await page.goto(`/projects/${projectId}/silences/new`);
    const matcher = page.getByRole('group', { name: 'Matcher 1' });
    await matcher.getByLabel('Operator').selectOption('=~');
    const value = matcher.getByLabel('Value');
    await value.fill('Disk (full');
    await page.getByLabel('Comment').fill('Replacing disks');
    await page.getByRole('button', { name: 'Create silence' }).click();
    await eventually(async () => expect(await value.getAttribute('aria-invalid')).toBe('true'), 5_000);
    expect(await value.evaluate((element) => element === document.activeElement)).toBe(true);
    const describedBy = (await value.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('This is not a valid regular expression (RE2 syntax): a ( is not closed.');
    expect(await page.locator('.notice-error').count()).toBe(0);
    await browser.screenshot('silence-form-error');
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('silence-form-error-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await value.press('End');
    await value.press(')');
    expect(await value.getAttribute('aria-invalid')).toBe('false');

    await page.getByRole('button', { name: 'Create silence' }).click();
    await page.getByText(/^Silence created: active until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/).waitFor();
  });

  it('says an empty matcher value and an empty comment at their fields, without sending', async () => {
    await page.goto(`/projects/${projectId}/silences/new`);
    await page.getByRole('button', { name: 'Create silence' }).click();
    const value = page.getByRole('group', { name: 'Matcher 1' }).getByLabel('Value');
    await eventually(async () => expect(await value.getAttribute('aria-invalid')).toBe('true'), 5_000);
    expect(await value.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.getByLabel('Comment').getAttribute('aria-invalid')).toBe('true');
  });
});
