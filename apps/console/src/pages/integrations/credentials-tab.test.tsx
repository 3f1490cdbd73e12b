import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { integrationFixture } from '@console/testing/integration-fixture';
import { renderPage, stubApi } from '@console/testing/render';
import { CredentialsTab } from './credentials-tab';

const INTEGRATION = integrationFixture({ authorization_key: 'old-key' });

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

  it('offers a grace period on reset, and shows the previous key with when it stops working', async () => {
    const user = userEvent.setup();
    const expiresAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const previous = { authorization_key: 'old-key', expires_at: expiresAt };
    const rotated = { ...INTEGRATION, authorization_key: 'new-key', previous_authorization_key: previous, previous_authorization_keys: [previous] };
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/reset_authorization_key': { body: rotated } });
    renderPage(<CredentialsTab projectId={7} integration={INTEGRATION} />, { url: '/' });
    expect(screen.queryByLabelText('Previous authorization key')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reset key' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset authorization key' });
    const grace = within(dialog).getByLabelText('Grace period for the current key');
    expect(within(grace).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'None: the current key stops at once',
      '1 hour',
      '24 hours',
      '7 days',
      'Custom number of minutes',
    ]);
    await user.selectOptions(grace, '1440');
    await user.click(within(dialog).getByRole('button', { name: 'Reset key' }));
    await waitFor(() => expect(screen.getByText(/The previous key keeps working until/)).toBeInTheDocument());
    expect(api.sent('POST /projects/7/alert_integrations/3/reset_authorization_key')[0].body).toEqual({ grace_period_minutes: 1440 });

  });

  it('shows the previous key of a rotation with when it stops working, in UTC and exact to the minute', () => {
    stubApi({});
    const expiresAt = new Date(Date.now() + 1 * 3_600_000 + 58 * 60_000 + 30_000).toISOString();
    const previous = { authorization_key: 'old-key', expires_at: expiresAt };
    const rotated = { ...INTEGRATION, authorization_key: 'new-key', previous_authorization_key: previous, previous_authorization_keys: [previous] };
    renderPage(<CredentialsTab projectId={7} integration={rotated} />, { url: '/' });
    expect(screen.getByLabelText('Authorization key')).toHaveValue('new-key');
    expect(screen.getByLabelText('Previous authorization key')).toHaveValue('old-key');
    expect(screen.getByTestId('previous-key-expiry')).toHaveTextContent(/^Valid until .+ UTC \(in 1 h 58 min\)/);
  });

  it('shows both previous keys of two resets, each until its own expiry, and revokes them on request', async () => {
    const user = userEvent.setup();
    const newer = { authorization_key: 'second-key', expires_at: new Date(Date.now() + 30 * 60_000 + 20_000).toISOString() };
    const older = { authorization_key: 'first-key', expires_at: new Date(Date.now() + 5 * 3_600_000 + 20_000).toISOString() };
    const twice = { ...INTEGRATION, authorization_key: 'third-key', previous_authorization_key: newer, previous_authorization_keys: [newer, older] };
    const revoked = { ...twice, authorization_key: 'fourth-key', previous_authorization_key: { authorization_key: 'third-key', expires_at: newer.expires_at }, previous_authorization_keys: [] };
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/reset_authorization_key': { body: revoked } });
    renderPage(<CredentialsTab projectId={7} integration={twice} />, { url: '/' });
    expect(screen.getByLabelText('Previous authorization key')).toHaveValue('second-key');
    expect(screen.getByLabelText('Older previous authorization key')).toHaveValue('first-key');
    expect(screen.getAllByTestId('previous-key-expiry').map((hint) => hint.textContent)).toEqual([
      expect.stringMatching(/^Valid until .+ UTC \(in 30 min\)/),
      expect.stringMatching(/^Valid until .+ UTC \(in 5 h\)/),
    ]);

    await user.click(screen.getByRole('button', { name: 'Reset key' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset authorization key' });
    await user.selectOptions(within(dialog).getByLabelText('Grace period for the current key'), '60');
    expect(within(dialog).getByTestId('previous-keys-note')).toHaveTextContent('a reset with a grace period now needs them revoked');
    await user.click(within(dialog).getByLabelText(/Revoke the previous keys now/));
    await user.click(within(dialog).getByRole('button', { name: 'Reset key' }));
    await waitFor(() => expect(api.sent('POST /projects/7/alert_integrations/3/reset_authorization_key')).toHaveLength(1));
    expect(api.sent('POST /projects/7/alert_integrations/3/reset_authorization_key')[0].body).toEqual({ grace_period_minutes: 60, revoke_previous_keys: true });
  });

  it('shows one current message at a time: the outcome of the last action replaces the one before', async () => {
    const user = userEvent.setup();
    const previous = { authorization_key: 'old-key', expires_at: new Date(Date.now() + 3_600_000).toISOString() };
    stubApi({
      'PUT /projects/7/alert_integrations/3': { body: { ...INTEGRATION, signing_secret: 'a-secret-of-24-characters' } },
      'POST /projects/7/alert_integrations/3/reset_signing_secret': { body: { ...INTEGRATION, signing_secret: 'f'.repeat(64) } },
      'POST /projects/7/alert_integrations/3/reset_authorization_key': {
        status: 409,
        body: { error: 'too_many_previous_keys', message: 'This integration already has 2 previous authorization keys that still work.' },
      },
    });
    renderPage(<CredentialsTab projectId={7} integration={{ ...INTEGRATION, previous_authorization_key: previous, previous_authorization_keys: [previous] }} />, { url: '/' });

    await user.click(screen.getByRole('button', { name: 'Set secret' }));
    await user.type(screen.getByLabelText('New signing secret'), 'a-secret-of-24-characters');
    await user.click(screen.getByRole('button', { name: 'Save secret' }));
    const saved = await screen.findByText('The signing secret was saved.');
    // The form went away with the focus: the focus moves to the message, not to the page.
    expect(saved.parentElement).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Generate secret' }));
    await screen.findByText(/A new signing secret was generated/);
    const messages = () => [...document.querySelectorAll('.notice-success, .notice-error')].map((notice) => notice.textContent);
    expect(messages()).toEqual(['A new signing secret was generated. Requests signed with a previous one are refused.']);

    await user.click(screen.getByRole('button', { name: 'Reset key' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset key' }));
    const refused = await screen.findByRole('alert');
    expect(refused).toHaveTextContent('Key not reset: This integration already has 2 previous authorization keys that still work.');
    expect(messages()).toEqual(['Key not reset: This integration already has 2 previous authorization keys that still work.']);
  });

  it('takes a custom grace period in minutes, refusing one beyond 7 days', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/reset_authorization_key': { body: INTEGRATION } });
    renderPage(<CredentialsTab projectId={7} integration={INTEGRATION} />, { url: '/' });
    await user.click(screen.getByRole('button', { name: 'Reset key' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset authorization key' });
    await user.selectOptions(within(dialog).getByLabelText('Grace period for the current key'), 'custom');
    const minutes = within(dialog).getByLabelText('Minutes (0 to 10080)');
    await user.type(minutes, '10081');
    expect(within(dialog).getByRole('button', { name: 'Reset key' })).toBeDisabled();
    await user.clear(minutes);
    await user.type(minutes, '90');
    await user.click(within(dialog).getByRole('button', { name: 'Reset key' }));
    await waitFor(() => expect(api.sent('POST /projects/7/alert_integrations/3/reset_authorization_key')).toHaveLength(1));
    expect(api.sent('POST /projects/7/alert_integrations/3/reset_authorization_key')[0].body).toEqual({ grace_period_minutes: 90 });
  });

  it('sets and generates the signing secret', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'PUT /projects/7/alert_integrations/3': { body: { ...INTEGRATION, signing_secret: 'too-short-now-long-enough' } },
      'POST /projects/7/alert_integrations/3/reset_signing_secret': { body: { ...INTEGRATION, signing_secret: 'f'.repeat(64) } },
    });
    renderPage(<CredentialsTab projectId={7} integration={INTEGRATION} />, { url: '/' });
    expect(screen.getByTestId('signing-secret-state')).toHaveTextContent('Not set');

    await user.click(screen.getByRole('button', { name: 'Set secret' }));
    await user.type(screen.getByLabelText('New signing secret'), 'too-short');
    expect(screen.getByRole('button', { name: 'Save secret' })).toBeDisabled();
    await user.type(screen.getByLabelText('New signing secret'), '-now-long-enough');
    await user.click(screen.getByRole('button', { name: 'Save secret' }));
    await waitFor(() => expect(screen.getByText('The signing secret was saved.')).toBeInTheDocument());
    expect(api.sent('PUT /projects/7/alert_integrations/3')[0].body).toEqual({ signing_secret: 'too-short-now-long-enough' });

    await user.click(screen.getByRole('button', { name: 'Generate secret' }));
    await waitFor(() => expect(api.sent('POST /projects/7/alert_integrations/3/reset_signing_secret')).toHaveLength(1));

  });

  it("shows a set signing secret, how to configure Grafana's contact point and a signed curl example, and removes it", async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'PUT /projects/7/alert_integrations/3': { body: INTEGRATION } });
    renderPage(<CredentialsTab projectId={7} integration={{ ...INTEGRATION, signing_secret: 'a-secret-of-24-characters' }} />, { url: '/' });
    expect(screen.getByLabelText('Signing secret')).toHaveValue('a-secret-of-24-characters');
    expect(screen.getByText(/the gateway refuses a signed timestamp more than 5 minutes off/)).toBeInTheDocument();
    expect(screen.getByText(/openssl dgst -sha256 -hmac 'a-secret-of-24-characters'/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove secret' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Remove signing secret' })).getByRole('button', { name: 'Remove secret' }));
    await waitFor(() => expect(screen.getByText('The signing secret was removed.')).toBeInTheDocument());
    expect(api.sent('PUT /projects/7/alert_integrations/3')).toHaveLength(1);
    expect(api.sent('PUT /projects/7/alert_integrations/3')[0].body).toEqual({ signing_secret: null });
  });

  it('offers, next to a set signing secret, to accept Grafana signatures without a timestamp, saying what it risks', async () => {
    const user = userEvent.setup();
    const signed = { ...INTEGRATION, signing_secret: 'a-secret-of-24-characters' };
    const api = stubApi({ 'PUT /projects/7/alert_integrations/3': { body: { ...signed, allow_signature_without_timestamp: true } } });
    renderPage(<CredentialsTab projectId={7} integration={signed} />, { url: '/' });
    const allow = screen.getByRole('checkbox', { name: 'Accept Grafana signatures without a timestamp' });
    expect(allow).not.toBeChecked();
    expect(allow).toHaveAccessibleDescription(/a captured request can be sent again and accepted once the gateway has forgotten it/);

    await user.click(allow);
    await waitFor(() => expect(screen.getByText('Grafana signatures without a timestamp are now accepted.')).toBeInTheDocument());
    expect(api.sent('PUT /projects/7/alert_integrations/3')[0].body).toEqual({ allow_signature_without_timestamp: true });
  });

  it('shows no timestamp switch while no signing secret is set', () => {
    stubApi({});
    renderPage(<CredentialsTab projectId={7} integration={INTEGRATION} />, { url: '/' });
    expect(screen.queryByRole('checkbox', { name: 'Accept Grafana signatures without a timestamp' })).not.toBeInTheDocument();
  });
});
