import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Delivery, Project } from '@console/api/types';
import { integrationFixture } from '@console/testing/integration-fixture';
import { renderApp, renderPage, stubApi } from '@console/testing/render';
import { DeliveriesTab } from './deliveries-tab';
import { DeliveryBodyViewer } from './delivery-body-viewer';

const PREMIUM: Project = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'maintainer' };
const FREE: Project = { ...PREMIUM, tier: 'free' };
const KEY = 'k'.repeat(64);

const INTEGRATION = integrationFixture({ authorization_key: KEY });

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const ACCEPTED: Delivery = {
  id: 12,
  received_at: minutesAgo(1),
  request_id: 'req-12',
  status: 200,
  error: null,
  alerts: [
    { iid: 4, title: 'Disk full' },
    { iid: 5, title: 'CPU high' },
  ],
  body: '{"title":"Disk full","labels":{"host":"db-1"}}',
  body_size: 46,
  body_truncated: false,
  authorization_key: 'previous',
  authorization_key_expires_at: '2026-11-26T18:00:00.000Z',
};
const NOT_JSON: Delivery = {
  id: 11,
  received_at: minutesAgo(3),
  request_id: 'req-11',
  status: 400,
  error: 'invalid_json',
  alerts: [],
  body: '{"title": "Disk full",',
  body_size: 22,
  body_truncated: false,
  authorization_key: 'current',
  authorization_key_expires_at: null,
};
const WRONG_KEY: Delivery = {
  id: 10,
  received_at: minutesAgo(5),
  request_id: 'req-10',
  status: 401,
  error: 'unauthorized',
  alerts: [],
  body: '',
  body_size: 31,
  body_truncated: true,
  authorization_key: null,
  authorization_key_expires_at: null,
};
const TOO_LARGE: Delivery = {
  id: 9,
  received_at: minutesAgo(7),
  request_id: 'req-9',
  status: 413,
  error: 'payload_too_large',
  alerts: [],
  body: '{"title": "big", "padding": "' + 'x'.repeat(200),
  body_size: 2_000_000,
  body_truncated: true,
  authorization_key: 'current',
  authorization_key_expires_at: null,
};

const deliveriesRoute = (deliveries: Delivery[]) => ({ body: deliveries, headers: { 'X-Total': String(deliveries.length), 'X-Next-Page': '' } });

describe('DeliveriesTab', () => {
  it('lists the deliveries newest first with time, a status coloured by class, error, alerts and body size', async () => {
    const api = stubApi({ 'GET /projects/7/alert_integrations/3/deliveries': deliveriesRoute([ACCEPTED, NOT_JSON, WRONG_KEY, TOO_LARGE]) });
    renderPage(<DeliveriesTab project={PREMIUM} integration={INTEGRATION} onUseAsSample={vi.fn()} />, { url: '/' });

    await screen.findByRole('link', { name: '#4 Disk full' });
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      // A previous key is named by its expiry, in UTC, as View credentials lists it.
      ['1 min ago', '200 OK', 'previous (valid until Nov 26, 2026, 6:00:00 PM UTC)', '#4 Disk full#5 CPU high', '46 BView'],
      ['3 min ago', '400 Bad Request invalid_json', 'current', 'none', '22 BView'],
      ['5 min ago', '401 Unauthorized unauthorized', 'none', 'none', 'not readView'],
      ['7 min ago', '413 Content Too Large payload_too_large', 'current', 'none', '1.9 MiBView'],
    ]);
    // The key a request used: the previous one (during a rotation's grace period) stands out.
    expect(within(rows[0]).getByText('previous')).toHaveAttribute('title', expect.stringMatching(/previous authorization key/));
    // Exact time on hover; the status's class is its colour, never the only cue.
    expect(within(rows[0]).getByText('1 min ago')).toHaveAttribute('title', expect.stringMatching(/\d{4}/));
    expect(within(rows[0]).getByText('200 OK')).toHaveClass('http-status-2xx');
    expect(within(rows[2]).getByText('401 Unauthorized')).toHaveClass('http-status-4xx');
    expect(screen.getByRole('link', { name: '#5 CPU high' })).toHaveAttribute('href', '/projects/7/alerts/5');
    expect(api.sent('GET /projects/7/alert_integrations/3/deliveries')[0].query.get('per_page')).toBe('100');
  });

  it('opens the body of a delivery, pretty-printed JSON, and hands it over as the sample payload', async () => {
    const user = userEvent.setup();
    stubApi({ 'GET /projects/7/alert_integrations/3/deliveries': deliveriesRoute([ACCEPTED, NOT_JSON]) });
    const onUseAsSample = vi.fn();
    renderPage(<DeliveriesTab project={PREMIUM} integration={INTEGRATION} onUseAsSample={onUseAsSample} />, { url: '/' });

    const view = await screen.findByRole('button', { name: /^View the body of the 200 OK delivery of / });
    expect(view).toHaveAttribute('aria-expanded', 'false');
    await user.click(view);
    expect(view).toHaveAttribute('aria-expanded', 'true');
    const viewer = screen.getByRole('region', { name: 'Body of the delivery' });
    expect(within(viewer).getByRole('heading')).toHaveFocus();
    expect(within(viewer).getByLabelText('Delivery body').textContent).toBe('{\n  "title": "Disk full",\n  "labels": {\n    "host": "db-1"\n  }\n}');
    expect(viewer).toHaveTextContent(/^Body of the delivery.*Received .*\d{4}.* · 200 OK · 46 bytes · JSON, pretty-printed/);
    expect(viewer).toHaveTextContent('Request ID req-12');

    await user.click(within(viewer).getByRole('button', { name: 'Use as sample payload' }));
    expect(onUseAsSample).toHaveBeenCalledWith('{\n  "title": "Disk full",\n  "labels": {\n    "host": "db-1"\n  }\n}', ACCEPTED);

    // Another delivery replaces it; Close closes it.
    await user.click(screen.getByRole('button', { name: /^View the body of the 400 Bad Request delivery/ }));
    expect(screen.getByRole('region', { name: 'Body of the delivery' })).toHaveTextContent('req-11');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Body of the delivery' })).not.toBeInTheDocument();
  });

  it('explains how to send the first alert, with the URL and a placeholder, never the real key', async () => {
    stubApi({ 'GET /projects/7/alert_integrations/3/deliveries': deliveriesRoute([]) });
    renderPage(<DeliveriesTab project={PREMIUM} integration={INTEGRATION} onUseAsSample={vi.fn()} />, { url: '/' });

    expect(await screen.findByText(/No deliveries yet/)).toBeInTheDocument();
    const example = screen.getByLabelText('Example request');
    expect(example).toHaveTextContent(`curl -X POST '${INTEGRATION.url}'`);
    expect(example).toHaveTextContent("-H 'Authorization: Bearer <authorization key>'");
    expect(document.body.textContent).not.toContain(KEY);
    expect(screen.getByRole('link', { name: 'View credentials' })).toHaveAttribute('href', '/projects/7/settings/alerts/3/credentials');
    expect(screen.getByRole('link', { name: 'send a test alert' })).toHaveAttribute('href', '/projects/7/settings/alerts/3/test');
  });

  it("shows the API's refusal", async () => {
    stubApi({
      'GET /projects/7/alert_integrations/3/deliveries': { status: 404, body: { error: 'integration_not_found', message: 'Integration not found.' } },
    });
    renderPage(<DeliveriesTab project={PREMIUM} integration={INTEGRATION} onUseAsSample={vi.fn()} />, { url: '/' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Integration not found.');
  });
});

describe('DeliveryBodyViewer', () => {
  const view = (delivery: Delivery, project: Project = PREMIUM) => {
    const onUseAsSample = vi.fn();
    renderPage(<DeliveryBodyViewer delivery={delivery} premium={project.tier === 'premium'} onUseAsSample={onUseAsSample} onClose={vi.fn()} />, {
      url: '/',
    });
    return { onUseAsSample, use: screen.getByRole('button', { name: 'Use as sample payload' }) };
  };

  it('shows a body that is not JSON as received; it cannot be a sample payload', () => {
    const { use } = view(NOT_JSON);
    expect(screen.getByLabelText('Delivery body').textContent).toBe(NOT_JSON.body);
    expect(screen.getByText(/not JSON, shown as received/)).toBeInTheDocument();
    expect(use).toBeDisabled();
    expect(use).toHaveAccessibleDescription('The body is not valid JSON.');
  });

  it('says when only the first 64 KiB were kept, and offers no truncated body as a sample', () => {
    const { use } = view(TOO_LARGE);
    expect(screen.getByRole('note')).toHaveTextContent('Truncated: first 64 KiB of 2,000,000 bytes.');
    expect(use).toBeDisabled();
    expect(use).toHaveAccessibleDescription(/Only the first 64 KiB of this body were kept/);
  });

  it('says when the body was not read (a refusal before the body)', () => {
    const { use } = view(WRONG_KEY);
    expect(screen.getByRole('note')).toHaveTextContent('Body not read: the request was refused before its body (31 bytes declared).');
    expect(screen.getByText('No body was kept.')).toBeInTheDocument();
    expect(use).toHaveAccessibleDescription('The body was not read: the request was refused before it.');
  });

  it('offers a JSON array as no sample payload: a sample is one alert', () => {
    const { use } = view({ ...ACCEPTED, body: '[{"title": "a"}, {"title": "b"}]' });
    expect(use).toBeDisabled();
    expect(use).toHaveAccessibleDescription(/not a JSON object/);
  });

  it('on Free, offers no sample payload, with the reason', () => {
    const { use } = view(ACCEPTED, FREE);
    expect(use).toBeDisabled();
    expect(use).toHaveAccessibleDescription('A sample payload is part of custom mapping, which needs the Premium tier.');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('enables "Use as sample payload" for a whole JSON object on Premium', async () => {
    const user = userEvent.setup();
    const { use, onUseAsSample } = view(ACCEPTED);
    expect(use).toBeEnabled();
    expect(use).not.toHaveAttribute('aria-describedby');
    await user.click(use);
    expect(onUseAsSample).toHaveBeenCalledWith(JSON.stringify(JSON.parse(ACCEPTED.body), null, 2));
  });
});

describe('Deliveries on the integration page', () => {
  it('puts a chosen body into the sample payload field of Configure details, ready to parse', async () => {
    const user = userEvent.setup();
    const saved = { ...INTEGRATION, sample_payload: '{"summary": "old"}' };
    stubApi({
      'GET /projects/7': { body: PREMIUM },
      'GET /projects/7/alert_integrations/3': { body: saved },
      'GET /projects/7/alert_integrations/3/deliveries': deliveriesRoute([ACCEPTED, WRONG_KEY]),
      'POST /projects/7/alert_integrations/parse_sample_payload': { body: { payload_alert_fields: [{ path: ['summary'], label: 'summary', type: 'string' }] } },
      'POST /projects/7/alert_integrations/3/preview': { body: { alerts: [] } },
    });
    renderApp('/projects/7/settings/alerts/3/deliveries');

    const tabs = await screen.findByRole('navigation', { name: 'Integration settings' });
    expect(within(tabs).getByRole('link', { name: 'Deliveries' })).toHaveAttribute('aria-current', 'page');
    await user.click(await screen.findByRole('button', { name: /^View the body of the 200 OK delivery/ }));
    await user.click(screen.getByRole('button', { name: 'Use as sample payload' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/projects\/7\/settings\/alerts\/3$/));
    expect(screen.getByLabelText('Sample alert payload')).toHaveValue(JSON.stringify(JSON.parse(ACCEPTED.body), null, 2));
    expect(screen.getByText(/The sample payload changed: parse it again/)).toBeInTheDocument();
    expect(screen.getByText(/is the body of the delivery of .*, not saved yet/).closest('.notice')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Discard it and keep the saved sample payload' }));
    expect(screen.getByLabelText('Sample alert payload')).toHaveValue(saved.sample_payload);
  });

  it('offers the Deliveries tab only once the integration is saved', async () => {
    stubApi({ 'GET /projects/7': { body: PREMIUM } });
    renderApp('/projects/7/settings/alerts/new');
    const tabs = await screen.findByRole('navigation', { name: 'Integration settings' });
    expect(within(tabs).queryByRole('link', { name: 'Deliveries' })).not.toBeInTheDocument();
    expect(within(tabs).getByText('Deliveries')).toHaveAttribute('aria-disabled', 'true');
  });
});
