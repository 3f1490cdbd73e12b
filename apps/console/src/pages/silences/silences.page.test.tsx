import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Alert, Silence } from '@console/api/types';
import { renderApp, stubApi } from '@console/testing/render';

const MAINTAINER = { id: 5, username: 'maint', is_admin: false };
const DEVELOPER = { id: 6, username: 'dev', is_admin: false };
const project = (access_level: string) => ({ id: 7, path: 'acme/web', tier: 'premium', access_level });

const SILENCE: Silence = {
  id: 3,
  matchers: [
    { field: 'service', operator: '=', value: 'checkout' },
    { path: ['labels', 'team'], operator: '=~', value: 'stor.*' },
  ],
  starts_at: new Date(Date.now() - 3_600_000).toISOString(),
  ends_at: new Date(Date.now() + 3_600_000).toISOString(),
  comment: 'Replacing disks',
  created_by: { id: 5, username: 'maint' },
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  state: 'active',
};

const ALERT: Alert = {
  iid: 4,
  title: 'Disk full',
  description: null,
  severity: 'high',
  status: 'triggered',
  events: 1,
  started_at: new Date().toISOString(),
  ended_at: null,
  service: 'db',
  monitoring_tool: null,
  hosts: [],
  platform_environment_name: null,
  fingerprint: 'disk-db-1',
  integration_id: 1,
  payload: {},
  silenced_by: null,
  assignees: [],
  incident_iid: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
};

describe('SilencesPage', () => {
  it('lists the active silences with their matchers as Alertmanager writes them, and expires one after confirmation', async () => {
    let expired = false;
    const api = stubApi({
      'GET /projects/7': { body: project('maintainer') },
      'GET /projects/7/silences': () => ({ body: expired ? [] : [SILENCE], headers: { 'X-Total': expired ? '0' : '1' } }),
      'POST /projects/7/silences/3/expire': () => {
        expired = true;
        return { body: { ...SILENCE, state: 'expired', ends_at: new Date().toISOString() } };
      },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/silences', { user: MAINTAINER });

    const row = (await screen.findByText('service="checkout"')).closest('tr')!;
    expect(within(row).getByText('labels.team=~"stor.*"')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).getByText('Replacing disks')).toBeInTheDocument();
    expect(within(row).getByText('maint')).toBeInTheDocument();
    expect(api.sent('GET /projects/7/silences')[0].query.get('state')).toBe('active');

    await user.click(within(row).getByRole('button', { name: 'Expire silence 3' }));
    const dialog = screen.getByRole('dialog', { name: 'Expire this silence?' });
    await user.click(within(dialog).getByRole('button', { name: 'Expire silence' }));
    await waitFor(() => expect(api.sent('POST /projects/7/silences/3/expire')).toHaveLength(1));
    expect(await screen.findByText('No active silences.')).toBeInTheDocument();
  });

  it('filters by state with tabs, and offers a developer no way to change silences', async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/silences': { body: [{ ...SILENCE, state: 'expired' }], headers: { 'X-Total': '1' } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/silences', { user: DEVELOPER });
    await screen.findByText('service="checkout"');
    await user.click(within(screen.getByRole('navigation', { name: 'Silence state' })).getByRole('link', { name: 'Expired' }));
    await waitFor(() => expect(api.sent('GET /projects/7/silences').map((request) => request.query.get('state'))).toContain('expired'));
    expect(screen.queryByRole('link', { name: 'New silence' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Expire/ })).not.toBeInTheDocument();
  });
});

describe('SilenceFormPage', () => {
  it('opens from "Silence similar" prefilled with the fingerprint of the alert, and creates the silence', { timeout: 20_000 }, async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('maintainer') },
      'GET /projects/7/alerts/4': { body: ALERT },
      'POST /projects/7/silences': (request) => ({ status: 201, body: { ...SILENCE, ...(request.body as object), id: 9 } }),
      'GET /projects/7/silences': { body: [], headers: { 'X-Total': '0' } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/alerts/4', { user: MAINTAINER });
    await user.click(await screen.findByRole('link', { name: 'Silence similar' }));

    const matcher = await screen.findByRole('group', { name: 'Matcher 1' });
    expect(within(matcher).getByLabelText('On')).toHaveValue('fingerprint');
    expect(within(matcher).getByLabelText('Operator')).toHaveValue('=');
    expect(within(matcher).getByLabelText('Value')).toHaveValue('disk-db-1');

    await user.click(screen.getByRole('button', { name: 'Add matcher' }));
    const second = screen.getByRole('group', { name: 'Matcher 2' });
    await user.selectOptions(within(second).getByLabelText('On'), 'Payload path…');
    await user.type(within(second).getByLabelText('Path'), 'labels.team');
    await user.selectOptions(within(second).getByLabelText('Operator'), '!=');
    await user.type(within(second).getByLabelText('Value'), 'web');
    await user.type(screen.getByLabelText('Comment'), 'Disk swap');
    await user.click(screen.getByRole('button', { name: 'Create silence' }));

    await waitFor(() => expect(api.sent('POST /projects/7/silences')).toHaveLength(1));
    const body = api.sent('POST /projects/7/silences')[0].body as Record<string, unknown>;
    expect(body).toEqual({
      matchers: [
        { field: 'fingerprint', operator: '=', value: 'disk-db-1' },
        { path: ['labels', 'team'], operator: '!=', value: 'web' },
      ],
      ends_at: expect.any(String),
      comment: 'Disk swap',
    });
    expect(new Date(body.ends_at as string).getTime()).toBeGreaterThan(Date.now());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/projects/7/silences'));
  });

  it("shows the API's refusal at its field, in plain words, focused, until the field changes", { timeout: 20_000 }, async () => {
    stubApi({
      'GET /projects/7': { body: project('maintainer') },
      'POST /projects/7/silences': {
        status: 400,
        body: { error: 'validation_failed', message: 'matchers[0]: This is not a valid regular expression (RE2 syntax): a ( is not closed.', field: 'matchers[0].value' },
      },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/silences/new', { user: MAINTAINER });
    const matcher = await screen.findByRole('group', { name: 'Matcher 1' });
    await user.selectOptions(within(matcher).getByLabelText('Operator'), '=~');
    await user.type(within(matcher).getByLabelText('Value'), 'Disk (full');
    await user.type(screen.getByLabelText('Comment'), 'x');
    await user.click(screen.getByRole('button', { name: 'Create silence' }));
    const value = within(matcher).getByLabelText('Value');
    await waitFor(() => expect(value).toHaveAttribute('aria-invalid', 'true'));
    expect(value).toHaveAccessibleDescription('This is not a valid regular expression (RE2 syntax): a ( is not closed.');
    expect(value).toHaveFocus();
    expect(screen.getByTestId('location')).toHaveTextContent('/projects/7/silences/new');
    await user.type(value, ')');
    expect(value).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText(/not a valid regular expression/)).not.toBeInTheDocument();
  });

  it('checks the form itself first: an empty value and an empty comment, at their fields, without the browser bubbles', { timeout: 20_000 }, async () => {
    const api = stubApi({ 'GET /projects/7': { body: project('maintainer') } });
    const user = userEvent.setup();
    renderApp('/projects/7/silences/new', { user: MAINTAINER });
    const matcher = await screen.findByRole('group', { name: 'Matcher 1' });
    await user.click(screen.getByRole('button', { name: 'Create silence' }));
    const value = within(matcher).getByLabelText('Value');
    expect(value).toHaveAccessibleDescription(/would silence every alert/);
    expect(value).toHaveFocus();
    expect(screen.getByLabelText('Comment')).toHaveAccessibleDescription(/^Say why alerts are silenced/);
    expect(api.sent('POST /projects/7/silences')).toHaveLength(0);
  });

  it('tells a developer before the form that only maintainers and owners create silences', async () => {
    stubApi({ 'GET /projects/7': { body: project('developer') } });
    renderApp('/projects/7/silences/new', { user: DEVELOPER });
    expect(await screen.findByText('Only maintainers and owners can create silences.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create silence' })).not.toBeInTheDocument();
  });
});

describe('silenced alerts', () => {
  const silencedBy = { id: 3, comment: 'Replacing disks', ends_at: SILENCE.ends_at };
  const COUNTS = { triggered: 1, acknowledged: 0, resolved: 0, ignored: 0, open: 1, all: 1 };

  it('carry a badge in the alerts list, which filters on ?silenced=', async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [{ ...ALERT, silenced_by: silencedBy }], headers: { 'X-Total': '1' } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const row = (await screen.findByRole('link', { name: '#4 Disk full' })).closest('tr')!;
    expect(within(row).getByRole('link', { name: /Silenced/ })).toHaveAttribute('title', expect.stringMatching(/Replacing disks$/));
    await user.selectOptions(screen.getByLabelText('Silenced alerts'), 'Silenced only');
    await waitFor(() => expect(api.sent('GET /projects/7/alerts').map((request) => request.query.get('silenced'))).toContain('true'));
    expect(screen.getByTestId('location')).toHaveTextContent('silenced=true');
  });

  it('carry a badge and the silence on the detail page; a developer is not offered "Silence similar"', async () => {
    stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/alerts/4': { body: { ...ALERT, silenced_by: silencedBy } },
    });
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    expect(await screen.findByRole('link', { name: /Silenced/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Silence 3' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Silence similar' })).not.toBeInTheDocument();
  });
});
