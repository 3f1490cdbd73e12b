import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Alert, Project } from '@console/api/types';
import { alertFixture } from '@console/testing/alert-fixture';
import { integrationFixture } from '@console/testing/integration-fixture';
import { RecordedRequest, renderPage, stubApi } from '@console/testing/render';
import { TestAlertTab } from './test-alert-tab';

const INTEGRATION = integrationFixture({ authorization_key: 'key' });

const PROJECT: Project = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'maintainer' };

const payloadField = () => screen.getByLabelText('Alert test payload');

/** A stand-in for `POST .../preview` that names the payload's title (or the default one). */
const PREVIEW = (request: RecordedRequest) => {
  const payload = JSON.parse((request.body as { payload: string }).payload) as { title?: string } | Array<{ title?: string }>;
  const alerts = (Array.isArray(payload) ? payload : [payload]).map((alert) => ({
    title: alert.title ?? 'New: Alert',
    description: null,
    severity: 'high',
    started_at: '2024-05-01T10:00:00.000Z',
    ended_at: null,
    service: 'checkout',
    monitoring_tool: null,
    hosts: ['test-host-1'],
    fingerprint: null,
    grouping_key: null,
    platform_environment_name: null,
    payload: alert,
  }));
  return { body: { alerts } };
};

/** An alert of the alerts API as a test alert left it. */
const stored = (iid: number, title: string, changes: Partial<Alert> = {}): Alert => alertFixture({ iid, title, integration_id: 3, ...changes });

const send = async (user: ReturnType<typeof userEvent.setup>, payload: string) => {
  await user.clear(payloadField());
  await user.click(payloadField());
  await user.paste(payload);
  await user.click(screen.getByRole('button', { name: 'Send' }));
};

describe('TestAlertTab', () => {
  it('sends the JSON payload and names the alerts created or grouped into, with links', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW,
      'POST /projects/7/alert_integrations/3/test_alert': {
        body: { message: 'The test alert was processed: alert 12 "Disk full".', alerts: [{ iid: 12, title: 'Disk full' }] },
      },
      'GET /projects/7/alerts/12': { body: stored(12, 'Disk full') },
    });
    renderPage(<TestAlertTab project={PROJECT} integration={INTEGRATION} />, { url: '/' });
    await user.clear(payloadField());
    await user.click(payloadField());
    await user.paste('{"title": "Disk full"}');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('Created alert', { exact: false })).toHaveTextContent('Created alert #12 Disk full.');
    expect(screen.getByRole('link', { name: '#12 Disk full' })).toHaveAttribute('href', '/projects/7/alerts/12');
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert')[0].body).toEqual({ payload: '{"title": "Disk full"}' });
  });

  it('requires valid JSON before sending', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW });
    renderPage(<TestAlertTab project={PROJECT} integration={INTEGRATION} />, { url: '/' });
    await user.clear(payloadField());
    expect(screen.getByText('Enter a JSON payload.')).toBeInTheDocument();
    await user.click(payloadField());
    await user.paste('{"title": ');
    expect(screen.getByText(/^Invalid JSON:/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert')).toEqual([]);
    expect(screen.getByRole('region', { name: 'Preview' })).toHaveTextContent('Enter a valid JSON payload to preview the alert it becomes.');
  });

  it("shows the API's error message when the test alert fails", async () => {
    const user = userEvent.setup();
    stubApi({
      'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW,
      'POST /projects/7/alert_integrations/3/test_alert': {
        status: 422,
        body: { error: 'integration_inactive', message: 'The integration is disabled: activate it to send a test alert.' },
      },
    });
    renderPage(<TestAlertTab project={PROJECT} integration={{ ...INTEGRATION, active: false }} />, { url: '/' });
    expect(screen.getByText(/This integration is disabled/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Test alert failed: The integration is disabled: activate it to send a test alert.');
  });

  it('previews the alerts the payload becomes before it is sent, without a mapping on Free', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW });
    renderPage(<TestAlertTab project={{ ...PROJECT, tier: 'free' }} integration={INTEGRATION} />, { url: '/' });
    const region = screen.getByRole('region', { name: 'Preview' });
    expect(region).toHaveTextContent('no custom mapping');
    await waitFor(() => expect(region).toHaveTextContent('TitleTest alert'));
    expect(region).toHaveTextContent('Hoststest-host-1');

    await user.clear(payloadField());
    await user.click(payloadField());
    await user.paste('[{"title": "First"}, {"title": "Second"}]');
    await waitFor(() => expect(region).toHaveTextContent('Alert 2 of 2'));
    expect(region).toHaveTextContent('TitleFirst');
    expect(region).toHaveTextContent('TitleSecond');
    // Free has no mapping: none is proposed, and nothing is sent to the gateway.
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert/preview').every((request) => !('payload_field_mapping' in (request.body as object)))).toBe(true);
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert')).toEqual([]);
  });

  it('starts from the sample payload when the integration has one', () => {
    stubApi({ 'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW });
    renderPage(<TestAlertTab project={PROJECT} integration={{ ...INTEGRATION, sample_payload: '{"summary":"x"}' }} />, { url: '/' });
    expect(payloadField()).toHaveValue('{\n  "summary": "x"\n}');
  });

  it('says what the test alert did, from the answer and the alerts it names: created, grouped, resolved, nothing, later', async () => {
    const user = userEvent.setup();
    let answer: { status?: number; body: unknown } = { body: { message: '', alerts: [] } };
    stubApi({
      'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW,
      'POST /projects/7/alert_integrations/3/test_alert': () => answer,
      'GET /projects/7/alerts/1': { body: stored(1, 'Checkout latency', { events: 3 }) },
      'GET /projects/7/alerts/4': { body: stored(4, 'Disk full', { status: 'resolved', ended_at: '2024-05-01T11:00:00.000Z', events: 2 }) },
      'GET /projects/7/alerts/5': { body: stored(5, 'CPU high', { events: 2 }) },
    });
    renderPage(<TestAlertTab project={PROJECT} integration={INTEGRATION} />, { url: '/' });
    const outcome = async () => (await screen.findByText(/^Test alert sent\./)).closest('[role="status"]')?.textContent;

    answer = { body: { message: 'The test alert was processed: alert 1 "Checkout latency".', alerts: [{ iid: 1, title: 'Checkout latency' }] } };
    await send(user, '{"title": "Checkout latency"}');
    expect(await outcome()).toBe('Test alert sent.Grouped into alert #1 Checkout latency: 3 events now.');

    answer = { body: { message: 'The test alert was processed: alert 4 "Disk full".', alerts: [{ iid: 4, title: 'Disk full' }] } };
    await send(user, '{"title": "Disk full", "end_time": "2024-05-01T11:00:00Z"}');
    await waitFor(async () => expect(await outcome()).toBe('Test alert sent.Resolved alert #4 Disk full.'));

    // Two identical payloads in one request: the first creates the alert, the second is grouped into it.
    answer = { body: { message: '…', alerts: [{ iid: 5, title: 'CPU high' }, { iid: 5, title: 'CPU high' }] } };
    await send(user, '[{"title": "CPU high"}, {"title": "CPU high"}]');
    await waitFor(async () => expect(await outcome()).toBe('Test alert sent.Created alert #5 CPU high, and grouped the 2nd payload into it: 2 events now.'));

    answer = { body: { message: 'The test alert was processed; it created no alert (a recovery alert that matched no open alert).', alerts: [] } };
    await send(user, '{"title": "Gone", "end_time": "2024-05-01T11:00:00Z"}');
    await waitFor(async () =>
      expect(await outcome()).toBe(
        'Test alert sent. Nothing matched: the payload has an end time, so it only resolves an open alert with the same fingerprint, and there is none. No alert was created.',
      ),
    );

    answer = { status: 202, body: { message: 'The test alert was accepted and will be processed shortly.', alerts: [], request_id: 'r-1' } };
    await send(user, '{"title": "Slow"}');
    await waitFor(async () => expect(await outcome()).toBe('Test alert sent. The gateway accepted it; it is still being processed and appears in the alert list shortly.'));
  });

  it('checks the test payload for what it is before sending: an empty array or a JSON string is no alert', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW });
    renderPage(<TestAlertTab project={PROJECT} integration={INTEGRATION} />, { url: '/' });
    expect(payloadField()).toHaveAccessibleDescription(expect.stringContaining('Valid JSON: one alert.'));

    await send(user, '[]');
    expect(payloadField()).toHaveAttribute('aria-invalid', 'true');
    expect(payloadField()).toHaveAccessibleDescription(expect.stringContaining('An empty array holds no alert'));
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    await send(user, '"Disk full"');
    expect(payloadField()).toHaveAccessibleDescription(expect.stringContaining('A JSON string is not an alert: the test payload must be a JSON object (one alert) or an array of objects.'));
    expect(screen.queryByText(/Valid JSON/)).not.toBeInTheDocument();
    expect(screen.queryByText(/recovery alert/)).not.toBeInTheDocument();
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert')).toEqual([]);

    await send(user, '{"title": "x",}');
    expect(screen.getAllByText(/Invalid JSON/)).toHaveLength(1);
    expect(payloadField()).toHaveAccessibleDescription(expect.stringContaining('(line 1, column 15)'));
    expect(document.body).not.toHaveTextContent(/Unexpected token|position \d|JSON\.parse/);
  });

  it("shows a refusal once, without repeating its own title", async () => {
    const user = userEvent.setup();
    stubApi({
      'POST /projects/7/alert_integrations/3/test_alert/preview': PREVIEW,
      'POST /projects/7/alert_integrations/3/test_alert': {
        status: 400,
        body: { error: 'invalid_payload', message: 'The test alert failed: element 0 of the array is not a JSON object; every element must be an alert object' },
      },
    });
    renderPage(<TestAlertTab project={PROJECT} integration={INTEGRATION} />, { url: '/' });
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Test alert failed: Element 0 of the array is not a JSON object; every element must be an alert object');
    expect(alert).not.toHaveTextContent(/failed:.*failed/i);
  });
});
