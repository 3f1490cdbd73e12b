import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Alert } from '@console/api/types';
import { alertFixture } from '@console/testing/alert-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 5, username: 'dev', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'developer' };

const ALERT: Alert = alertFixture({ events: 2, started_at: new Date(Date.now() - 5 * 60_000).toISOString(), created_at: new Date().toISOString() });

const COUNTS = { triggered: 1, acknowledged: 0, resolved: 3, ignored: 0, open: 1, all: 4 };

describe('AlertsPage', () => {
  it('shows the status tabs with counts and the alerts with severity, start time, #iid title, events and status', async () => {
    const api = stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': (request) => ({
        body: request.query.get('status') === 'open' ? [ALERT] : [],
        headers: { 'X-Total': request.query.get('status') === 'open' ? '1' : '0', 'X-Next-Page': '' },
      }),
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });

    const row = (await screen.findByRole('link', { name: '#2 Disk full' })).closest('tr')!;
    expect(within(row).getByText('High')).toBeInTheDocument();
    // The start time in one short word that never wraps, exact on hover.
    expect(within(row).getByText('5m')).toHaveAttribute('title', expect.stringMatching(/\d{4}/));
    expect(within(row).getAllByRole('cell')[4]).toHaveTextContent('2');
    expect(within(row).getByLabelText('Status of alert #2')).toHaveValue('triggered');

    const tabs = screen.getByRole('navigation', { name: 'Alert status' });
    expect(within(tabs).getAllByRole('link').map((link) => link.textContent)).toEqual(['Open 1', 'Triggered 1', 'Acknowledged 0', 'Resolved 3', 'All 4']);
    const current = within(tabs).getAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Open 1']);
    // The Open tab is the API's own filter (triggered and acknowledged): one request, no merge here.
    expect(api.sent('GET /projects/7/alerts').map((request) => request.query.get('status'))).toEqual(['open']);
    // A developer is not offered the integration settings, and nothing asks for them (which would be a 403).
    expect(screen.queryByRole('link', { name: 'Monitor › Alerts' })).not.toBeInTheDocument();
    expect(api.requests.some((request) => request.path.includes('alert_integrations'))).toBe(false);
  });

  it('changes an alert status in place and reads the list again', async () => {
    const user = userEvent.setup();
    let status: Alert['status'] = 'triggered';
    const api = stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': () => ({ body: [{ ...ALERT, status }], headers: { 'X-Total': '1' } }),
      'PUT /projects/7/alerts/2': (request) => {
        status = (request.body as { status: Alert['status'] }).status;
        return { body: { ...ALERT, status } };
      },
    });
    renderApp('/projects/7/alerts?status=all', { user: DEVELOPER });
    await user.selectOptions(await screen.findByLabelText('Status of alert #2'), 'Acknowledged');
    await user.click(screen.getByRole('button', { name: 'Change status of alert #2' }));
    await waitFor(() => expect(screen.getByLabelText('Status of alert #2')).toHaveValue('acknowledged'));
    expect(api.sent('PUT /projects/7/alerts/2')[0].body).toEqual({ status: 'acknowledged' });
  });

  it("shows the API's message when the role is too low", async () => {
    stubApi({
      'GET /projects/7': { body: { ...PROJECT, access_level: 'reporter' } },
      'GET /projects/7/alerts/status_counts': { status: 403, body: { error: 'forbidden', message: 'Developer access or more to project 7 is required.' } },
      'GET /projects/7/alerts': { status: 403, body: { error: 'forbidden', message: 'Developer access or more to project 7 is required.' } },
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    expect((await screen.findAllByText(/Developer access or more to project 7 is required/)).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Alerts' })).not.toBeInTheDocument();
  });
});

describe('session', () => {
  it('goes back to sign-in with the reason when the API answers 401', async () => {
    stubApi({ 'GET /projects': { status: 401, body: { error: 'unauthorized', message: 'The token has been revoked.' } } });
    renderApp('/projects', { user: DEVELOPER });
    expect(await screen.findByText('You were signed out: The token has been revoked.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/sign-in');
    expect(screen.getByLabelText('Access token')).toBeInTheDocument();
  });

  describe('an empty list says why, for its case', () => {
    const EMPTY = { triggered: 0, acknowledged: 0, resolved: 0, ignored: 0, open: 0, all: 0 };
    const emptyApi = (integrations: unknown[], counts = EMPTY, role = 'developer') =>
      stubApi({
        'GET /projects/7': { body: { ...PROJECT, access_level: role } },
        'GET /projects/7/alerts/status_counts': { body: counts },
        'GET /projects/7/alerts': { body: [], headers: { 'X-Total': '0' } },
        'GET /projects/7/alert_integrations': { body: integrations },
      });

    it('with no integration: how to add one for a maintainer, whom to ask for a developer', async () => {
      emptyApi([], EMPTY, 'maintainer');
      const maintainer = renderApp('/projects/7/alerts', { user: DEVELOPER });
      expect(await screen.findByText('No alerts yet: this project has no integration to receive them.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Settings › Monitor › Alerts' })).toHaveAttribute('href', '/projects/7/settings/alerts');
      maintainer.unmount();

      emptyApi([{ id: 1, name: 'Link', type: 'external_link', active: true }]);
      renderApp('/projects/7/alerts', { user: DEVELOPER });
      expect(await screen.findByText('No alerts yet: this project has no integration to receive them.')).toBeInTheDocument();
      expect(screen.getByText(/Ask a maintainer or owner of the project to add one/)).toBeInTheDocument();
      expect(screen.queryByText(/set one up|Settings/)).not.toBeInTheDocument();
    });

    it('with integrations but no open alert: says none is open, and links the tabs that have some and the test alert', async () => {
      emptyApi([{ id: 1, name: 'Prometheus', type: 'http', active: true }], { ...EMPTY, resolved: 3, all: 3 });
      renderApp('/projects/7/alerts', { user: DEVELOPER });
      expect(await screen.findByText('There are no open alerts: none is triggered or acknowledged.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Resolved (3)' })).toHaveAttribute('href', '/projects/7/alerts?status=resolved');
      expect(screen.getByRole('link', { name: 'All alerts (3)' })).toHaveAttribute('href', '/projects/7/alerts?status=all');
      expect(screen.getByRole('link', { name: 'send a test alert' })).toHaveAttribute('href', '/projects/7/alerts/test-alert');
      expect(screen.queryByText(/set one up|no integration/)).not.toBeInTheDocument();
    });

    it('with a search that matches nothing: says so, and offers the search over all alerts', async () => {
      emptyApi([{ id: 1, name: 'Prometheus', type: 'http', active: true }]);
      renderApp('/projects/7/alerts?search=disk', { user: DEVELOPER });
      expect(await screen.findByText('No open alert matches “disk”.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Search all alerts' })).toHaveAttribute('href', '/projects/7/alerts?status=all&search=disk');
      expect(screen.queryByText(/integration/)).not.toBeInTheDocument();
    });
  });
});
