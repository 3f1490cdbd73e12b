import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../session/session';
import { renderPage, stubApi } from '../testing/render';
import { SignInPage } from './sign-in.page';

describe('SignInPage', () => {
  it('signs in with a token, keeps it for the tab and goes to the projects', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'GET /user': { body: { id: 4, username: 'alice', is_admin: false } } });
    renderPage(<SignInPage />, { url: '/sign-in', user: null });
    await user.type(screen.getByLabelText('Access token'), 'aipat-secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    // The data router navigates asynchronously: wait for the address to change.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/projects'));
    expect(api.sent('GET /user')[0].headers.get('authorization')).toBe('Bearer aipat-secret');
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toEqual({
      token: 'aipat-secret',
      user: { id: 4, username: 'alice', is_admin: false },
    });
  });

  it('says a refused token is not valid at the field, which keeps the focus, and stays', async () => {
    const user = userEvent.setup();
    stubApi({ 'GET /user': { status: 401, body: { error: 'unauthorized', message: 'The token has expired.' } } });
    renderPage(<SignInPage />, { url: '/sign-in', user: null });
    await user.type(screen.getByLabelText('Access token'), 'old');
    await user.keyboard('{Enter}');
    const field = screen.getByLabelText('Access token');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(/This token is not valid/);
    expect(field).toHaveFocus();
    await user.type(field, 'x');
    expect(field).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByTestId('location')).toHaveTextContent('/sign-in');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });
});
