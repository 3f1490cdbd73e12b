import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '@console/session/session';
import { renderApp, renderPage, stubApi } from '@console/testing/render';
import { SignInPage } from './sign-in.page';

describe('SignInPage', () => {
  it('signs in with a token, keeps it for the browser\'s tabs and goes to the projects', async () => {
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

  it('follows another tab: signed out there, this tab goes to sign-in and says why; signed in there, back to its page', async () => {
    const alice = { id: 4, username: 'alice', is_admin: false };
    stubApi({ 'GET /projects': { body: [], headers: { 'X-Total': '0' } } });
    renderApp('/projects', { user: alice });
    await screen.findByRole('heading', { name: 'Projects', level: 1 });
    // What the browser tells this tab when another removes the session.
    const stored = localStorage.getItem(SESSION_STORAGE_KEY);
    localStorage.removeItem(SESSION_STORAGE_KEY);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, oldValue: stored, newValue: null, storageArea: localStorage }));
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sign-in'));
    expect(screen.getByText('You were signed out in another tab.')).toBeInTheDocument();
    // And when another tab signs in again, this one returns to the page it was on.
    localStorage.setItem(SESSION_STORAGE_KEY, stored ?? '');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, oldValue: null, newValue: stored, storageArea: localStorage }));
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/projects'));
  });
});
