import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { alertFixture } from '@console/testing/alert-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 5, username: 'dev', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'developer' };
const INTEGRATIONS = [
  { id: 3, name: 'Prometheus', type: 'http', active: true },
  { id: 4, name: 'Grafana', type: 'http', active: false },
  { id: 5, name: 'External incident management', type: 'external_link', active: false },
];

const CREATED = alertFixture({ iid: 9, title: 'Test alert', integration_id: 3 });

const PREVIEWED = {
  title: 'Test alert',
  description: null,
  severity: 'high',
  started_at: '2024-05-01T10:00:00.000Z',
  ended_at: null,
  service: null,
  monitoring_tool: null,
  hosts: [],
  fingerprint: null,
  grouping_key: null,
  platform_environment_name: null,
  payload: {},
};

function developerApi(routes: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    ...routes,
    'GET /projects/7': { body: PROJECT },
    'GET /projects/7/alerts/status_counts': { body: { triggered: 0, acknowledged: 0, resolved: 0, ignored: 0, open: 0, all: 0 } },
    'GET /projects/7/alerts': { body: [], headers: { 'X-Total': '0' } },
    'GET /projects/7/alert_integrations': { body: INTEGRATIONS },
    'POST /projects/7/alert_integrations/3/test_alert': { body: { message: 'The test alert was processed: alert 9 "Test alert".', alerts: [{ iid: 9, title: 'Test alert' }] } },
    'GET /projects/7/alerts/9': { body: CREATED },
  });
}

/** A developer may read the integration list (id, name, type, status) but not an integration's settings or preview. */
const maintainerOnly = (path: string) => /\/alert_integrations\/\d+(\/preview|\/deliveries)?$/.test(path) || path.endsWith('/parse_sample_payload');

describe('Send test alert for developers (from Monitor > Alerts)', () => {
  it('offers "Send test alert" on the alert list, without asking for any integration settings there', async () => {
    const api = developerApi();
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const link = await screen.findByRole('link', { name: 'Send test alert' });
    expect(link).toHaveAttribute('href', '/projects/7/alerts/test-alert');
    // The empty list reads the integration list (developer+) to say why it is empty; nothing maintainer+.
    await screen.findByText(/To check that an integration works/);
    expect(api.requests.filter((request) => maintainerOnly(request.path))).toEqual([]);
    expect(document.title).toBe('Alerts · acme/web · Alert ingestion');
  });

  it('lists the integrations by name, type and status; only an active HTTP Endpoint takes a test alert', async () => {
    const api = developerApi();
    renderApp('/projects/7/alerts/test-alert', { user: DEVELOPER });
    await screen.findByRole('heading', { name: 'Send test alert', level: 1 });
    const rows = (await screen.findAllByRole('row')).slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Enabled', 'Prometheus', 'HTTP Endpoint', 'Send test alert'],
      ['Disabled', 'Grafana', 'HTTP Endpoint', 'Disabled: a maintainer turns it on first'],
      ['Disabled', 'External incident management', 'External incident management', 'Receives no alerts'],
    ]);
    expect(screen.getByRole('link', { name: 'Send a test alert to Prometheus' })).toHaveAttribute('href', '/projects/7/alerts/test-alert/3');
    expect(document.title).toBe('Send test alert · acme/web · Alert ingestion');
    expect(api.requests.filter((request) => maintainerOnly(request.path))).toEqual([]);
  });

  it("starts a developer from the integration's sample payload, previews it under the integration's mapping, sends it and says what it did", async () => {
    const user = userEvent.setup();
    const sample = { summary: 'Disk almost full', labels: { severity: 'low' } };
    const api = developerApi({
      'GET /projects/7/alert_integrations/3/test_alert': { body: { sample_payload: JSON.stringify(sample), custom_mapping: true } },
      'POST /projects/7/alert_integrations/3/test_alert/preview': { body: { alerts: [{ ...PREVIEWED, title: 'Disk almost full', severity: 'low' }] } },
    });
    renderApp('/projects/7/alerts/test-alert/3', { user: DEVELOPER });
    await screen.findByRole('heading', { name: 'Send test alert: Prometheus', level: 1 });
    expect(document.title).toBe('Send test alert · Prometheus · acme/web · Alert ingestion');
    const field = await screen.findByLabelText('Alert test payload');
    expect(field).toHaveValue(JSON.stringify(sample, null, 2));

    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent('under the saved mapping');
    await waitFor(() => expect(preview).toHaveTextContent('TitleDisk almost full'));
    expect(preview).toHaveTextContent('SeverityLow');
    expect(api.sent('POST /projects/7/alert_integrations/3/test_alert/preview').map((request) => request.body)).toEqual([{ payload: JSON.stringify(sample, null, 2) }]);
    expect(document.body).not.toHaveTextContent(/authorization|alerts\/notify/i);

    await user.click(screen.getByRole('button', { name: 'Send' }));
    const created = await screen.findByText('Created alert', { exact: false });
    expect(created).toHaveTextContent('Created alert #9 Test alert.');
    expect(screen.getByRole('link', { name: '#9 Test alert' })).toHaveAttribute('href', '/projects/7/alerts/9');
    expect(JSON.parse((api.sent('POST /projects/7/alert_integrations/3/test_alert')[0].body as { payload: string }).payload)).toEqual(sample);
    expect(api.requests.filter((request) => maintainerOnly(request.path))).toEqual([]);
  });

  it('starts from the flat example, with the preview without custom mapping, when the integration has no sample payload', async () => {
    developerApi({
      'GET /projects/7/alert_integrations/3/test_alert': { body: { sample_payload: null, custom_mapping: false } },
      'POST /projects/7/alert_integrations/3/test_alert/preview': { body: { alerts: [PREVIEWED] } },
    });
    renderApp('/projects/7/alerts/test-alert/3', { user: DEVELOPER });
    const field = await screen.findByLabelText('Alert test payload');
    expect(JSON.parse((field as HTMLTextAreaElement).value)).toMatchObject({ title: 'Test alert', severity: 'high' });
    expect(screen.getByRole('region', { name: 'Preview' })).toHaveTextContent('no custom mapping');
  });

  it('says when the integration is not one of the project, or takes no test alert', async () => {
    developerApi();
    renderApp('/projects/7/alerts/test-alert/99', { user: DEVELOPER });
    expect(await screen.findByText('This project has no integration 99.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Send test alert' })).toHaveAttribute('href', '/projects/7/alerts/test-alert');
  });

  it('tells a reporter that test alerts need the Developer role, and asks nothing', async () => {
    const api = stubApi({ 'GET /projects/7': { body: { ...PROJECT, access_level: 'reporter' } } });
    renderApp('/projects/7/alerts/test-alert', { user: DEVELOPER });
    expect(await screen.findByText(/Sending a test alert needs the Developer role or higher/)).toBeInTheDocument();
    await waitFor(() => expect(api.requests.map((request) => request.path)).toEqual(['/projects/7']));
  });
});
