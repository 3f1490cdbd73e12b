import { eventually } from '@alert-ingestion/testing';
import { createHmac, randomBytes } from 'node:crypto';
import { ADMIN_TOKEN, ConsoleBrowser, ConsoleStack } from './support/console-harness';

/**
 * The timestamp switch on View credentials, in Debian's Chromium against the real stack: next to a
 * set signing secret, a checkbox that says what it risks turns on acceptance of Grafana signatures
 * without a timestamp, and the gateway then takes one (once) where it refused it before.
 */
describe('web console: accepting Grafana signatures without a timestamp', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    // One page and a few clicks: a longer wait than the harness's 10 s lets it pass on a busy machine.
    browser.page.setDefaultTimeout(60_000);
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('turns the switch on from View credentials, after which the gateway accepts the timestamp-less form once', async () => {
    const page = browser.page;
    const project = await stack.createProject('premium', { integrationName: 'Grafana' });
    const integrationPath = `/projects/${project.id}/alert_integrations/${project.integration.id}`;
    const secret = `console-switch-${randomBytes(8).toString('hex')}`;
    await stack.management('PUT', integrationPath, { signing_secret: secret });
    const signedWithoutTimestamp = () => {
      const body = JSON.stringify({ title: `Grafana without a timestamp ${randomBytes(4).toString('hex')}` });
      const signature = createHmac('sha256', secret).update(body).digest('hex');
      return fetch(project.integration.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.integration.authorization_key}`, 'content-type': 'application/json', 'x-grafana-alerting-signature': signature },
        body,
      }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as { error?: string } }));
    };
    await eventually(async () => expect((await signedWithoutTimestamp()).body).toMatchObject({ error: 'missing_signature_timestamp' }), 10_000, 100);

    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await page.getByLabel('Access token', { exact: true }).fill(ADMIN_TOKEN);
    await page.getByLabel('Access token', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.goto(`/projects/${project.id}/settings/alerts/${project.integration.id}/credentials`);

    const allow = page.getByRole('checkbox', { name: 'Accept Grafana signatures without a timestamp' });
    await allow.waitFor();
    expect(await allow.isChecked()).toBe(false);
    const hint = await page.locator(`[id="${await allow.getAttribute('aria-describedby')}"]`).textContent();
    expect(hint).toContain('a captured request can be sent again and accepted once the gateway has forgotten it');

    await allow.click();
    await page.getByText('Grafana signatures without a timestamp are now accepted.').waitFor();
    expect(await allow.isChecked()).toBe(true);
    expect((await stack.management<{ allow_signature_without_timestamp: boolean }>('GET', integrationPath)).allow_signature_without_timestamp).toBe(true);
    await browser.screenshot('credentials-signature-timestamp-switch', { viewportOnly: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot('credentials-signature-timestamp-switch-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });

    await eventually(async () => expect((await signedWithoutTimestamp()).status).toBe(200), 10_000, 100);

    await page.reload();
    await allow.waitFor();
    expect(await allow.isChecked()).toBe(true);
    await allow.click();
    await page.getByText('Grafana signatures now need their timestamp header.').waitFor();
    await eventually(async () => expect((await signedWithoutTimestamp()).body).toMatchObject({ error: 'missing_signature_timestamp' }), 10_000, 100);
    expect(browser.takeErrors()).toEqual([]);
  }, 300_000);
});
