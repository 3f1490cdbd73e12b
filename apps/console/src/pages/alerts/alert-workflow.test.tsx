import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ActivityEntry, Alert } from '@console/api/types';
import { alertFixture } from '@console/testing/alert-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 5, username: 'dev', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'developer' };
const REPORTER_PROJECT = { ...PROJECT, access_level: 'reporter' };
const NOW = new Date().toISOString();

const alert = (iid: number, fields: Partial<Alert> = {}): Alert => alertFixture({ iid, title: `Alert ${iid}`, ...fields });

const COUNTS = { triggered: 2, acknowledged: 0, resolved: 1, ignored: 0, open: 2, all: 3 };

const entry = (id: number, kind: ActivityEntry['kind'], changes: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id,
  kind,
  created_at: NOW,
  actor: { type: 'service' },
  source: 'payload',
  reason: null,
  details: {},
  ...changes,
});

describe('the alert list: assignees, the assignee filter and "Acknowledge selected"', () => {
  it('shows each alert\'s assignees, and asks the API for the caller\'s alerts when "Assigned to me" is chosen', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [alert(2, { assignees: [{ id: 5, username: 'dev' }, { id: 6, username: 'ops' }] }), alert(1)], headers: { 'X-Total': '2' } },
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const row = (await screen.findByRole('link', { name: '#2 Alert 2' })).closest('tr')!;
    expect(row.querySelector('td.assignee')).toHaveTextContent('@dev, @ops');
    expect(within(screen.getByRole('link', { name: '#1 Alert 1' }).closest('tr')!).getByText('Unassigned')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Assignee' })).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Assigned to me');
    await waitFor(() => expect(api.sent('GET /projects/7/alerts').at(-1)?.query.get('assignee_id')).toBe('me'));
    expect(api.sent('GET /projects/7/alerts')[0].query.get('assignee_id')).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Unassigned');
    await waitFor(() => expect(api.sent('GET /projects/7/alerts').at(-1)?.query.get('assignee_id')).toBe('none'));
  });

  it('shows three assignees and "+N" for the rest, every name in its tooltip', async () => {
    const many = Array.from({ length: 17 }, (_, index) => ({ id: index + 1, username: `member${index + 1}` }));
    stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [alert(2, { assignees: many })], headers: { 'X-Total': '1' } },
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const row = (await screen.findByRole('link', { name: '#2 Alert 2' })).closest('tr')!;
    const cell = row.querySelector('td.assignee')!;
    expect(cell).toHaveTextContent('@member1, @member2, @member3, +14');
    expect(within(row).getByText('+14')).toHaveAttribute('title', many.map((member) => `@${member.username}`).join(', '));
  });

  it('sorts and filters by the API: the choice is kept in the address and sent as sort, order and severity', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [alert(1)], headers: { 'X-Total': '1' } },
    });
    renderApp('/projects/7/alerts?sort=severity&order=desc', { user: DEVELOPER });
    await screen.findByRole('link', { name: '#1 Alert 1' });
    expect(api.sent('GET /projects/7/alerts')[0].query.get('sort')).toBe('severity');
    expect(screen.getByRole('combobox', { name: 'Sort' })).toHaveValue('severity:desc');
    expect(screen.getByRole('columnheader', { name: 'Severity' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('checkbox', { name: 'Critical' }));
    await user.click(screen.getByRole('checkbox', { name: 'High' }));
    await waitFor(() => expect(api.sent('GET /projects/7/alerts').at(-1)?.query.get('severity')).toBe('critical,high'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'Fewest events first');
    await waitFor(() => expect(api.sent('GET /projects/7/alerts').at(-1)?.query.toString()).toMatch(/sort=events&order=asc/));
  });

  it('acknowledges the ticked alerts at once and says which were left as they were', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [alert(3), alert(2), alert(1)], headers: { 'X-Total': '3' } },
      'POST /projects/7/alerts/bulk_update': { body: { updated: [3], skipped: [{ iid: 1, reason: 'resolved' }] } },
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const button = await screen.findByRole('button', { name: 'Acknowledge selected' });
    expect(button).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: 'Select alert #3' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select alert #1' }));
    await user.click(screen.getByRole('button', { name: 'Acknowledge selected (2)' }));
    expect(await screen.findByText('Acknowledged 1 alert; left as they were: #1 (resolved, not reopened).')).toBeInTheDocument();
    expect(api.sent('POST /projects/7/alerts/bulk_update')[0].body).toEqual({ iids: [3, 1], status: 'acknowledged' });
    expect(screen.getByRole('checkbox', { name: 'Select alert #3' })).not.toBeChecked();

    await user.click(screen.getByRole('checkbox', { name: 'Select all alerts shown' }));
    expect(screen.getByRole('button', { name: 'Acknowledge selected (3)' })).toBeEnabled();
  });

  it('offers no boxes to a role that may not change alerts', async () => {
    stubApi({
      'GET /projects/7': { body: REPORTER_PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [alert(1)], headers: { 'X-Total': '1' } },
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    await screen.findByRole('link', { name: '#1 Alert 1' });
    expect(screen.queryByRole('button', { name: /Acknowledge selected/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select alert #1' })).not.toBeInTheDocument();
  });
});

describe('the alert page: assignees, activity and notes', () => {
  const pageApi = (overrides: Parameters<typeof stubApi>[0] = {}) =>
    stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/4': { body: alert(4, { assignees: [{ id: 6, username: 'ops' }] }) },
      'GET /projects/7/alerts/assignee_candidates': {
        body: [
          { id: 5, username: 'dev', access_level: 'developer' },
          { id: 6, username: 'ops', access_level: 'maintainer' },
        ],
      },
      'GET /projects/7/alerts/4/activity': { body: [], headers: { 'X-Total': '0' } },
      ...overrides,
    });

  it('sets the assignees among the candidates only when saved', async () => {
    const user = userEvent.setup();
    const api = pageApi({ 'PUT /projects/7/alerts/4/assignees': { body: alert(4, { assignees: [{ id: 5, username: 'dev' }] }) } });
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    expect(await screen.findByText('@ops')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit assignees' }));
    const choice = await screen.findByRole('group', { name: 'Assign alert #4 to' });
    await user.click(await within(choice).findByRole('checkbox', { name: /@dev/ }));
    await user.click(within(choice).getByRole('checkbox', { name: /@ops/ }));
    expect(api.sent('PUT /projects/7/alerts/4/assignees')).toHaveLength(0);
    await user.click(within(choice).getByRole('button', { name: 'Save assignees' }));
    expect(await screen.findByText('Alert #4 is assigned to @dev.')).toBeInTheDocument();
    expect(api.sent('PUT /projects/7/alerts/4/assignees')[0].body).toEqual({ assignee_ids: [5] });
  });

  it('shows the timeline oldest first in words, and a note in Markdown without rendering its HTML', async () => {
    pageApi({
      'GET /projects/7/alerts/4/activity': {
        body: [
          entry(0, 'alert_created', { details: { integration_id: 1, integration_name: 'Prometheus' } }),
          entry(0, 'events_grouped', { details: { count: 3, first_at: NOW, last_at: NOW } }),
          entry(8, 'status_changed', { actor: { type: 'user', id: 5, username: 'dev' }, source: 'api', details: { from: 'triggered', to: 'acknowledged' } }),
          entry(9, 'assignees_changed', { actor: { type: 'user', id: 5, username: 'dev' }, source: 'api', details: { added: [{ id: 5, username: 'dev' }], removed: [] } }),
          entry(10, 'status_changed', { details: { from: 'acknowledged', to: 'resolved', integration_id: 2 } }),
          entry(11, 'note', {
            actor: { type: 'user', id: 5, username: 'dev' },
            source: 'api',
            details: { body: 'Rolled back **v2.3**\n\n<img src=x onerror="alert(1)"><script>alert(2)</script>' },
          }),
        ],
        headers: { 'X-Total': '6' },
      },
    });
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    const timeline = await screen.findByRole('list', { name: 'Activity of alert #4' });
    const items = await within(timeline).findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.timeline-text')?.textContent)).toEqual([
      'Created by a payload of integration “Prometheus”.',
      expect.stringMatching(/^3 more events grouped into this alert, the latest /),
      '@dev changed the status from Triggered to Acknowledged.',
      '@dev assigned @dev.',
      // An integration deleted since is named by its id.
      'A payload of integration 2 changed the status from Acknowledged to Resolved.',
      expect.stringContaining('@dev wrote:'),
    ]);
    const note = items[5];
    // The Markdown renderer is loaded with the first note: the note shows once it is there.
    expect((await within(note).findByText('v2.3')).tagName).toBe('STRONG');
    expect(note.querySelector('img, script')).toBeNull();
    expect(note.textContent).toContain('<script>alert(2)</script>');
  });

  it('adds a note, refusing an empty one beside the field, and shows the API\'s refusal there too', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const api = pageApi({
      'POST /projects/7/alerts/4/notes': () =>
        refuse
          ? { status: 400, body: { error: 'validation_failed', message: 'body must not be blank', field: 'body' } }
          : { status: 201, body: entry(12, 'note', { details: { body: 'ok' } }) },
    });
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    const field = await screen.findByRole('textbox', { name: 'Note' });
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Write the note first: it cannot be empty.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(api.sent('POST /projects/7/alerts/4/notes')).toHaveLength(0);

    await user.type(field, 'Looking into it');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText(/body must not be blank/)).toBeInTheDocument();
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(field).toHaveValue(''));
    expect(api.sent('POST /projects/7/alerts/4/notes').map((request) => request.body)).toEqual([{ body: 'Looking into it' }, { body: 'Looking into it' }]);
  });

  it('shows a reporter the assignees and the timeline, without the controls', async () => {
    pageApi({ 'GET /projects/7': { body: REPORTER_PROJECT } });
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    expect(await screen.findByText('@ops')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit assignees' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Note' })).not.toBeInTheDocument();
  });
});
