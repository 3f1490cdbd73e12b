import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Integration, IntegrationType, PayloadFieldMappingEntry, PreviewAlert, Project } from '@console/api/types';
import { JsonValue } from '@console/lib/json-text';
import { valueAtPath } from '@console/lib/payload-mapping';
import { integrationFixture } from '@console/testing/integration-fixture';
import { RecordedRequest, renderPage, stubApi } from '@console/testing/render';
import { DraftSample, IntegrationDetailsForm } from './integration-details-form';

const PREMIUM: Project = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'maintainer' };
const FREE: Project = { ...PREMIUM, tier: 'free' };

const SAVED = integrationFixture({ sample_payload: '{"summary":"Disk full","labels":{"host":"db-1"}}', payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }] });

const PARSED = {
  payload_alert_fields: [
    { path: ['summary'], label: 'summary', type: 'string' },
    { path: ['labels', 'host'], label: 'labels.host', type: 'string' },
  ],
};

const PREVIEWED: PreviewAlert = {
  title: 'New: Alert',
  description: null,
  severity: 'critical',
  started_at: '2024-05-01T10:00:00.000Z',
  ended_at: null,
  service: null,
  monitoring_tool: null,
  hosts: [],
  fingerprint: null,
  grouping_key: 'c0ffee',
  platform_environment_name: null,
  payload: {},
};

/**
 * A stand-in for `POST .../preview`: the title is the payload's value at the proposed title
 * mapping's path (a 400 when it is not there, as the API answers), else its own `title`.
 */
function preview(request: RecordedRequest) {
  const { payload, payload_field_mapping: mapping } = request.body as { payload: string; payload_field_mapping?: PayloadFieldMappingEntry[] };
  const sample = JSON.parse(payload) as JsonValue;
  const entry = mapping?.find((candidate) => candidate.field_name === 'title');
  const title = entry ? valueAtPath(sample, entry.path) : valueAtPath(sample, ['title']);
  if (entry && title === undefined) {
    return { status: 400, body: { error: 'invalid_payload_field_mapping', message: `The path ${entry.path.join('.')} is not in the payload.` } };
  }
  return { body: { alerts: [{ ...PREVIEWED, title: typeof title === 'string' ? title : PREVIEWED.title }] } };
}

function Form({
  project,
  integration = null,
  onSaved,
  draftSample = null,
  onDiscardDraft,
}: {
  project: Project;
  integration?: Integration | null;
  onSaved(saved: Integration, created: boolean): void;
  draftSample?: DraftSample | null;
  onDiscardDraft?(): void;
}) {
  const [type, setType] = useState<IntegrationType>(integration?.type ?? 'http');
  return (
    <IntegrationDetailsForm
      project={project}
      integration={integration}
      type={type}
      onTypeChange={setType}
      onSaved={onSaved}
      draftSample={draftSample}
      onDiscardDraft={onDiscardDraft}
    />
  );
}

/** The live preview's value of one field ("Title", "Severity", ...). */
function previewed(label: string): string | null {
  const term = [...screen.getByRole('region', { name: 'Preview' }).querySelectorAll('dt')].find((dt) => dt.textContent === label);
  return term?.nextElementSibling?.textContent ?? null;
}

const sampleField = () => screen.getByLabelText('Sample alert payload');

describe('IntegrationDetailsForm', () => {
  it('creates a Premium HTTP Endpoint with its sample payload and the mapping made from it', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED },
      'POST /projects/7/alert_integrations': { status: 201, body: { ...SAVED, id: 9 } },
    });
    const onSaved = vi.fn();
    renderPage(<Form project={PREMIUM} onSaved={onSaved} />, { url: '/' });

    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Prometheus');
    await user.click(sampleField());
    await user.paste('{"summary": "Disk full", "labels": {"host": "db-1"}}');
    expect(screen.getByText('Valid JSON.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Parse payload for custom mapping' }));

    await user.selectOptions(await screen.findByLabelText('Payload alert key for Title'), 'summary (String): "Disk full"');
    await user.selectOptions(screen.getByLabelText('Payload alert key for Hosts'), 'labels.host (String): "db-1"');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: 9 }), true));
    expect(api.sent('POST /projects/7/alert_integrations/parse_sample_payload')[0].body).toEqual({
      sample_payload: '{"summary": "Disk full", "labels": {"host": "db-1"}}',
    });
    expect(api.sent('POST /projects/7/alert_integrations')[0].body).toEqual({
      type: 'http',
      name: 'Prometheus',
      active: true,
      rate_limit_per_minute: null,
      heartbeat_interval_minutes: null,
      sample_payload: '{"summary": "Disk full", "labels": {"host": "db-1"}}',
      payload_field_mapping: [
        { field_name: 'title', path: ['summary'], type: 'string' },
        { field_name: 'hosts', path: ['labels', 'host'], type: 'string' },
      ],
    });
  });

  it('checks the sample payload as JSON while typing, and parses only valid JSON objects', async () => {
    const user = userEvent.setup();
    const api = stubApi({});
    renderPage(<Form project={PREMIUM} onSaved={vi.fn()} />, { url: '/' });

    await user.click(sampleField());
    await user.paste('{"title": "x",');
    expect(screen.getByText(/^Invalid JSON:/)).toBeInTheDocument();
    expect(sampleField()).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Parse payload for custom mapping' }));
    expect(sampleField()).toHaveAccessibleDescription(expect.stringMatching(/Invalid JSON/));

    await user.clear(sampleField());
    await user.paste('[1, 2]');
    expect(screen.getByText(/must be a JSON object/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(expect.stringContaining('Enter a name'));
    expect(api.requests).toEqual([]);
  });

  it('opens a saved integration with its mapping, and asks for the mapping again when the sample payload changes', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED },
      'POST /projects/7/alert_integrations/3/preview': preview,
      'PUT /projects/7/alert_integrations/3': (request) => ({ body: { ...SAVED, ...(request.body as object) } }),
    });
    const onSaved = vi.fn();
    renderPage(<Form project={PREMIUM} integration={SAVED} onSaved={onSaved} />, { url: '/' });

    const title = (await screen.findByLabelText('Payload alert key for Title')) as HTMLSelectElement;
    expect(title.selectedOptions[0].textContent).toBe('summary (String): "Disk full"');
    expect(screen.getByLabelText('Integration type')).toHaveValue('HTTP Endpoint');

    await user.click(sampleField());
    await user.keyboard('{End} ');
    expect(screen.getByText(/The sample payload changed: parse it again/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Payload alert key for Title')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save integration' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: 3 }), false));
    expect(api.sent('PUT /projects/7/alert_integrations/3')[0].body).toMatchObject({
      sample_payload: `${SAVED.sample_payload} `,
      payload_field_mapping: [],
    });
  });

  it('toggles Active and shows the API refusal', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations/3/preview': preview,
      'PUT /projects/7/alert_integrations/3': {
        status: 409,
        body: { error: 'conflict', message: 'The external link integration "Ops" is active: no other integration may be active.' },
      },
    });
    renderPage(<Form project={PREMIUM} integration={{ ...SAVED, sample_payload: null, payload_field_mapping: [] }} onSaved={vi.fn()} />, {
      url: '/',
    });
    const active = screen.getByRole('switch', { name: 'Active' });
    expect(active).toBeChecked();
    await user.click(active);
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    expect(await screen.findByText(/no other integration may be active/)).toBeInTheDocument();
    expect(api.sent('PUT /projects/7/alert_integrations/3')[0].body).toMatchObject({ active: false, sample_payload: null, payload_field_mapping: [] });
  });

  it('on Free, shows the Premium-only controls disabled with the reason and sends only the toggle and the rate limit', async () => {
    const user = userEvent.setup();
    const api = stubApi({ 'POST /projects/7/alert_integrations': { status: 201, body: { ...SAVED, name: 'HTTP Endpoint' } } });
    const onSaved = vi.fn();
    renderPage(<Form project={FREE} onSaved={onSaved} />, { url: '/' });

    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.getByLabelText('Name')).toHaveValue('HTTP Endpoint');
    expect(screen.getByText(/Free tier has a single HTTP Endpoint and asks no name/)).toBeInTheDocument();
    expect(sampleField()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Parse payload for custom mapping' })).toBeDisabled();
    expect(screen.getByText('Custom mapping of payload fields needs the Premium tier.')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'External incident management (Premium)' })).toBeDisabled();
    expect(screen.getByText('The external incident management link needs the Premium tier.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.sent('POST /projects/7/alert_integrations')[0].body).toEqual({ type: 'http', active: true, rate_limit_per_minute: null, heartbeat_interval_minutes: null });
  });

  it('creates the external link integration with its API URL', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations': { status: 201, body: { ...SAVED, id: 4, type: 'external_link', api_url: 'https://ops.example.com/alerts' } },
    });
    const onSaved = vi.fn();
    renderPage(<Form project={PREMIUM} onSaved={onSaved} />, { url: '/' });

    await user.selectOptions(screen.getByLabelText('Integration type'), 'External incident management');
    expect(screen.queryByLabelText('Sample alert payload')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    expect(screen.getByLabelText('API URL')).toHaveAccessibleDescription(expect.stringContaining('Enter the API URL'));
    await user.type(screen.getByLabelText('API URL'), 'https://ops.example.com/alerts');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.sent('POST /projects/7/alert_integrations')[0].body).toEqual({
      type: 'external_link',
      api_url: 'https://ops.example.com/alerts',
      active: true,
    });
  });
  it('previews the sample payload live under the mapping being edited', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED },
      'POST /projects/7/alert_integrations/3/preview': preview,
    });
    renderPage(<Form project={PREMIUM} integration={SAVED} onSaved={vi.fn()} />, { url: '/' });

    // The saved mapping (title from summary) is previewed at once.
    await waitFor(() => expect(previewed('Title')).toBe('Disk full'));
    expect(previewed('Severity')).toBe('Critical');
    expect(previewed('Grouping key')).toBe('c0ffee');
    expect(previewed('End time')).toBe('none');
    expect(api.sent('POST /projects/7/alert_integrations/3/preview')[0].body).toEqual({
      payload: SAVED.sample_payload,
      payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }],
    });

    // Choosing another value for Title changes the preview after a pause, without saving.
    await user.selectOptions(await screen.findByLabelText('Payload alert key for Title'), 'labels.host (String): "db-1"');
    await waitFor(() => expect(previewed('Title')).toBe('db-1'));
    expect(api.sent('POST /projects/7/alert_integrations/3/preview').at(-1)?.body).toMatchObject({
      payload_field_mapping: [{ field_name: 'title', path: ['labels', 'host'], type: 'string' }],
    });
    expect(api.sent('PUT /projects/7/alert_integrations/3')).toEqual([]);

    // A sample payload edited so the mapped path is gone: until it is parsed again, the preview
    // runs without a mapping, as saving would then store it.
    await user.clear(sampleField());
    await user.click(sampleField());
    await user.paste('{"title": "Plain title"}');
    await waitFor(() => expect(previewed('Title')).toBe('Plain title'));
    expect(api.sent('POST /projects/7/alert_integrations/3/preview').at(-1)?.body).toEqual({ payload: '{"title": "Plain title"}', payload_field_mapping: [] });
  });

  it("shows the preview's refusal inline, and no preview for an invalid sample payload", async () => {
    const user = userEvent.setup();
    const mapped: Integration = { ...SAVED, payload_field_mapping: [{ field_name: 'title', path: ['gone'], type: 'string' }] };
    stubApi({
      'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED },
      'POST /projects/7/alert_integrations/3/preview': preview,
    });
    renderPage(<Form project={PREMIUM} integration={mapped} onSaved={vi.fn()} />, { url: '/' });

    const region = screen.getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(region).toHaveTextContent('No preview: The path gone is not in the payload.'));
    await user.click(sampleField());
    await user.keyboard('{End}{Backspace}');
    await waitFor(() => expect(region).toHaveTextContent('Enter a valid sample payload to preview the alert it becomes.'));
    expect(region).not.toHaveTextContent('No preview');
  });

  it('says the preview needs a saved integration while adding one', async () => {
    const user = userEvent.setup();
    const api = stubApi({});
    renderPage(<Form project={PREMIUM} onSaved={vi.fn()} />, { url: '/' });
    await user.click(sampleField());
    await user.paste('{"title": "x"}');
    expect(screen.getByRole('region', { name: 'Preview' })).toHaveTextContent('The preview is available once the integration is saved.');
    expect(api.requests).toEqual([]);
  });

  it('checks the rate limit before saving and sends it as a number, or null for the default', async () => {
    const user = userEvent.setup();
    const api = stubApi({
      'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED },
      'POST /projects/7/alert_integrations/3/preview': preview,
      'PUT /projects/7/alert_integrations/3': (request) => ({ body: { ...SAVED, ...(request.body as object) } }),
    });
    const onSaved = vi.fn();
    renderPage(<Form project={PREMIUM} integration={{ ...SAVED, rate_limit_per_minute: 600 }} onSaved={onSaved} />, { url: '/' });

    const field = screen.getByLabelText('Rate limit (requests per minute)');
    expect(field).toHaveValue('600');
    for (const [typed, message] of [
      ['0', 'at least 1 request per minute'],
      ['12.5', 'whole number'],
      ['ten', 'whole number'],
      ['-3', 'whole number'],
    ]) {
      await user.clear(field);
      await user.type(field, typed);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
      await user.click(screen.getByRole('button', { name: 'Save integration' }));
      expect(field).toHaveFocus();
      expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
    }
    expect(api.sent('PUT /projects/7/alert_integrations/3')).toEqual([]);

    await user.clear(field);
    await user.type(field, ' 120 ');
    expect(field).toHaveAttribute('aria-invalid', 'false');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(api.sent('PUT /projects/7/alert_integrations/3')[0].body).toMatchObject({ rate_limit_per_minute: 120 });

    await user.clear(field);
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Empty: the gateway’s default.'));
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(2));
    expect(api.sent('PUT /projects/7/alert_integrations/3')[1].body).toMatchObject({ rate_limit_per_minute: null });
  });

  it('offers no rate limit for the external link, which receives no alerts', async () => {
    const user = userEvent.setup();
    stubApi({});
    renderPage(<Form project={PREMIUM} onSaved={vi.fn()} />, { url: '/' });
    expect(screen.getByLabelText('Rate limit (requests per minute)')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Integration type'), 'External incident management');
    expect(screen.queryByLabelText('Rate limit (requests per minute)')).not.toBeInTheDocument();
  });

  it("starts from a delivery's body as the sample payload, to be parsed and saved, or discarded", async () => {
    const user = userEvent.setup();
    stubApi({ 'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED }, 'POST /projects/7/alert_integrations/3/preview': preview });
    const onDiscardDraft = vi.fn();
    const draft: DraftSample = { text: '{\n  "title": "From a delivery"\n}', integrationId: 3, deliveryId: 41, receivedAt: '2024-05-01T10:00:00Z' };
    renderPage(<Form project={PREMIUM} integration={SAVED} draftSample={draft} onDiscardDraft={onDiscardDraft} onSaved={vi.fn()} />, { url: '/' });

    expect(sampleField()).toHaveValue(draft.text);
    expect(screen.getByText(/is the body of the delivery of May 1, 2024/)).toBeInTheDocument();
    expect(screen.getByText(/The sample payload changed: parse it again/)).toBeInTheDocument();
    await waitFor(() => expect(previewed('Title')).toBe('From a delivery'));
    await user.click(screen.getByRole('button', { name: 'Discard it and keep the saved sample payload' }));
    expect(onDiscardDraft).toHaveBeenCalled();
  });

  it('puts each error at its field, moves the focus to the first one on saving, and clears it when that field changes', async () => {
    const user = userEvent.setup();
    const api = stubApi({});
    renderPage(<Form project={PREMIUM} onSaved={vi.fn()} />, { url: '/' });
    const name = screen.getByLabelText('Name');
    const rateLimit = screen.getByLabelText('Rate limit (requests per minute)');
    await user.type(rateLimit, 'ten');
    await user.click(sampleField());
    await user.paste('{"title": "x",}');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));

    // Each field says what is wrong with it, once, and the keyboard lands on the first.
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Enter a name: each HTTP Endpoint of a Premium project is named.');
    expect(rateLimit).toHaveAttribute('aria-invalid', 'true');
    expect(sampleField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText(/Enter a name/)).toHaveLength(1);
    expect(screen.getAllByText(/whole number of requests per minute/)).toHaveLength(1);
    expect(screen.getAllByText(/Invalid JSON/)).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // Fixing a field clears its error at once; the next save goes to the next field that needs it.
    await user.type(name, 'Prometheus');
    expect(name).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText(/Enter a name/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    expect(rateLimit).toHaveFocus();
    await user.clear(rateLimit);
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    expect(sampleField()).toHaveFocus();
    expect(sampleField()).toHaveAccessibleDescription(expect.stringContaining('(line 1, column 15)'));
    expect(api.requests).toEqual([]);
  });

  it('says where a sample payload breaks in plain words, once, and focuses it when parsing', async () => {
    const user = userEvent.setup();
    const api = stubApi({});
    renderPage(<Form project={PREMIUM} onSaved={vi.fn()} />, { url: '/' });
    await user.click(sampleField());
    await user.paste('{\n  "summary": "Disk full"\n  "host": "db-1"\n}');
    await user.click(screen.getByRole('button', { name: 'Parse payload for custom mapping' }));
    expect(sampleField()).toHaveFocus();
    expect(sampleField()).toHaveAccessibleDescription(expect.stringContaining('Invalid JSON: a comma or } is missing after the value, before “"” (line 3, column 3).'));
    expect(screen.getAllByText(/Invalid JSON/)).toHaveLength(1);
    expect(document.body).not.toHaveTextContent(/Unexpected token|position \d|JSON\.parse/);

    await user.clear(sampleField());
    await user.click(screen.getByRole('button', { name: 'Parse payload for custom mapping' }));
    expect(sampleField()).toHaveAccessibleDescription(expect.stringContaining('Enter a sample payload to parse.'));
    await user.paste('{}');
    expect(screen.queryByText('Enter a sample payload to parse.')).not.toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("puts the API's refusal at the field it is about, and clears it when that field changes", async () => {
    const user = userEvent.setup();
    stubApi({
      'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED },
      'POST /projects/7/alert_integrations/3/preview': preview,
      'PUT /projects/7/alert_integrations/3': {
        status: 409,
        body: { error: 'name_taken', message: 'The project already has an HTTP Endpoint named "Grafana" (id 4).' },
      },
    });
    renderPage(<Form project={PREMIUM} integration={SAVED} onSaved={vi.fn()} />, { url: '/' });
    const name = screen.getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Grafana');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));

    await waitFor(() => expect(name).toHaveAccessibleDescription('Not saved: The project already has an HTTP Endpoint named "Grafana" (id 4).'));
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText(/already has an HTTP Endpoint named/)).toHaveLength(1);
    await user.type(name, ' 2');
    expect(name).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText(/already has an HTTP Endpoint named/)).not.toBeInTheDocument();
  });
});
