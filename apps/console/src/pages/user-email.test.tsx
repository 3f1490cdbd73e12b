import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, stubApi } from '@console/testing/render';

const MARIA = { id: 2, username: 'maria', is_admin: false };

describe('profile page: your own email address', () => {
  it('shows the stored address, checks a new one at the field, saves it and says where alert emails go', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /user': { body: { ...MARIA, email: 'maria@example.com' } },
      'PUT /user': (request) => ({ body: { id: 2, username: 'maria', email: (request.body as { email: string }).email.toLowerCase() } }),
    });
    renderApp('/profile', { user: MARIA });
    const field = await screen.findByLabelText('Email address');
    await waitFor(() => expect(field).toHaveValue('maria@example.com'));

    await user.clear(field);
    await user.type(field, 'maria at example');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/Enter an email address, such as jane@example\.com\./);
    expect(field).toHaveFocus();
    expect(api.sent('PUT /user')).toEqual([]);

    await user.clear(field);
    await user.type(field, 'Maria.R@Example.com');
    expect(field).toHaveAttribute('aria-invalid', 'false');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved: alert emails go to maria.r@example.com.')).toHaveAttribute('role', 'status');
    expect(api.sent('PUT /user')[0].body).toEqual({ email: 'Maria.R@Example.com' });
  });

  it('clears the address when the field is emptied, and shows a taken address at the field', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /user': { body: { ...MARIA, email: 'maria@example.com' } },
      'PUT /user': (request) =>
        (request.body as { email: string | null }).email === 'olga@example.com'
          ? { status: 409, body: { error: 'email_taken', message: 'The email address olga@example.com belongs to another user.', field: 'email' } }
          : { body: { id: 2, username: 'maria', email: null } },
    });
    renderApp('/profile', { user: MARIA });
    const field = await screen.findByLabelText('Email address');
    await waitFor(() => expect(field).toHaveValue('maria@example.com'));
    await user.clear(field);
    await user.type(field, 'olga@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(/belongs to another user/));

    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/you have no email address, so you get no alert emails/)).toHaveAttribute('role', 'status');
    expect(api.sent('PUT /user')[1].body).toEqual({ email: null });
  });

  it('is linked from the user menu, and tells the administrator token it has no address', async () => {
    stubApi({ 'GET /projects': { body: [], headers: { 'X-Total': '0' } }, 'GET /user': { body: { ...MARIA, email: null } } });
    renderApp('/projects', { user: MARIA });
    expect(await screen.findByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');

    renderApp('/profile');
    expect(screen.getByRole('alert')).toHaveTextContent('The administrator token belongs to no user');
  });
});

describe("admin page: a new user's email address", () => {
  it('sends the address with the username, and checks it at its field first', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'GET /projects': { body: [], headers: { 'X-Total': '0' } },
      'POST /users': { status: 201, body: { id: 12, username: 'dana', email: 'dana@example.com', token: 'aipat-once' } },
    });
    renderApp('/admin');
    await user.type(screen.getByLabelText('Username'), 'dana');
    await user.type(screen.getByLabelText('Email (optional)'), 'dana@');
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(screen.getByLabelText('Email (optional)')).toHaveAccessibleDescription(/Enter an email address/);
    expect(api.sent('POST /users')).toEqual([]);

    await user.type(screen.getByLabelText('Email (optional)'), 'example.com');
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByLabelText('Personal access token')).toHaveTextContent('aipat-once');
    expect(screen.getByText(/user ID/)).toHaveTextContent('alert emails to dana@example.com');
    expect(api.sent('POST /users')[0].body).toEqual({ username: 'dana', email: 'dana@example.com' });
  });
});
