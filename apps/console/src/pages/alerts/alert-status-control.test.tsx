import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Alert } from '@console/api/types';
import { alertFixture } from '@console/testing/alert-fixture';
import { Reply, renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 5, username: 'dev', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'developer' };
const COUNTS = { triggered: 1, acknowledged: 0, resolved: 0, ignored: 0, open: 1, all: 1 };

const ALERT: Alert = alertFixture();

/** The alerts API over one alert whose status the PUT changes; `put` may answer otherwise. */
function alertsApi(put?: (status: Alert['status']) => Reply | Promise<Reply>) {
  let status: Alert['status'] = 'triggered';
  const inTab = (tab: string | null) => tab === null || (tab === 'open' ? ['triggered', 'acknowledged'].includes(status) : tab === status);
  return stubApi({
    'GET /projects/7': { body: PROJECT },
    'GET /projects/7/alerts/status_counts': { body: COUNTS },
    'GET /projects/7/alerts': (request) => {
      const rows = inTab(request.query.get('status')) ? [{ ...ALERT, status }] : [];
      return { body: rows, headers: { 'X-Total': String(rows.length) } };
    },
    'GET /projects/7/alerts/2': () => ({ body: { ...ALERT, status } }),
    'PUT /projects/7/alerts/2': async (request) => {
      const wanted = (request.body as { status: Alert['status'] }).status;
      if (put) {
        const reply = await put(wanted);
        if ((reply.status ?? 200) >= 400) return reply;
      }
      status = wanted;
      return { body: { ...ALERT, status } };
    },
  });
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('alert status control (choose, then apply)', () => {
  it('moves the choice without saving, then saves on Enter and keeps the focus on the select', async () => {
    const user = userEvent.setup();
    const api = alertsApi();
    renderApp('/projects/7/alerts?status=all', { user: DEVELOPER });
    const select = await screen.findByLabelText('Status of alert #2');

    // What Chromium does on ArrowDown, twice: the value moves, a change event each time.
    await user.selectOptions(select, 'Acknowledged');
    await user.selectOptions(select, 'Resolved');
    expect(select).toHaveValue('resolved');
    expect(select).toBeEnabled();
    expect(select).toHaveFocus();
    expect(api.sent('PUT /projects/7/alerts/2')).toEqual([]);

    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.sent('PUT /projects/7/alerts/2')).toHaveLength(1));
    expect(api.sent('PUT /projects/7/alerts/2')[0].body).toEqual({ status: 'resolved' });
    const row = select.closest('tr')!;
    await waitFor(() => expect(within(row).getByRole('status')).toHaveTextContent('Alert #2 is now Resolved.'));
    expect(screen.getByLabelText('Status of alert #2')).toHaveFocus();
    expect(screen.getByLabelText('Status of alert #2')).toHaveValue('resolved');
  });

  it('applies with the "Change status" button from the keyboard, busy while saving, focus kept on the button', async () => {
    const user = userEvent.setup();
    const gate = deferred();
    const api = alertsApi(async () => {
      await gate.promise;
      return {};
    });
    renderApp('/projects/7/alerts?status=all', { user: DEVELOPER });
    const select = await screen.findByLabelText('Status of alert #2');
    const button = screen.getByRole('button', { name: 'Change status of alert #2' });
    // Nothing chosen yet: the button says so rather than saving the status the alert already has.
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.click(button);
    expect(api.sent('PUT /projects/7/alerts/2')).toEqual([]);

    await user.selectOptions(select, 'Acknowledged');
    await user.tab();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-disabled', 'false');
    await user.keyboard('{Enter}');

    const group = screen.getByRole('group', { name: 'Status change of alert #2' });
    await waitFor(() => expect(group).toHaveAttribute('aria-busy', 'true'));
    expect(button).toHaveTextContent('Saving…');
    expect(button).toHaveFocus();
    expect(within(group).getByRole('status')).toHaveTextContent('Saving the status of alert #2: Acknowledged…');
    // A second press while saving sends nothing more.
    await user.keyboard('{Enter}');
    gate.resolve();

    await waitFor(() => expect(group).toHaveAttribute('aria-busy', 'false'));
    expect(within(group).getByRole('status')).toHaveTextContent('Alert #2 is now Acknowledged.');
    expect(button).toHaveFocus();
    expect(api.sent('PUT /projects/7/alerts/2')).toHaveLength(1);
  });

  it("shows a refusal next to the control, described by it, with the stored status back in the select, and clears it when the choice changes", async () => {
    const user = userEvent.setup();
    alertsApi(() => ({ status: 403, body: { error: 'insufficient_role', message: 'This needs at least the developer role in the project; you are reporter.' } }));
    renderApp('/projects/7/alerts?status=all', { user: DEVELOPER });
    const select = await screen.findByLabelText('Status of alert #2');
    await user.selectOptions(select, 'Ignored');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(select).toHaveAccessibleDescription('Status not changed: This needs at least the developer role in the project; you are reporter.'));
    const row = select.closest('tr')!;
    expect(within(row).getByRole('alert')).toHaveTextContent('you are reporter');
    // The refused status is not shown as if applied: the select shows the stored one again.
    expect(select).toHaveValue('triggered');
    expect(select).toHaveFocus();

    await user.selectOptions(select, 'Acknowledged');
    expect(within(row).queryByRole('alert')).not.toBeInTheDocument();
    expect(select).not.toHaveAccessibleDescription(expect.stringContaining('reporter'));
  });

  it('moves the focus to a note when the changed alert leaves the tab', async () => {
    const user = userEvent.setup();
    alertsApi();
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const select = await screen.findByLabelText('Status of alert #2');
    await user.selectOptions(select, 'Resolved');
    await user.keyboard('{Enter}');

    const note = await screen.findByText(/Alert #2 is now Resolved: it left the Open tab\./);
    await waitFor(() => expect(note.closest('[tabindex="-1"]')).toHaveFocus());
    await waitFor(() => expect(screen.queryByLabelText('Status of alert #2')).not.toBeInTheDocument());
    expect(within(note.closest('[role="status"]')!).getByRole('link', { name: 'Resolved alerts' })).toHaveAttribute('href', '/projects/7/alerts?status=resolved');
  });

  it('on the alert page: choose, then Enter; the page shows the saved status', async () => {
    const user = userEvent.setup();
    const api = alertsApi();
    renderApp('/projects/7/alerts/2', { user: DEVELOPER });
    const select = await screen.findByLabelText('Status');
    await user.selectOptions(select, 'Acknowledged');
    expect(api.sent('PUT /projects/7/alerts/2')).toEqual([]);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Change status' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('group', { name: 'Status change' })).toHaveTextContent('Alert #2 is now Acknowledged.'));
    expect(api.sent('PUT /projects/7/alerts/2')[0].body).toEqual({ status: 'acknowledged' });
    expect(screen.getByRole('button', { name: 'Change status' })).toHaveFocus();
    expect(select).toHaveValue('acknowledged');
  });
});
