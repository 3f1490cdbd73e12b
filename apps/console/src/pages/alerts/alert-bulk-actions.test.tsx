import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Alert } from '@console/api/types';
import { alertFixture } from '@console/testing/alert-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 5, username: 'dev', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'developer' };
const COUNTS = { triggered: 2, acknowledged: 1, resolved: 0, ignored: 0, open: 3, all: 3 };
const INCIDENT = { iid: 3, title: 'Checkout down', severity: 'critical', status: 'open', alert_iids: [], created_at: '2026-11-28T10:00:00.000Z' };

/** A project of three open alerts whose changes the stub keeps, as the API would. */
function triageApi() {
  const alerts = new Map<number, Alert>([
    [3, alertFixture({ iid: 3, title: 'Alert 3', status: 'triggered' })],
    [2, alertFixture({ iid: 2, title: 'Alert 2', status: 'acknowledged', assignees: [{ id: 6, username: 'ops' }] })],
    [1, alertFixture({ iid: 1, title: 'Alert 1', status: 'triggered' })],
  ]);
  const routes = {
    'GET /projects/7': { body: PROJECT },
    'GET /projects/7/alerts/status_counts': { body: COUNTS },
    'GET /projects/7/alerts': () => ({ body: [...alerts.values()], headers: { 'X-Total': String(alerts.size) } }),
    'GET /projects/7/alerts/assignee_candidates': { body: [{ id: 5, username: 'dev', access_level: 'developer' }, { id: 6, username: 'ops', access_level: 'developer' }] },
    'GET /projects/7/incidents': { body: [INCIDENT], headers: { 'X-Total': '1' } },
  } as Record<string, unknown>;
  // Acknowledges the triggered ones, assigning the acknowledger where nobody was, as the API does.
  routes['POST /projects/7/alerts/bulk_update'] = (request: { body: { iids: number[] } }) => {
    const updated = request.body.iids.filter((iid) => alerts.get(iid)?.status === 'triggered');
    for (const iid of updated) {
      const alert = alerts.get(iid)!;
      alerts.set(iid, { ...alert, status: 'acknowledged', assignees: alert.assignees.length > 0 ? alert.assignees : [{ id: 5, username: 'dev' }] });
    }
    return { body: { updated, skipped: request.body.iids.filter((iid) => !updated.includes(iid)).map((iid) => ({ iid, reason: 'unchanged' })) } };
  };
  for (const iid of alerts.keys()) {
    routes[`PUT /projects/7/alerts/${iid}`] = (request: { body: { status: Alert['status'] } }) => {
      const changed = { ...alerts.get(iid)!, status: request.body.status };
      alerts.set(iid, changed);
      return { body: changed };
    };
    routes[`PUT /projects/7/alerts/${iid}/assignees`] = (request: { body: { assignee_ids: number[] } }) => {
      const names: Record<number, string> = { 5: 'dev', 6: 'ops' };
      const changed = { ...alerts.get(iid)!, assignees: request.body.assignee_ids.map((id) => ({ id, username: names[id] })) };
      alerts.set(iid, changed);
      return { body: changed };
    };
    routes[`POST /projects/7/incidents/3/alerts`] = () => ({ body: INCIDENT });
  }
  return stubApi(routes as Parameters<typeof stubApi>[0]);
}

/** The alerts list of triageApi's project, as its developer sees it, with alerts `iids` ticked; returns the bulk bar. */
async function withTicked(...iids: number[]) {
  const user = userEvent.setup();
  const api = triageApi();
  renderApp('/projects/7/alerts?status=all', { user: DEVELOPER });
  await screen.findByRole('link', { name: '#3 Alert 3' });
  for (const iid of iids) await user.click(screen.getByRole('checkbox', { name: `Select alert #${iid}` }));
  return { user, api, bar: screen.getByRole('region', { name: 'Selected alerts' }) };
}

describe('the bulk bar', () => {
  it('resolves the ticked alerts, and Undo puts each back to its status before (acknowledged through triggered)', async () => {
    const { user, api, bar } = await withTicked(3, 2);
    expect(bar).toHaveTextContent('2 selected');
    await user.click(within(bar).getByRole('button', { name: 'Resolve selected (2)' }));
    await within(bar).findByText('2 alerts (#3, #2) resolved.');
    expect(api.sent('PUT /projects/7/alerts/3').map((request) => request.body)).toEqual([{ status: 'resolved' }]);
    expect(api.sent('PUT /projects/7/alerts/2').map((request) => request.body)).toEqual([{ status: 'resolved' }]);

    await user.click(within(bar).getByRole('button', { name: 'Undo' }));
    await within(bar).findByText('Undone: 2 alerts (#3, #2) are Triggered or Acknowledged again.');
    expect(api.sent('PUT /projects/7/alerts/3').map((request) => request.body)).toEqual([{ status: 'resolved' }, { status: 'triggered' }]);
    expect(api.sent('PUT /projects/7/alerts/2').map((request) => request.body)).toEqual([{ status: 'resolved' }, { status: 'triggered' }, { status: 'acknowledged' }]);
  });

  it('acknowledges the ticked alerts in one call, and Undo puts each back to triggered with its assignees before', async () => {
    const { user, api, bar } = await withTicked(3, 2);
    await user.click(within(bar).getByRole('button', { name: 'Acknowledge selected (2)' }));
    await within(bar).findByText('Acknowledged 1 alert; left as they were: #2 (already acknowledged).');
    expect(api.sent('POST /projects/7/alerts/bulk_update').map((request) => request.body)).toEqual([{ iids: [3, 2], status: 'acknowledged' }]);

    await user.click(within(bar).getByRole('button', { name: 'Undo' }));
    await within(bar).findByText('Undone: Alert #3 is Triggered again.');
    expect(api.sent('PUT /projects/7/alerts/3').map((request) => request.body)).toEqual([{ status: 'triggered' }]);
    expect(api.sent('PUT /projects/7/alerts/3/assignees').map((request) => request.body)).toEqual([{ assignee_ids: [] }]);
    expect(api.sent('PUT /projects/7/alerts/2')).toEqual([]);
  });

  it('assigns the ticked alerts to a member, each keeping its assignees, and links them to an open incident', async () => {
    const { user, api, bar } = await withTicked(3, 2);
    await waitFor(() => expect(within(bar).getByRole('option', { name: '@dev' })).toBeInTheDocument());
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Member to assign the selected alerts to' }), '@dev');
    await user.click(within(bar).getByRole('button', { name: 'Assign selected' }));
    await within(bar).findByText('Assigned 2 alerts to @dev.');
    expect(api.sent('PUT /projects/7/alerts/3/assignees')[0].body).toEqual({ assignee_ids: [5] });
    expect(api.sent('PUT /projects/7/alerts/2/assignees')[0].body).toEqual({ assignee_ids: [6, 5] });

    await user.click(screen.getByRole('checkbox', { name: 'Select alert #1' }));
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Open incident to link the selected alerts to' }), '#3 Checkout down');
    await user.click(within(bar).getByRole('button', { name: 'Link to incident' }));
    await within(bar).findByText(/Linked 1 alert to/);
    expect(api.sent('POST /projects/7/incidents/3/alerts').map((request) => request.body)).toEqual([{ alert_iid: 1 }]);
  });
});
