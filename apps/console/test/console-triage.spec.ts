import { Page } from 'playwright-core';
import { addHttpIntegration, addMember, ConsoleBrowser, ConsoleStack, stackApi, stepsInOrder } from './support/console-harness';

/** An unbroken title of 400 characters (the platform keeps the first 200) and a real Prometheus series. */
const LONG_TITLE = 'x'.repeat(400);
const PROMETHEUS_TITLE = 'kube_pod_container_status_restarts_total{namespace="payments",pod="checkout-7d9f8b6c5-x2x9q",container="api"}';
const LONG_HOST = `db-${'primary-replica-'.repeat(12)}eu-west-1.internal`;

interface StoredAlert {
  iid: number;
  status: string;
  assignees: Array<{ id: number; username: string }>;
}

/**
 * Triage at 3 a.m. in Chromium against the real stack: nothing on the Alerts list, an alert's page
 * or the Incidents list is wider than the screen at 1280 and 390 px (an unbroken title, a Prometheus
 * series, a long host, seventeen assignees shown as three and "+14"); sorting by severity (done by the
 * API) puts critical first; a keyboard-only on-call engineer acknowledges, undoes, resolves and
 * assigns with the buttons and with the shortcuts, which stay quiet while typing; linking an alert to
 * an incident brings "View incident", which takes the focus, and `i` opens it.
 */
describe('web console: triaging alerts, in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let developer: { id: number; token: string };
  const iids: Record<string, number> = {};

  const api = <T>(method: string, path: string, body?: unknown): Promise<T> => stackApi<T>(stack, method, path, body);
  const stored = (iid: number) => api<StoredAlert>('GET', `/projects/${projectId}/alerts/${iid}`);

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    projectId = (await api<{ id: number }>('POST', '/projects', { path: 'acme/payments', tier: 'premium' })).id;
    developer = await addMember(stack, projectId, 'devi', 'developer');
    const team = [developer.id];
    for (let index = 1; index <= 16; index += 1) {
      const member = await addMember(stack, projectId, `oncall-engineer-with-a-long-name-${index}`, 'developer');
      team.push(member.id);
    }
    const integration = await addHttpIntegration(stack, projectId);
    const send = async (name: string, payload: Record<string, unknown>) => {
      iids[name] = await integration.send({ fingerprint: name, ...payload });
    };
    await send('long', { title: LONG_TITLE, description: LONG_TITLE, severity: 'low', hosts: [LONG_HOST] });
    await send('prometheus', { title: PROMETHEUS_TITLE, severity: 'critical', service: 'checkout', hosts: ['checkout-7d9f8b6c5-x2x9q'] });
    await send('latency', { title: 'Checkout latency above 1s', severity: 'medium' });
    await send('payments', { title: 'Payment provider timeouts', severity: 'high' });
    await send('queue', { title: 'Queue backlog growing', severity: 'info' });
    await api('PUT', `/projects/${projectId}/alerts/${iids.payments}/assignees`, { assignee_ids: team });
    await api('POST', `/projects/${projectId}/incidents`, { title: 'y'.repeat(255), severity: 'high' });
    await api('POST', `/projects/${projectId}/incidents`, { title: 'Checkout down', severity: 'critical' });
  }, 240_000);

  const step = stepsInOrder(() => browser, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const heading = (name: string | RegExp) => browser.heading(name);
  const row = (iid: number) => page.locator(`.alerts-table tr[data-iid="${iid}"]`);
  /** The page scrolls sideways when anything is wider than the window. */
  const noSidewaysScroll = async (where: string) => {
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect([where, widths.scroll <= widths.client, widths]).toEqual([where, true, widths]);
  };
  /** Tab (and only Tab) until the focused element's text is `text`, as a keyboard user does. */
  const tabTo = async (text: string | RegExp) => {
    for (let presses = 0; presses < 120; presses += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      if (typeof text === 'string' ? focused === text : text.test(focused)) return;
    }
    throw new Error(`Tab never reached ${String(text)}`);
  };
  const openAlerts = async (query = '') => {
    await page.goto(`/projects/${projectId}/alerts${query}`);
    await heading('Alerts').waitFor();
    await row(iids.queue).waitFor();
  };

  step('nothing is wider than the screen from 390 to 1920 px: the list, an alert page, the incidents', async () => {
    await browser.signIn(developer.token);
    for (const width of [1280, 1920, 1120, 1024, 768, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await openAlerts('?status=all');
      await noSidewaysScroll(`alerts at ${width} px`);
      // Each long text wraps or is cut, whole in its title.
      const title = row(iids.prometheus).getByRole('link', { name: `#${iids.prometheus} ${PROMETHEUS_TITLE}` });
      expect(await title.getAttribute('title')).toBe(`#${iids.prometheus} ${PROMETHEUS_TITLE}`);
      expect(await row(iids.long).locator('.alert-hosts').getAttribute('title')).toBe(LONG_HOST);
      // Seventeen assignees: three, then "+14", every name in its tooltip.
      const assignees = row(iids.payments).locator('td.assignee');
      expect(await assignees.locator('.assignee-name').count()).toBe(3);
      expect(await assignees.locator('.assignee-more').textContent()).toBe('+14');
      expect((await assignees.locator('.assignee-more').getAttribute('title'))?.split(', ')).toHaveLength(17);
      // The start time is one short word that never wraps, exact on hover.
      const time = row(iids.queue).locator('td.started time');
      expect(await time.textContent()).toMatch(/^(now|\d+m)$/);
      expect(await time.getAttribute('title')).toMatch(/\d{4}/);
      if (width === 1280) {
        // The bulk bar stays on screen while the list scrolls.
        expect(await page.getByRole('region', { name: 'Selected alerts' }).evaluate((element) => getComputedStyle(element).position)).toBe('sticky');
        // Every cell is a table cell (no flex box of its own), so each row keeps one line.
        const notCells = await page.locator('.alerts-table td').evaluateAll((cells) => cells.filter((cell) => getComputedStyle(cell).display !== 'table-cell').map((cell) => cell.className));
        expect(notCells).toEqual([]);
      }
      if (width === 390) {
        // A thumb finds each row's box: 24 px square at least, named for its alert.
        const box = await page.getByRole('checkbox', { name: `Select alert #${iids.long}` }).boundingBox();
        expect(box && box.width >= 24 && box.height >= 24).toBe(true);
      }
      for (const name of ['long', 'prometheus']) {
        await page.goto(`/projects/${projectId}/alerts/${iids[name]}`);
        await heading(new RegExp(`^#${iids[name]} `)).waitFor();
        await noSidewaysScroll(`alert #${iids[name]} at ${width} px`);
        expect(await heading(new RegExp(`^#${iids[name]} `)).evaluate((element) => getComputedStyle(element).overflowWrap)).toBe('anywhere');
      }
      await page.goto(`/projects/${projectId}/incidents`);
      await page.getByRole('link', { name: /^#1 y+$/ }).waitFor();
      await noSidewaysScroll(`incidents at ${width} px`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('sorting by severity (done by the API) puts critical first, and the severity filter keeps only those chosen', async () => {
    await openAlerts();
    await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Most severe first' });
    await page.waitForURL(/sort=severity&order=desc/);
    await page.locator('.alerts-table tbody tr').first().and(row(iids.prometheus)).waitFor();
    const order = await page.locator('.alerts-table tbody tr').evaluateAll((rows) => rows.map((element) => Number(element.getAttribute('data-iid'))));
    expect(order).toEqual([iids.prometheus, iids.payments, iids.latency, iids.long, iids.queue]);
    expect(await page.getByRole('columnheader', { name: 'Severity' }).getAttribute('aria-sort')).toBe('ascending');
    // Still sorted after a reload: the order is in the address.
    await page.reload();
    await page.locator('.alerts-table tbody tr').first().and(row(iids.prometheus)).waitFor();

    // The boxes show what the address says, once the page has rendered it.
    const severityBox = (name: string, checked: boolean) => page.getByRole('checkbox', { name, checked });
    await severityBox('Critical', false).click();
    await severityBox('Critical', true).waitFor();
    await severityBox('High', false).click();
    await severityBox('High', true).waitFor();
    await page.waitForURL(/severity=critical%2Chigh|severity=critical,high/);
    // Critical and high: the list of critical only, then both.
    await row(iids.queue).waitFor({ state: 'detached' });
    await row(iids.payments).waitFor();
    expect(await page.locator('.alerts-table tbody tr').count()).toBe(2);
    await severityBox('Critical', true).click();
    await severityBox('Critical', false).waitFor();
    await severityBox('High', true).click();
    await row(iids.queue).waitFor();
  });

  step('from the keyboard alone on an alert page: Acknowledge, Undo, Resolve and Assign to me with the buttons', async () => {
    const iid = iids.latency;
    await page.goto(`/projects/${projectId}/alerts/${iid}`);
    await heading(`#${iid} Checkout latency above 1s`).waitFor();
    await tabTo('Acknowledge');
    await page.keyboard.press('Enter');
    await page.getByText(`Alert #${iid} acknowledged.`).waitFor();
    expect(await stored(iid)).toMatchObject({ status: 'acknowledged', assignees: [{ username: 'devi' }] });
    // The button went with the change: the message has the focus, and Undo is next.
    await tabTo('Undo');
    await page.keyboard.press('Enter');
    await page.getByText(`Undone: Alert #${iid} is Triggered again.`).waitFor();
    expect(await stored(iid)).toMatchObject({ status: 'triggered', assignees: [] });

    await tabTo('Resolve');
    await page.keyboard.press('Enter');
    await page.getByText(`Alert #${iid} resolved.`).waitFor();
    expect((await stored(iid)).status).toBe('resolved');
    await tabTo('Assign to me');
    await page.keyboard.press('Enter');
    await page.getByText(`Alert #${iid} assigned to you.`).waitFor();
    expect((await stored(iid)).assignees.map((assignee) => assignee.username)).toEqual(['devi']);
  });

  step('the alert page\'s shortcuts: m, a and r; ? lists them; typing "a" in the note does not acknowledge', async () => {
    const iid = iids.prometheus;
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.url());
    });
    await page.goto(`/projects/${projectId}/alerts/${iid}`);
    await heading(new RegExp(`^#${iid} `)).waitFor();
    // Typing in a field is typing, never a shortcut.
    const note = page.getByRole('textbox', { name: 'Note' });
    await note.click();
    await page.keyboard.type('a r m');
    await note.evaluate((element) => (element as HTMLElement).blur());
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Acknowledge the alert').waitFor();
    expect(puts).toEqual([]);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await note.inputValue()).toBe('a r m');
    expect((await stored(iid)).status).toBe('triggered');

    await page.keyboard.press('m');
    await page.getByText(`Alert #${iid} assigned to you.`).waitFor();
    await page.keyboard.press('a');
    await page.getByText(`Alert #${iid} acknowledged.`).waitFor();
    expect(await stored(iid)).toMatchObject({ status: 'acknowledged', assignees: [{ username: 'devi' }] });
    await page.keyboard.press('r');
    await page.getByText(`Alert #${iid} resolved.`).waitFor();
    expect((await stored(iid)).status).toBe('resolved');
    await page.getByRole('group', { name: 'Status change' }).getByRole('combobox').and(page.locator('select.status-resolved')).waitFor();
  });

  step('the list from the keyboard: j marks, x selects, a acknowledges; the row buttons; typing "a" in the search does nothing', async () => {
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.url());
    });
    await openAlerts();
    // Open tab, newest first: queue, payments, long.
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-iid'))).toBe(String(iids.queue));
    const search = page.getByLabel('Search alerts', { exact: true });
    await search.focus();
    await page.keyboard.type('a');
    await search.evaluate((element) => (element as HTMLElement).blur());
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Next alert').waitFor();
    expect(puts).toEqual([]);
    await page.keyboard.press('Escape');
    expect((await stored(iids.queue)).status).toBe('triggered');
    await search.fill('');
    await search.evaluate((element) => (element as HTMLElement).blur());
    await row(iids.long).waitFor();

    // The marked row is still the first: j goes on to the next.
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-iid'))).toBe(String(iids.payments));
    await page.keyboard.press('x');
    expect(await page.getByRole('checkbox', { name: `Select alert #${iids.payments}` }).isChecked()).toBe(true);
    await page.keyboard.press('k');
    await page.keyboard.press('x');
    await page.getByText('2 selected').waitFor();
    await page.keyboard.press('a');
    await page.getByText(`2 alerts (#${iids.queue}, #${iids.payments}) acknowledged.`).waitFor();
    expect((await stored(iids.queue)).status).toBe('acknowledged');
    expect((await stored(iids.payments)).status).toBe('acknowledged');
    // Each row's status select shows the status as stored.
    await page.getByLabel(`Status of alert #${iids.queue}`).and(page.locator('select.status-acknowledged')).waitFor();

    // A row's own buttons, reached with Tab: Resolve, and Undo puts it back as it was.
    await tabTo(`Resolve alert #${iids.long}`);
    await page.keyboard.press('Enter');
    await page.getByText(`Alert #${iids.long} resolved.`).waitFor();
    expect((await stored(iids.long)).status).toBe('resolved');
    await row(iids.long).waitFor({ state: 'detached' });
    await tabTo('Undo');
    await page.keyboard.press('Enter');
    await page.getByText(`Undone: Alert #${iids.long} is Triggered again.`).waitFor();
    await row(iids.long).waitFor();
    expect((await stored(iids.long)).status).toBe('triggered');
  });

  step('screenshots of the list and an alert page at 1280 and 390 px', async () => {
    await openAlerts('?sort=severity&order=desc');
    await page.getByRole('checkbox', { name: `Select alert #${iids.long}` }).check();
    await page.getByText('1 selected').waitFor();
    await browser.screenshot('alerts-triage', { viewportOnly: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll('alerts with a row selected at 390 px');
    // The cards, with the bulk bar kept at the bottom of the screen.
    await row(iids.payments).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -80));
    await browser.screenshot('alerts-triage-390', { viewportOnly: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/projects/${projectId}/alerts/${iids.long}`);
    await heading(new RegExp(`^#${iids.long} `)).waitFor();
    await browser.screenshot('alert-triage', { viewportOnly: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('alert-triage-390', { viewportOnly: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('linking the alert to an incident brings "View incident", which takes the focus; i opens it', async () => {
    const iid = iids.long;
    const select = page.getByLabel('Open incident', { exact: true });
    await select.selectOption({ label: '#2 Checkout down' });
    await select.press('Enter');
    const view = page.getByRole('link', { name: 'View incident #2' });
    await view.waitFor();
    await page.getByText(`Alert #${iid} linked to incident #2.`).waitFor();
    expect(await view.evaluate((element) => element === document.activeElement)).toBe(true);
    await view.evaluate((element) => (element as HTMLElement).blur());
    await page.keyboard.press('i');
    await page.waitForURL(`**/projects/${projectId}/incidents/2`);
  });
});
