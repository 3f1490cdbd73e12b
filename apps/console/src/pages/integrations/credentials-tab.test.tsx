import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Integration } from '../../api/types';
import { renderPage, stubApi } from '../../testing/render';
import { CredentialsTab } from './credentials-tab';

const INTEGRATION: Integration = {
  id: 3,
  name: 'Prometheus',
  type: 'http',
  active: true,
  url: 'http://gateway.test/alerts/notify/abc.json',
  authorization_key: 'old-key',
  sample_payload: null,
  payload_field_mapping: [],
  api_url: null,
  rate_limit_per_minute: null,
  heartbeat_interval_minutes: null,
  last_request_at: null,
  heartbeat_status: 'off',
};

describe('CredentialsTab', () => {
  it('shows the URL and the authorization key, each with a copy button', async () => {
    const user = userEvent.setup();
    stubApi({});
    renderPage(<CredentialsTab projectId={7} integration={INTEGRATION} />, { url: '/' });
    expect(screen.getByLabelText('Webhook URL')).toHaveValue('http://gateway.test/alerts/notify/abc.json');
    expect(screen.getByLabelText('Authorization key')).toHaveValue('old-key');

    await user.click(screen.getByRole('button', { name: 'Copy the authorization key' }));
    expect(await navigator.clipboard.readText()).toBe('old-key');
    expect(screen.getByText('Copied')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy the webhook URL' }));
    expect(await navigator.clipboard.readText()).toBe('http://gateway.test/alerts/notify/abc.json');
  });

  it('resets the key only after a confirmation that warns every sender must be updated', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/reset_authorization_key': { body: { ...INTEGRATION, authorization_key: 'new-key' } } });
    renderPage(<CredentialsTab projectId={7} integration={INTEGRATION} />, { url: '/' });

    await user.click(screen.getByRole('button', { name: 'Reset key' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset authorization key' });
    expect(dialog).toHaveTextContent('will require updating the authorization key in every alert source it is enabled in');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.requests).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Reset key' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset key' }));
    await waitFor(() => expect(screen.getByText(/A new authorization key was generated/)).toBeInTheDocument());
    expect(api.sent('POST /projects/7/alert_integrations/3/reset_authorization_key')).toHaveLength(1);
  });
});
