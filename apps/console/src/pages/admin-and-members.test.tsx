import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, stubApi } from '@console/testing/render';

const OWNER = { id: 2, username: 'olga', is_admin: false };
const MEMBERS = [
  { user_id: 2, username: 'olga', access_level: 'owner' },
  { user_id: 5, username: 'dev', access_level: 'developer' },
];

describe('admin page', () => {
  it('creates a user and shows the token once, with a copy button', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /projects': { body: [], headers: { 'X-Total': '0' } },
      'POST /users': { status: 201, body: { id: 12, username: 'dana', token: 'aipat-once' } },
    });
    renderApp('/admin');
    await user.type(screen.getByLabelText('Username'), 'dana');
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByLabelText('Personal access token')).toHaveTextContent('aipat-once');
    expect(screen.getByText(/user ID/)).toHaveTextContent('user ID 12');
    expect(screen.getByText(/shown\s+only now/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the personal access token' })).toBeInTheDocument();
    expect(api.sent('POST /users')[0].body).toEqual({ username: 'dana' });
    expect(screen.getByLabelText('Username')).toHaveValue('');
  });

  it('creates a project with its tier, and shows why a path is refused', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /projects': { body: [], headers: { 'X-Total': '0' } },
      'POST /projects': (request) =>
        (request.body as { path: string }).path === 'taken'
          ? { status: 409, body: { error: 'path_taken', message: 'A project with the path "taken" exists.' } }
          : { status: 201, body: { id: 3, ...(request.body as object) } },
    });
    renderApp('/admin');
    await user.type(screen.getByLabelText('Path'), 'taken');
    await user.click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText(/A project with the path "taken" exists\./)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Path'));
    await user.type(screen.getByLabelText('Path'), 'acme/web');
    await user.selectOptions(screen.getByLabelText('Tier'), 'Free');
    await user.click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByRole('link', { name: 'acme/web' })).toHaveAttribute('href', '/projects/3/settings/alerts');
    expect(api.sent('POST /projects')[1].body).toEqual({ path: 'acme/web', tier: 'free' });
  });

  it('is not offered to users', async () => {
    stubApi({});
    renderApp('/admin', { user: OWNER });
    expect(screen.getByRole('alert')).toHaveTextContent('Only the administrator may create users and projects.');
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Username')).not.toBeInTheDocument();
  });
});

describe('members page', () => {
  it('lets the owner add a member, change a role and remove a member after confirming', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /projects/7': { body: { id: 7, path: 'acme/web', tier: 'premium', access_level: 'owner' } },
      'GET /projects/7/members': { body: MEMBERS },
      'GET /projects/7/members/candidates': { body: [{ id: 9, username: 'maria' }, { id: 10, username: 'mario' }] },
      'POST /projects/7/members': { status: 201, body: { user_id: 9, username: 'maria', access_level: 'maintainer' } },
      'PUT /projects/7/members/5': { body: { ...MEMBERS[1], access_level: 'maintainer' } },
      'DELETE /projects/7/members/5': { status: 204 },
    });
    renderApp('/projects/7/members', { user: OWNER });

    const add = await screen.findByRole('button', { name: 'Add member' });
    await user.click(add);
    const username = screen.getByRole('combobox', { name: 'Username' });
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(username).toHaveFocus();
    expect(username).toHaveAccessibleDescription(/Enter the username/);
    await user.type(username, 'mar');
    expect(username).toHaveAttribute('aria-invalid', 'false');
    expect(await screen.findByRole('option', { name: 'mario' })).toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('option', { name: 'maria' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(username).toHaveValue('maria');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Role'), 'Maintainer');
    await user.click(add);
    await waitFor(() => expect(api.sent('POST /projects/7/members')).toHaveLength(1));
    expect(api.sent('POST /projects/7/members')[0].body).toEqual({ user_id: 9, access_level: 'maintainer' });
    expect(await screen.findByText('maria added as maintainer.')).toBeInTheDocument();

    await user.selectOptions(await screen.findByLabelText('Role of dev'), 'Maintainer');
    expect(api.sent('PUT /projects/7/members/5')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Change role of dev' }));
    await waitFor(() => expect(api.sent('PUT /projects/7/members/5')[0]?.body).toEqual({ access_level: 'maintainer' }));
    expect(await screen.findByText('dev is now maintainer.')).toBeInTheDocument();
    expect(screen.queryByText('maria added as maintainer.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove dev' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove member' });
    expect(api.sent('DELETE /projects/7/members/5')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    await waitFor(() => expect(api.sent('DELETE /projects/7/members/5')).toHaveLength(1));
  });

  it('shows a maintainer the members without the controls only owners may use', async () => {
    stubApi({
      'GET /projects/7': { body: { id: 7, path: 'acme/web', tier: 'premium', access_level: 'maintainer' } },
      'GET /projects/7/members': { body: MEMBERS },
    });
    renderApp('/projects/7/members', { user: { ...OWNER, username: 'mia' } });
    expect(await screen.findByRole('cell', { name: 'dev' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });
});
