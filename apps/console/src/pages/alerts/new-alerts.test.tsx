import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alertFixture } from '@console/testing/alert-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 5, username: 'dev', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'developer' };
const COUNTS = { triggered: 1, acknowledged: 0, resolved: 0, ignored: 0, open: 1, all: 1 };

/** The browser's storage, as a page sees it. */
function stubStorage(): Map<string, string> {
  const kept = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => kept.get(key) ?? null,
    setItem: (key: string, value: string) => kept.set(key, value),
    removeItem: (key: string) => kept.delete(key),
  });
  return kept;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('new alerts', () => {
  it('are counted in the tab title until the tab is looked at again', async () => {
    const user = userEvent.setup();
    let iids = [2];
    stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': () => ({ body: iids.map((iid) => alertFixture({ iid, title: `Alert ${iid}` })), headers: { 'X-Total': String(iids.length) } }),
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    await screen.findByRole('link', { name: '#2 Alert 2' });
    await waitFor(() => expect(document.title).toBe('Alerts · acme/web · Alert ingestion'));

    // Two arrive while the engineer looks elsewhere.
    const focused = vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    iids = [4, 3, 2];
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'Most severe first');
    await screen.findByRole('link', { name: '#4 Alert 4' });
    await waitFor(() => expect(document.title).toBe('(2) Alerts · acme/web · Alert ingestion'));

    focused.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(document.title).toBe('Alerts · acme/web · Alert ingestion'));
  });

  it('are announced by a browser notification only once asked for: permission is requested on the click, never before', async () => {
    const user = userEvent.setup();
    const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = requestPermission;
    }
    vi.stubGlobal('Notification', FakeNotification);
    const kept = stubStorage();
    stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [alertFixture()], headers: { 'X-Total': '1' } },
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const toggle = await screen.findByRole('checkbox', { name: /Notify me of new alerts/ });
    expect(toggle).not.toBeChecked();
    expect(requestPermission).not.toHaveBeenCalled();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(kept.get('alert-console.notify-new-alerts')).toBe('on');
  });

  it('stay off when the browser refuses, and say so', async () => {
    const user = userEvent.setup();
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = vi.fn(async () => 'denied' as NotificationPermission);
    }
    vi.stubGlobal('Notification', FakeNotification);
    stubApi({
      'GET /projects/7': { body: PROJECT },
      'GET /projects/7/alerts/status_counts': { body: COUNTS },
      'GET /projects/7/alerts': { body: [alertFixture()], headers: { 'X-Total': '1' } },
    });
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    const toggle = await screen.findByRole('checkbox', { name: /Notify me of new alerts/ });
    await user.click(toggle);
    await screen.findByText(/the browser refused/);
    expect(toggle).not.toBeChecked();
  });
});
