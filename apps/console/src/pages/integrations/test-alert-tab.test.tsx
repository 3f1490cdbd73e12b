import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Integration, Project } from '../../api/types';
import { RecordedRequest, renderPage, stubApi } from '../../testing/render';
import { TestAlertTab } from './test-alert-tab';

const INTEGRATION: Integration = {
  id: 3,
  name: 'Prometheus',
  type: 'http',
  active: true,
  url: 'http://gateway.test/alerts/notify/abc.json',
  authorization_key: 'key',
  sample_payload: null,
  payload_field_mapping: [],
  api_url: null,
  rate_limit_per_minute: null,
};

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

describe('TestAlertTab', () => {
  it('sends the JSON payload and names the alerts created or grouped into, with links', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations/3/preview': PREVIEW,
      'POST /projects/7/alert_integrations/3/test_alert': {
        body: { message: 'The test alert was processed: alert 12 "Disk full".', alerts: [{ iid: 12, title: 'Disk full' }] },
      },
    });
    renderPage(<TestAlertTab project={PROJECT} integration={INTEGRATION} />, { url: '/' });
    await user.clear(payloadField());
    await user.click(payloadField());
    await user.paste('{"title": "Disk full"}');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('The test alert was processed: alert 12 "Disk full".')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '#12 Disk full' })).toHaveAttribute('href', '/projects/7/alerts/12');
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert')[0].body).toEqual({ payload: '{"title": "Disk full"}' });
  });

  it('requires valid JSON before sending', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/preview': PREVIEW });
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
      'POST /projects/7/alert_integrations/3/preview': PREVIEW,
      'POST /projects/7/alert_integrations/3/test_alert': {
        status: 422,
        body: { error: 'integration_inactive', message: 'The integration is disabled: activate it to send a test alert.' },
      },
    });
    renderPage(<TestAlertTab project={PROJECT} integration={{ ...INTEGRATION, active: false }} />, { url: '/' });
    expect(screen.getByText(/This integration is disabled/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Test alert failed: The integration is disabled: activate it to send a test alert. (422)');
  });

  it('previews the alerts the payload becomes before it is sent, without a mapping on Free', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/preview': PREVIEW });
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
    expect(api.sent('POST /projects/7/alert_integrations/3/preview').every((request) => !('payload_field_mapping' in (request.body as object)))).toBe(true);
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert')).toEqual([]);
  });

  it('starts from the sample payload when the integration has one', () => {
    stubApi({ 'POST /projects/7/alert_integrations/3/preview': PREVIEW });
    renderPage(<TestAlertTab project={PROJECT} integration={{ ...INTEGRATION, sample_payload: '{"summary":"x"}' }} />, { url: '/' });
    expect(payloadField()).toHaveValue('{\n  "summary": "x"\n}');
  });
});
