import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Project } from '@console/api/types';
import { integrationFixture } from '@console/testing/integration-fixture';
import { renderPage, stubApi } from '@console/testing/render';
import { checkHeartbeatInterval, HeartbeatStatus } from './heartbeat-field';
import { IntegrationDetailsForm } from './integration-details-form';

const FREE: Project = { id: 7, path: 'acme/web', tier: 'free', access_level: 'maintainer' };
const SAVED = integrationFixture({ name: 'HTTP endpoint' });

describe('checkHeartbeatInterval', () => {
  it('takes empty as off and a whole number of minutes from 1 to 1440', () => {
    expect(checkHeartbeatInterval('')).toEqual({ ok: true, value: null });
    expect(checkHeartbeatInterval(' 1 ')).toEqual({ ok: true, value: 1 });
    expect(checkHeartbeatInterval('1440')).toEqual({ ok: true, value: 1440 });
  });

  it('refuses anything else, saying why', () => {
    for (const text of ['0', '1441']) expect(checkHeartbeatInterval(text)).toEqual({ ok: false, message: expect.stringContaining('1 to 1440 minutes') });
    for (const text of ['-1', '1.5', 'five']) expect(checkHeartbeatInterval(text)).toEqual({ ok: false, message: expect.stringContaining('whole number') });
  });
});

describe('HeartbeatStatus', () => {
  it('shows an expired heartbeat as a badge with its interval and the last request', () => {
    render(<HeartbeatStatus integration={{ heartbeat_status: 'expired', heartbeat_interval_minutes: 5, last_request_at: '2026-11-21T10:00:00.000Z' }} now={Date.parse('2026-11-21T10:07:00.000Z')} />);
    expect(screen.getByRole('status')).toHaveTextContent('Heartbeat expired · expected every 5 minutes · Last request: 7 min ago');
  });

  it('says when no request came yet, and when the heartbeat is off', () => {
    const { rerender } = render(<HeartbeatStatus integration={{ heartbeat_status: 'waiting', heartbeat_interval_minutes: 1, last_request_at: null }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for the first request · expected every 1 minute · Last request: none yet');
    rerender(<HeartbeatStatus integration={{ heartbeat_status: 'off', heartbeat_interval_minutes: null, last_request_at: null }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Heartbeat off · Last request: none yet');
  });
});

describe('the heartbeat setting in Configure details', () => {
  it('checks the interval before saving and sends it in minutes, or null to turn it off', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'PUT /projects/7/alert_integrations/3': (request) => ({ body: { ...SAVED, ...(request.body as object) } }) });
    const onSaved = vi.fn();
    renderPage(<IntegrationDetailsForm project={FREE} integration={SAVED} type="http" onTypeChange={vi.fn()} onSaved={onSaved} />, { url: '/' });

    const field = screen.getByLabelText('Heartbeat (minutes)');
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Off.'));
    await user.type(field, '2000');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    expect(field).toHaveFocus();
    expect(api.sent('PUT /projects/7/alert_integrations/3')).toEqual([]);

    await user.clear(field);
    await user.type(field, '5');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('No alerts received from … for 5 minutes'));
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(api.sent('PUT /projects/7/alert_integrations/3')[0].body).toMatchObject({ heartbeat_interval_minutes: 5 });

    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(2));
    expect(api.sent('PUT /projects/7/alert_integrations/3')[1].body).toMatchObject({ heartbeat_interval_minutes: null });
  });

  it("shows the API's refusal at the field", async () => {
    const user = userEvent.setup();
    stubApi({ 'PUT /projects/7/alert_integrations/3': { status: 400, body: { error: 'invalid_heartbeat_interval', message: 'heartbeat_interval_minutes must be 1 to 1440.' } } });
    renderPage(<IntegrationDetailsForm project={FREE} integration={SAVED} type="http" onTypeChange={vi.fn()} onSaved={vi.fn()} />, { url: '/' });
    const field = screen.getByLabelText('Heartbeat (minutes)');
    await user.type(field, '10');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(expect.stringContaining('must be 1 to 1440')));
    expect(field).toHaveFocus();
  });
});
