import { eventually } from '@alert-ingestion/testing';
import { createHmac } from 'node:crypto';
import { Page } from 'playwright-core';
import { ADMIN_TOKEN, ConsoleBrowser, ConsoleStack, stepsInOrder } from './support/console-harness';

/** A Prometheus-like alert: nested labels, a start time and an end time that is null while it fires. */
const SAMPLE_PAYLOAD = {
  summary: 'Checkout latency above 2s',
  labels: { severity: 'high', instance: 'web-3', service: 'checkout' },
  starts_at: '2024-05-01T10:00:00Z',
  ends_at: null,
  generator: 'prometheus',
};

/** An alert a monitoring tool sends later, with a second candidate for the title (annotations.headline). */
const QUEUE_ALERT = {
  summary: 'Queue backlog growing',
  annotations: { headline: 'Payments queue: 12k messages waiting' },
  labels: { severity: 'medium', instance: 'worker-2', service: 'queue' },
  starts_at: '2024-05-02T08:00:00Z',
  ends_at: null,
  generator: 'prometheus',
};

const MAPPING: Array<[string, string]> = [
  ['Title', 'summary (String): "Checkout latency above 2s"'],
  ['Start time', 'starts_at (DateTime): "2024-05-01T10:00:00Z"'],
  ['End time', 'ends_at (null in the sample)'],
  ['Service', 'labels.service (String): "checkout"'],
  ['Monitoring tool', 'generator (String): "prometheus"'],
  ['Hosts', 'labels.instance (String): "web-3"'],
  ['Severity', 'labels.severity (String): "high"'],
];

/**
 * The console in Debian's Chromium against the real stack (gateway, alert-processor and
 * integration-config as built processes, real PostgreSQL and Kafka): a new administrator gets from
 * nothing to a configured, mapped integration and a grouped alert without a terminal. The steps
 * run in order on one browser tab, as a person would click through them.
 */
describe('web console, end to end in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let integrationPath: string;
  let webhook: { url: string; key: string };

  beforeAll(async () => {
    // A heartbeat minute of 10 s (HEARTBEAT_MINUTE_MS, for tests only), checked every half second.
    stack = await ConsoleStack.start({ all: { HEARTBEAT_MINUTE_MS: '10000' }, processor: { HEARTBEAT_CHECK_INTERVAL_MS: '500' } });
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
  }, 180_000);

  const step = stepsInOrder(() => browser);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const heading = (name: string | RegExp) => page.getByRole('heading', { name, level: 1 });
  const textOf = async (selector: string) => (await page.locator(selector).textContent()) ?? '';
  const tableCells = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent?.trim())));
  const sendToGateway = (body: unknown, { key = webhook.key, text = JSON.stringify(body) } = {}) =>
    fetch(webhook.url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: text });
  /** The alert's status as stored (the alerts API, through integration-config's proxy). */
  const storedStatus = async (iid: number) =>
    ((await (await fetch(`${stack.integrationConfig.url}/api/v4/projects/${projectId}/alerts/${iid}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { status: string }).status;
  /** The focused element's name: its label, aria-label or text. */
  const focusedName = () =>
    page.evaluate(() => {
      const element = document.activeElement as (HTMLElement & { labels?: NodeListOf<HTMLLabelElement> }) | null;
      return (element?.labels?.[0]?.textContent ?? element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim();
    });
  /** Presses Tab until the element named `name` has the focus, as a keyboard user would get there. */
  const tabTo = async (name: string) => {
    for (let presses = 0; presses < 80; presses++) {
      await page.keyboard.press('Tab');
      if ((await focusedName()) === name) return;
    }
    throw new Error(`Tab never reached "${name}"`);
  };
  /** What a control whose change would be saved at once would have saved by now. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 750));
  /** The live preview's fields, as label -> text. */
  const previewed = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      await page
        .getByRole('region', { name: 'Preview' })
        .locator('dt')
        .evaluateAll((terms) => terms.map((term) => [term.textContent, term.nextElementSibling?.textContent ?? ''])),
    );

  step('sends a visitor to sign in, and signs in with the administrator token from the keyboard', async () => {
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await browser.screenshot('sign-in');
    const token = page.getByLabel('Access token', { exact: true });
    await token.fill(ADMIN_TOKEN);
    await token.press('Enter');
    await heading('Projects').waitFor();
    await page.getByText('There are no projects yet.').waitFor();
    expect(await page.locator('.username').textContent()).toContain('admin');
  });

  step('creates a user and a Premium project on the admin page; the token is shown once', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await heading('Admin').waitFor();
    await page.getByLabel('Username', { exact: true }).fill('dana');
    await page.getByRole('button', { name: 'Create user' }).click();
    const token = await page.getByLabel('Personal access token', { exact: true }).textContent();
    expect(token).toMatch(/^aipat-/);

    await page.getByLabel('Path', { exact: true }).fill('acme/checkout');
    await page.getByLabel('Tier', { exact: true }).selectOption('premium');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByText('Project acme/checkout created.').waitFor();

    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await heading('Projects').waitFor();
    const row = page.getByRole('row', { name: /acme\/checkout/ });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/acme\/checkout\s*Premium\s*Administrator/);
    await browser.screenshot('projects');
    await row.getByRole('link', { name: 'acme/checkout' }).click();
    await heading('Alerts').waitFor();
    projectId = Number(/\/projects\/(\d+)\/alerts/.exec(page.url())?.[1]);
    expect(projectId).toBeGreaterThan(0);
    await page.getByText('No alerts yet: this project has no integration to receive them.').waitFor();
  });

  step('adds an HTTP Endpoint from Settings > Monitor > Alerts and lands on its credentials', async () => {
    await page.getByRole('link', { name: 'Settings › Monitor › Alerts' }).click();
    await page.getByText('No integrations yet.').waitFor();
    await page.getByRole('link', { name: 'Add new integration' }).click();
    await heading('Add new integration').waitFor();
    // The tabs that need a saved integration are there, and disabled until it is saved.
    expect(await page.locator('.tab-disabled').allTextContents()).toEqual([
      'View credentials (Save the integration first)',
      'Send test alert (Save the integration first)',
      'Deliveries (Save the integration first)',
    ]);
    await page.getByLabel('Name', { exact: true }).fill('Prometheus');
    expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save integration' }).click();

    await page.waitForURL(/\/settings\/alerts\/\d+\/credentials$/);
    integrationPath = new URL(page.url()).pathname.replace(/\/credentials$/, '');
    await page.getByText(/Integration saved\. Configure your monitoring tool/).waitFor();
    webhook = { url: await page.getByLabel('Webhook URL', { exact: true }).inputValue(), key: await page.getByLabel('Authorization key', { exact: true }).inputValue() };
    expect(webhook.url).toMatch(new RegExp(`^${stack.gateway.url}/alerts/notify/[A-Za-z0-9_-]+\\.json$`));
    expect(webhook.key).toMatch(/^[0-9a-f]{64}$/);
  });

  step('copies the credentials, and resets the key behind a confirmation: the old key stops working', async () => {
    await page.getByRole('button', { name: 'Copy the webhook URL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webhook.url);
    await page.getByRole('button', { name: 'Copy the authorization key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webhook.key);
    await browser.screenshot('credentials');

    await page.getByRole('button', { name: 'Reset key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset authorization key' });
    expect(await dialog.textContent()).toContain('will require updating the authorization key in every alert source');
    await dialog.getByRole('button', { name: 'Reset key' }).click();
    await page.getByText('A new authorization key was generated.').waitFor();
    const newKey = await page.getByLabel('Authorization key', { exact: true }).inputValue();
    expect(newKey).not.toBe(webhook.key);
    const oldKey = webhook.key;
    webhook.key = newKey;
    await eventually(async () => {
      const refused = await fetch(webhook.url, { method: 'POST', headers: { authorization: `Bearer ${oldKey}`, 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
    }, 5_000);
  });

  step('rotates the key with a 24-hour grace period: both keys are shown and both work; a signing secret is set and then required', async () => {
    // Recovery payloads that match no alert: answered 200 [] and stored as nothing, so the later
    // steps still see alert #1 as the first alert of the project.
    const noAlert = (title: string) => ({ title, end_time: '2024-01-01T00:00:00Z' });
    const oldKey = webhook.key;
    await page.getByRole('button', { name: 'Reset key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset authorization key' });
    await dialog.getByLabel('Grace period for the current key').selectOption({ label: '24 hours' });
    await dialog.getByRole('button', { name: 'Reset key' }).click();
    await page.getByText('The previous key keeps working until').waitFor();
    const newKey = await page.getByLabel('Authorization key', { exact: true }).inputValue();
    expect(newKey).not.toBe(oldKey);
    expect(await page.getByLabel('Previous authorization key', { exact: true }).inputValue()).toBe(oldKey);
    await eventually(async () => expect(await page.getByTestId('previous-key-expiry').textContent()).toMatch(/Valid until .+ UTC \(in 23 h 5\d min\)/), 5_000, 200);
    webhook.key = newKey;
    expect((await sendToGateway(noAlert('Sent with the previous key'), { key: oldKey })).status).toBe(200);
    expect((await sendToGateway(noAlert('Sent with the new key'))).status).toBe(200);

    const secret = 'console-end-to-end-signing-secret';
    await page.getByRole('button', { name: 'Set secret' }).click();
    await page.getByLabel('New signing secret').fill(secret);
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByText('The signing secret was saved.').waitFor();
    expect(await page.getByLabel('Signing secret', { exact: true }).inputValue()).toBe(secret);
    await page.getByText("Configure Grafana's webhook contact point").click();
    await page.getByText('Example signed request').click();
    await eventually(async () => {
      const unsigned = await sendToGateway(noAlert('Unsigned'));
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toMatchObject({ error: 'missing_signature' });
    }, 5_000);
    const body = JSON.stringify(noAlert('Signed like Grafana'));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signed = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${webhook.key}`,
        'content-type': 'application/json',
        'x-grafana-alerting-signature': createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('hex'),
        'x-grafana-alerting-signature-timestamp': timestamp,
      },
      body,
    });
    expect(signed.status).toBe(200);

    // The later steps send unsigned alerts, as most monitoring tools do.
    await page.getByRole('button', { name: 'Remove secret' }).click();
    await page.getByRole('dialog', { name: 'Remove signing secret' }).getByRole('button', { name: 'Remove secret' }).click();
    await page.getByText('The signing secret was removed.').waitFor();
    await eventually(async () => expect((await sendToGateway(noAlert('Unsigned again'))).status).toBe(200), 5_000);
  });

  step('parses a sample payload and maps its fields; the mapping is saved', async () => {
    await page.getByRole('link', { name: 'Configure details' }).click();
    const sample = page.getByLabel('Sample alert payload', { exact: true });
    await sample.fill('{"summary": ');
    await page.getByText(/^Invalid JSON:/).waitFor();
    // Parsing it says where it breaks, once, at the field, which takes the focus.
    await page.getByRole('button', { name: 'Parse payload for custom mapping' }).click();
    expect(await focusedName()).toBe('Sample alert payload');
    expect(await page.getByText(/Invalid JSON/).allTextContents()).toEqual(['Invalid JSON: the text ends where a value should be; still to close: } (line 1, column 13).']);
    expect(await sample.getAttribute('aria-invalid')).toBe('true');
    await sample.fill(JSON.stringify(SAMPLE_PAYLOAD, null, 2));
    await page.getByText('Valid JSON.').waitFor();
    await page.getByRole('button', { name: 'Parse payload for custom mapping' }).click();
    for (const [key, option] of MAPPING) {
      await page.getByLabel(`Payload alert key for ${key}`, { exact: true }).selectOption({ label: option });
    }
    await page.getByText('7 of 10 platform alert keys mapped.', { exact: false }).waitFor();
    await browser.screenshot('integration-mapping');
    // Another tab would lose the mapping: the console asks first, and staying keeps it.
    await page.getByRole('link', { name: 'Send test alert' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByText('The changes to Configure details are not saved.', { exact: false }).waitFor();
    await leave.getByRole('button', { name: 'Stay on this page' }).click();
    expect(new URL(page.url()).pathname).toBe(integrationPath);
    expect(await page.getByLabel('Payload alert key for Title', { exact: true }).locator('option:checked').textContent()).toBe(MAPPING[0][1]);
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByText('Integration saved.', { exact: true }).waitFor();
    expect(await page.title()).toBe('Configure details · Prometheus · acme/checkout · Alert ingestion');

    await page.reload();
    const title = page.getByLabel('Payload alert key for Title', { exact: true });
    await title.waitFor();
    // The notice belongs to the save, not to the address: a reload does not announce it again.
    expect(await page.getByText('Integration saved.', { exact: true }).count()).toBe(0);
    expect(await title.locator('option:checked').textContent()).toBe(MAPPING[0][1]);
    expect(await page.getByLabel('Payload alert key for Hosts', { exact: true }).locator('option:checked').textContent()).toBe('labels.instance (String): "web-3"');
  });

  step('asks before unsaved changes are lost by closing the browser tab', async () => {
    // A second tab shares the session (localStorage is the origin's).
    const other = await browser.context.newPage();
    await other.goto(integrationPath);
    const name = other.getByLabel('Name', { exact: true });
    await name.waitFor();
    await name.press('End');
    await other.keyboard.type(' (edited)');
    const dialogs: string[] = [];
    other.once('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await other.close({ runBeforeUnload: true });
    await eventually(async () => expect(dialogs).toEqual(['beforeunload']), 5_000, 100);
    // Staying keeps the tab and the edit.
    expect(other.isClosed()).toBe(false);
    expect(await name.inputValue()).toBe('Prometheus (edited)');
    await other.close();
  });

  step('sends a test alert through the mapping, then the same one again: it is grouped', async () => {
    await page.getByRole('link', { name: 'Send test alert' }).click();
    const payload = page.getByLabel('Alert test payload', { exact: true });
    expect(JSON.parse(await payload.inputValue())).toEqual(SAMPLE_PAYLOAD);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.created-alerts li').getByText('Created alert', { exact: false }).waitFor();
    expect(await page.locator('.created-alerts li').allTextContents()).toEqual(['Created alert #1 Checkout latency above 2s.']);
    await browser.screenshot('test-alert');

    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('link', { name: '#1 Checkout latency above 2s' }).waitFor();
    await page.locator('.created-alerts li').getByText('Grouped into alert', { exact: false }).waitFor();
    expect(await page.locator('.created-alerts li').allTextContents()).toEqual(['Grouped into alert #1 Checkout latency above 2s: 2 events now.']);
    expect(await page.locator('.created-alerts li').count()).toBe(1);
  });

  step('lists the alert once with events 2, and changes its status inline from the keyboard alone', async () => {
    await page.getByRole('link', { name: 'Alerts', exact: true }).click();
    const row = page.getByRole('row', { name: /#1 Checkout latency above 2s/ });
    await row.waitFor();
    // The first cell is the row's box for "Acknowledge selected"; the assignee follows the events.
    const cells = await row.getByRole('cell').allTextContents();
    // The start time in one short word (exact on hover); the title with its hosts under it.
    expect(cells.slice(1, 6)).toEqual(['High', expect.stringMatching(/^\d+[dwy]$/), '#1 Checkout latency above 2sweb-3', '2', 'Unassigned']);
    expect(await row.locator('.alert-hosts').textContent()).toBe('web-3');
    expect(await page.getByRole('row').count()).toBe(2);
    expect(await row.getByRole('cell').nth(2).locator('time').getAttribute('title')).toMatch(/2024/);
    await page.getByRole('link', { name: /^Open\s+1$/ }).waitFor();
    expect(await page.title()).toBe('Alerts · acme/checkout · Alert ingestion');
    await browser.screenshot('alerts');

    // Tab to the status, arrow down past Acknowledged to Resolved and back: nothing is saved yet.
    await tabTo('Status of alert #1');
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowUp']) await page.keyboard.press(key);
    expect(await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)).toBe('acknowledged');
    await settle();
    expect(await storedStatus(1)).toBe('triggered');
    // Enter applies the choice; the focus stays on the select.
    await page.keyboard.press('Enter');
    await eventually(async () => expect(await storedStatus(1)).toBe('acknowledged'), 10_000, 100);
    expect(await focusedName()).toBe('Status of alert #1');
    await page.getByRole('link', { name: /^Acknowledged\s+1$/ }).waitFor();
    await page.getByRole('link', { name: /^Triggered\s+0$/ }).waitFor();
  });

  step('shows a new alert without a reload', async () => {
    const answer = await sendToGateway({ summary: 'Disk almost full', labels: { severity: 'critical', instance: 'db-1', service: 'db' }, starts_at: new Date().toISOString(), ends_at: null, generator: 'prometheus' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual([{ iid: 2, title: 'Disk almost full' }]);
    await page.getByRole('link', { name: '#2 Disk almost full' }).waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: /^Open\s+2$/ }).waitFor();
  });

  step('silences alerts like #2 from "Silence similar": the next one that arrives is marked silenced', async () => {
    await page.getByRole('link', { name: '#2 Disk almost full' }).click();
    await heading('#2 Disk almost full').waitFor();
    await page.getByRole('link', { name: 'Silence similar' }).click();
    await heading('New silence').waitFor();
    // No explicit fingerprint: the title and the service pick out alerts like this one.
    const matcher = (n: number) => page.getByRole('group', { name: `Matcher ${n}` });
    expect(await matcher(1).getByLabel('On').inputValue()).toBe('title');
    expect(await matcher(1).getByLabel('Value').inputValue()).toBe('Disk almost full');
    expect(await matcher(2).getByLabel('On').inputValue()).toBe('service');
    expect(await matcher(2).getByLabel('Value').inputValue()).toBe('db');
    await page.getByLabel('Comment', { exact: true }).fill('Replacing the disk of db-1');
    await browser.screenshot('silence-new');
    await page.getByRole('button', { name: 'Create silence' }).click();

    await heading('Silences').waitFor();
    const row = page.getByRole('row', { name: /Replacing the disk of db-1/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(0).textContent()).toBe('Active');
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('title="Disk almost full"service="db"');
    await browser.screenshot('silences');

    // Silences are evaluated at every notification: the next payload, grouped into #2, marks it.
    const again = await sendToGateway({ summary: 'Disk almost full', labels: { severity: 'critical', instance: 'db-1', service: 'db' }, starts_at: new Date().toISOString(), ends_at: null, generator: 'prometheus' });
    expect(await again.json()).toEqual([{ iid: 2, title: 'Disk almost full' }]);
    await page.getByRole('link', { name: 'Alerts', exact: true }).click();
    const silencedRow = page.getByRole('row', { name: /#2 Disk almost full/ });
    await silencedRow.getByRole('link', { name: /Silenced/ }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('row', { name: /#1 Checkout latency above 2s/ }).getByRole('link', { name: /Silenced/ }).count()).toBe(0);
    await page.getByLabel('Silenced alerts', { exact: true }).selectOption({ label: 'Silenced only' });
    await page.waitForURL(/silenced=true/);
    await eventually(async () => expect(await page.locator('.alerts-table tbody tr').count()).toBe(1), 10_000, 100);
    await browser.screenshot('alerts-silenced');
    await page.getByLabel('Silenced alerts', { exact: true }).selectOption({ label: 'Silenced or not' });
    await page.getByRole('link', { name: '#1 Checkout latency above 2s' }).waitFor();
  });

  step('shows every field of the alert, its events counter and its payload as a tree, and resolves it', async () => {
    await page.getByRole('link', { name: '#1 Checkout latency above 2s' }).click();
    await heading('#1 Checkout latency above 2s').waitFor();
    const details = Object.fromEntries(
      await page.locator('.details > div').evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent])),
    );
    expect(details).toMatchObject({
      Severity: 'High',
      Events: '2',
      Service: 'checkout',
      'Monitoring tool': 'prometheus',
      Hosts: 'web-3',
      'End time': 'none',
    });
    expect(details['Start time']).toMatch(/May 1, 2024/);
    expect(await page.locator('.json-tree').textContent()).toContain('"web-3"');
    expect(await page.title()).toBe('#1 Checkout latency above 2s · Alerts · acme/checkout · Alert ingestion');
    await browser.screenshot('alert-detail');

    // From the keyboard alone: choose Resolved, Tab to "Change status", Enter.
    await tabTo('Status');
    await page.keyboard.press('ArrowDown');
    await settle();
    expect(await storedStatus(1)).toBe('acknowledged');
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Change status');
    await page.keyboard.press('Enter');
    await eventually(async () => expect(await storedStatus(1)).toBe('resolved'), 10_000, 100);
    await page.getByText('Alert #1 is now Resolved.').waitFor({ state: 'attached' });
    expect(await focusedName()).toBe('Change status');
    await eventually(async () => expect(await textOf('.details')).not.toMatch(/End timenone/), 10_000, 200);
  });

  step('lists every delivery to the URL, refusals included, and opens a body as received', async () => {
    const accepted = await sendToGateway(QUEUE_ALERT);
    expect(accepted.status).toBe(200);
    const [created] = (await accepted.json()) as Array<{ iid: number; title: string }>;
    expect(created.title).toBe('Queue backlog growing');
    const wrongKey = await sendToGateway(QUEUE_ALERT, { key: '0'.repeat(64) });
    expect(wrongKey.status).toBe(401);
    const notJson = await sendToGateway(null, { text: '{"summary": "half a payload",' });
    expect(notJson.status).toBe(400);

    await page.goto(integrationPath);
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await heading('Prometheus').waitFor();
    // Refusals reach the list through the gateway's delivery records: the tab reads it again every 5 s.
    await page.getByText('401 Unauthorized', { exact: true }).first().waitFor({ timeout: 20_000 });
    await eventually(async () => {
      const rows = await tableCells();
      expect(rows.slice(0, 3).map((cells) => cells.slice(1))).toEqual([
        ['400 Bad Request invalid_json', 'current', 'none', '29 BView'],
        ['401 Unauthorized unauthorized', 'none', 'none', 'not readView'],
        ['200 OK', 'current', `#${created.iid} Queue backlog growing`, expect.stringMatching(/^\d+ BView$/)],
      ]);
      expect(rows[0][0]).toMatch(/just now|seconds? ago/);
    }, 20_000, 500);
    // The earlier test alerts and the alert sent from Node are there too, newest first.
    expect((await tableCells()).filter((cells) => cells[1] === '200 OK').length).toBeGreaterThanOrEqual(4);

    await page.locator('tbody tr').nth(0).getByRole('button', { name: /^View the body of the 400 Bad Request delivery/ }).click();
    const viewer = page.getByRole('region', { name: 'Body of the delivery' });
    expect(await viewer.getByLabel('Delivery body', { exact: true }).textContent()).toBe('{"summary": "half a payload",');
    await viewer.getByText('not JSON, shown as received', { exact: false }).waitFor();
    expect(await viewer.getByRole('button', { name: 'Use as sample payload' }).isDisabled()).toBe(true);
    await viewer.getByText('The body is not valid JSON.').waitFor();

    await page.locator('tbody tr').nth(2).getByRole('button', { name: /^View the body of the 200 OK delivery/ }).click();
    expect(JSON.parse((await viewer.getByLabel('Delivery body', { exact: true }).textContent()) ?? '')).toEqual(QUEUE_ALERT);
    await viewer.getByText('JSON, pretty-printed', { exact: false }).waitFor();
    await browser.screenshot('deliveries');

    await viewer.getByRole('button', { name: 'Use as sample payload' }).click();
    await page.waitForURL((url) => url.pathname === integrationPath);
    expect(JSON.parse(await page.getByLabel('Sample alert payload', { exact: true }).inputValue())).toEqual(QUEUE_ALERT);
    await page.getByText(/is the body of the delivery of .*, not saved yet/).waitFor();
  });

  step('maps the new sample with a live preview of the alert it becomes, and saves a rate limit', async () => {
    // Until the changed sample is parsed, the preview shows it without a mapping, as saving would store it.
    await eventually(async () => expect(await previewed()).toMatchObject({ Title: 'New: Alert', Severity: 'Critical' }), 10_000, 200);
    await page.getByRole('button', { name: 'Parse payload for custom mapping' }).click();
    const option = (path: string, value: string) => `${path} (${/^\d{4}-/.test(value) ? 'DateTime' : 'String'}): "${value}"`;
    const mapping: Array<[string, string]> = [
      ['Title', option('summary', QUEUE_ALERT.summary)],
      ['Start time', option('starts_at', QUEUE_ALERT.starts_at)],
      ['End time', 'ends_at (null in the sample)'],
      ['Service', option('labels.service', 'queue')],
      ['Monitoring tool', option('generator', 'prometheus')],
      ['Hosts', option('labels.instance', 'worker-2')],
      ['Severity', option('labels.severity', 'medium')],
    ];
    for (const [key, label] of mapping) {
      await page.getByLabel(`Payload alert key for ${key}`, { exact: true }).selectOption({ label });
    }
    await eventually(
      async () =>
        expect(await previewed()).toMatchObject({
          Title: 'Queue backlog growing',
          Severity: 'Medium',
          'Start time': expect.stringMatching(/May 2, 2024/),
          'End time': 'none',
          Service: 'queue',
          'Monitoring tool': 'prometheus',
          Hosts: 'worker-2',
          'Grouping key': expect.stringMatching(/^[0-9a-f]{64}$/),
        }),
      10_000,
      200,
    );

    // Another value for the title: the preview follows before anything is saved.
    await page.getByLabel('Payload alert key for Title', { exact: true }).selectOption({ label: option('annotations.headline', QUEUE_ALERT.annotations.headline) });
    await eventually(async () => expect((await previewed())['Title']).toBe(QUEUE_ALERT.annotations.headline), 10_000, 200);
    await browser.screenshot('integration-preview');

    const rateLimit = page.getByLabel('Rate limit (requests per minute)', { exact: true });
    expect(await rateLimit.inputValue()).toBe('');
    await rateLimit.fill('0');
    await page.getByText('The rate limit is at least 1 request per minute', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Save integration' }).click();
    // Not saved: the refusal is the field's own message, once, and the keyboard is taken there.
    expect(await focusedName()).toBe('Rate limit (requests per minute)');
    expect(await rateLimit.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('The rate limit is at least 1 request per minute', { exact: false }).count()).toBe(1);
    await rateLimit.fill('120');
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByText('Integration saved.', { exact: true }).waitFor();

    await page.reload();
    await page.getByLabel('Payload alert key for Title', { exact: true }).waitFor();
    expect(await page.getByLabel('Rate limit (requests per minute)', { exact: true }).inputValue()).toBe('120');
    expect(await page.getByLabel('Payload alert key for Title', { exact: true }).locator('option:checked').textContent()).toBe(
      option('annotations.headline', QUEUE_ALERT.annotations.headline),
    );
    const saved = await (
      await fetch(`${stack.integrationConfig.url}/api/v4/projects/${projectId}${integrationPath.replace(/^.*\/settings\/alerts/, '/alert_integrations')}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json();
    expect(saved.rate_limit_per_minute).toBe(120);
    // The gateway applies both: every answer of the URL names the limit (a refused one counts nothing),
    // and a new alert takes its title from the headline.
    await eventually(async () => {
      const refused = await sendToGateway(QUEUE_ALERT, { key: '0'.repeat(64) });
      expect([refused.status, refused.headers.get('ratelimit-limit')]).toEqual([401, '120']);
    }, 5_000, 200);
    const next = { ...QUEUE_ALERT, annotations: { headline: 'Payments queue: 15k messages waiting' } };
    const answer = await sendToGateway(next);
    expect(await answer.json()).toEqual([{ iid: expect.any(Number), title: next.annotations.headline }]);
  });

  step('sets a heartbeat: silence raises its alert and shows "Heartbeat expired", a request resolves it', async () => {
    const title = 'No alerts received from Prometheus for 1 minute';
    const heartbeatAlert = async () => {
      const response = await fetch(`${stack.integrationConfig.url}/api/v4/projects/${projectId}/alerts?per_page=100`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      return ((await response.json()) as Array<{ title: string; status: string; monitoring_tool: string }>).find((alert) => alert.title === title);
    };
    await page.goto(integrationPath);
    const heartbeat = page.getByLabel('Heartbeat (minutes)', { exact: true });
    expect(await heartbeat.inputValue()).toBe('');
    await page.getByText('Heartbeat off', { exact: true }).waitFor();
    await heartbeat.fill('1');
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByText('Integration saved.', { exact: true }).waitFor();

    // The last request came moments ago; a (test) minute later the heartbeat expires, and the page,
    // which reads the integration every 5 s, shows it.
    await page.getByText('Heartbeat expired', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText('expected every 1 minute', { exact: false }).waitFor();
    await eventually(async () => expect(await heartbeatAlert()).toMatchObject({ status: 'triggered', monitoring_tool: 'heartbeat' }), 10_000, 250);
    await browser.screenshot('heartbeat');

    const answer = await sendToGateway(QUEUE_ALERT);
    expect(answer.status).toBe(200);
    await page.getByText('Heartbeat OK', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await heartbeatAlert()).toMatchObject({ status: 'resolved' });

    // Off again: empty is no heartbeat.
    await heartbeat.fill('');
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByText('Heartbeat off', { exact: true }).waitFor();
    expect(await heartbeat.getAttribute('aria-invalid')).toBe('false');
  });

  step('lists the integrations; an active external link shows "View alerts" with the deprecation note', async () => {
    // The external link may be active only while no other integration is: turn the endpoint off first.
    await page.goto(`${integrationPath}`);
    await page.getByRole('switch', { name: 'Active' }).uncheck();
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByText('Integration saved.', { exact: true }).waitFor();

    await page.getByRole('link', { name: 'Settings › Monitor › Alerts' }).first().click();
    await page.getByRole('link', { name: 'Add new integration' }).click();
    await page.getByLabel('Integration type', { exact: true }).selectOption({ label: 'External incident management' });
    await page.getByLabel('API URL', { exact: true }).fill('https://incidents.example.com/alerts');
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByText(/Deprecated from release 13\.8/).waitFor();

    await page.getByRole('link', { name: 'Settings › Monitor › Alerts' }).first().click();
    await page.getByRole('cell', { name: 'External incident management', exact: true }).first().waitFor();
    // Spec 1.2: status, name and type of each integration, with its actions.
    expect(await tableCells()).toEqual([
      ['Disabled', 'Prometheus', 'HTTP Endpoint', 'EditDelete'],
      ['Enabled', 'External incident management', 'External incident management', 'EditDelete'],
    ]);
    await browser.screenshot('integrations');

    await page.getByRole('link', { name: 'Alerts', exact: true }).click();
    const viewAlerts = page.getByRole('link', { name: /View alerts/ });
    await viewAlerts.waitFor();
    expect(await viewAlerts.getAttribute('href')).toBe('https://incidents.example.com/alerts');
    await page.getByText('The direct link from the alerts list to the external tool is deprecated from release 13.8.').waitFor();
  });

  step('deletes an integration only after a confirmation', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Monitor › Alerts' }).click();
    await page.getByRole('button', { name: 'Delete External incident management' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete integration' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('cell', { name: 'External incident management', exact: true }).count()).toBe(2);
    await page.getByRole('button', { name: 'Delete External incident management' }).click();
    await dialog.getByRole('button', { name: 'Delete integration' }).click();
    await eventually(async () => expect(await page.getByRole('row').count()).toBe(2), 5_000, 100);
  });

  step('runs the pipeline checker: findings with line numbers, each linked to its catalogue entry', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deprecations' }).click();
    await page.getByRole('link', { name: 'Pipeline checker' }).click();
    await page.getByRole('button', { name: 'Load an example' }).click();
    await page.getByLabel('Target release (optional)', { exact: true }).fill('16.0');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText(/\d+ findings removed or changed by 16\.0\./).waitFor();
    const lines = await page.getByRole('button', { name: /^Show line \d+$/ }).allTextContents();
    // types (1), type (6), CI_BUILD_REF_NAME and CI_BUILD_REF (8), cobertura (15), in line order.
    expect(lines).toEqual(['1', '6', '8', '8', '15']);
    await browser.screenshot('pipeline-checker');

    await page.getByRole('link', { name: 'Entry for line 15' }).click();
    await page.getByText('Showing the entry', { exact: false }).waitFor();
    expect(await page.locator('.entry').count()).toBe(1);
    expect(await page.locator('.entry').textContent()).toMatch(/cobertura/i);
  });

  step('filters the catalogue and shows an upgrade report', async () => {
    await page.getByRole('button', { name: 'Show the whole catalogue' }).click();
    await page.getByLabel('Search', { exact: true }).fill('CI_BUILD_ID');
    await eventually(async () => expect(await page.locator('.entry').count()).toBe(1), 5_000, 100);
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Removal milestone', { exact: true }).selectOption('16.0');
    await page.getByText(/^\d{2} entries$/).waitFor();
    await browser.screenshot('deprecations', { viewportOnly: true });
    await page.getByLabel('Breaking', { exact: true }).selectOption('true');
    await eventually(async () => {
      const milestones = await page.locator('.entry .badge:not(.badge-breaking)').allTextContents();
      expect(milestones.length).toBeGreaterThan(0);
      expect(new Set(milestones)).toEqual(new Set(['16.0']));
    }, 5_000, 100);

    await page.getByRole('link', { name: 'Upgrade report' }).click();
    await page.getByLabel('From release', { exact: true }).fill('15.9');
    await page.getByLabel('To release', { exact: true }).fill('16.0');
    await page.getByRole('button', { name: 'Show upgrade report' }).click();
    await page.getByRole('heading', { name: 'Release 16.0' }).waitFor();
  });

  step('reads well on a narrow screen: nothing wider than the viewport', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of [
      `/projects/${projectId}/alerts`,
      `/projects/${projectId}/alerts/1`,
      integrationPath,
      `${integrationPath}/deliveries`,
      `/projects/${projectId}/silences?state=all`,
      `/projects/${projectId}/silences/new`,
      '/deprecations/checker',
    ]) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (process.env['NARROW_SHOTS']) await browser.screenshot(`narrow-${path.replace(/\W+/g, '-')}`);
      expect([path, overflow]).toEqual([path, 0]);
    }
    await page.goto(`/projects/${projectId}/alerts?status=all`);
    await page.getByRole('link', { name: '#1 Checkout latency above 2s' }).waitFor();
    await browser.screenshot('alerts-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step('shows focus where the keyboard is', async () => {
    await page.goto(`/projects/${projectId}/alerts`);
    await page.getByRole('link', { name: '#2 Disk almost full' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(outline).not.toBe('none');
  });

  step('offers a developer only what the role may use, and "Send test alert" from Monitor > Alerts', async () => {
    // The journey left the endpoint disabled (for the external link, since deleted): a maintainer turns it on again.
    const integrationUrl = `${stack.integrationConfig.url}/api/v4/projects/${projectId}${integrationPath.replace(/^.*\/settings\/alerts/, '/alert_integrations')}`;
    const enabled = await fetch(integrationUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ active: true }),
    });
    expect(enabled.status).toBe(200);
    const user = await (
      await fetch(`${stack.integrationConfig.url}/api/v4/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'devon' }),
      })
    ).json();
    await fetch(`${stack.integrationConfig.url}/api/v4/projects/${projectId}/members`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.id, access_level: 'developer' }),
    });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Access token', { exact: true }).fill(user.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Projects').waitFor();
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.getByRole('row', { name: /acme\/checkout\s*Premium\s*Developer/ }).getByRole('link').click();
    await heading('Alerts').waitFor();
    // The alert settings are read-only for a developer, under Monitor; the integrations are not offered.
    expect(await page.getByRole('navigation', { name: 'Project' }).getByRole('link').allTextContents()).toEqual(['Alerts', 'Incidents', 'Silences', 'On-call schedules', 'Alert settings']);
    expect(await page.getByLabel('Status of alert #2', { exact: true }).isEnabled()).toBe(true);

    await page.goto(`/projects/${projectId}/settings/alerts`);
    await page.getByText('Alert integrations are configured by maintainers and owners of the project.').waitFor();

    // Monitor > Alerts > Send test alert: the integrations by name, type and status; the test alert itself.
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('link', { name: 'Send test alert', exact: true }).click();
    await heading('Send test alert').waitFor();
    await page.getByRole('cell', { name: 'Prometheus', exact: true }).waitFor();
    expect(await tableCells()).toEqual([['Enabled', 'Prometheus', 'HTTP Endpoint', 'Send test alert']]);
    await page.getByRole('link', { name: 'Send a test alert to Prometheus' }).click();
    await heading('Send test alert: Prometheus').waitFor();
    expect(await page.title()).toBe('Send test alert · Prometheus · acme/checkout · Alert ingestion');
    const payload = { ...QUEUE_ALERT, annotations: { headline: 'Developer check: queue alert' } };
    await page.getByLabel('Alert test payload', { exact: true }).fill(JSON.stringify(payload, null, 2));
    await page.getByRole('button', { name: 'Send' }).click();
    const created = page.locator('.created-alerts li');
    await created.getByText('Created alert', { exact: false }).waitFor();
    const [text] = await created.allTextContents();
    expect(text).toMatch(/^Created alert #\d+ Developer check: queue alert\.$/);
    const iid = Number(/#(\d+)/.exec(text)?.[1]);

    await page.getByRole('link', { name: 'Alerts', exact: true }).first().click();
    await page.getByRole('link', { name: `#${iid} Developer check: queue alert` }).waitFor();
  });

  step('goes back to sign-in with the reason when the token stops working', async () => {
    browser.expectConsoleErrors(/status of 401/);
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('alert-console.session') ?? '{}');
      localStorage.setItem('alert-console.session', JSON.stringify({ ...session, token: 'aipat-no-longer-valid' }));
    });
    await page.goto('/projects');
    await page.getByText('You were signed out: The token is not valid.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  });
});
