import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PreviewAlert } from '@console/api/types';
import { exactTime } from '@console/lib/time';
import { renderPage, stubApi } from '@console/testing/render';
import { MappingPreview } from './mapping-preview';

const ALERT: PreviewAlert = {
  title: 'Checkout latency above 2s',
  description: 'p99 over 2s for 5 minutes',
  severity: 'high',
  started_at: '2024-05-01T10:00:00.000Z',
  ended_at: '2024-05-01T10:30:00.000Z',
  service: 'checkout',
  monitoring_tool: 'prometheus',
  hosts: ['web-3', 'web-4'],
  fingerprint: 'checkout-latency',
  grouping_key: 'a'.repeat(64),
  platform_environment_name: 'production',
  payload: {},
};

const PAYLOAD = '{"summary": "Checkout latency above 2s"}';
const MAPPING = [{ field_name: 'title' as const, path: ['summary'], type: 'string' as const }];

function fieldsOf(region: HTMLElement): Record<string, string | null> {
  return Object.fromEntries([...region.querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent ?? null]));
}

describe('MappingPreview', () => {
  it('shows every field of the alert the payload becomes, with what grouping compares', async () => {
    const api = stubApi({ 'POST /projects/7/alert_integrations/3/preview': { body: { alerts: [ALERT] } } });
    renderPage(<MappingPreview projectId={7} integrationId={3} payload={PAYLOAD} mapping={MAPPING} description="Under the mapping above." noPayload="None." />, {
      url: '/',
    });
    const region = screen.getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(fieldsOf(region)['Title']).toBe('Checkout latency above 2s'));
    expect(fieldsOf(region)).toEqual({
      Title: 'Checkout latency above 2s',
      Severity: 'High',
      'Start time': exactTime(ALERT.started_at),
      'End time': exactTime(ALERT.ended_at as string),
      Service: 'checkout',
      'Monitoring tool': 'prometheus',
      Hosts: 'web-3, web-4',
      Environment: 'production',
      Fingerprint: 'checkout-latency',
      'Grouping key': 'a'.repeat(64),
    });
    expect(within(region).getByText('Under the mapping above.')).toBeInTheDocument();
    expect(api.sent('POST /projects/7/alert_integrations/3/preview').map((request) => request.body)).toEqual([
      { payload: PAYLOAD, payload_field_mapping: MAPPING },
    ]);
  });

  it('says what is missing, and that an alert that is never grouped has no grouping key', async () => {
    const api = stubApi({
      'POST /projects/7/alert_integrations/3/preview': {
        body: { alerts: [{ ...ALERT, ended_at: null, service: null, hosts: [], fingerprint: null, grouping_key: null, platform_environment_name: null }] },
      },
    });
    renderPage(<MappingPreview projectId={7} integrationId={3} payload={PAYLOAD} description="" noPayload="None." />, { url: '/' });
    const region = screen.getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(fieldsOf(region)['Grouping key']).toBe('none: never grouped'));
    expect(fieldsOf(region)).toMatchObject({ 'End time': 'none', Service: 'none', Hosts: 'none', Environment: 'none', Fingerprint: 'none' });
    // No mapping given: the integration's own applies, so none is proposed.
    expect(api.sent('POST /projects/7/alert_integrations/3/preview')[0].body).toEqual({ payload: PAYLOAD });
  });

  it('says when a payload becomes no alert (an end time with nothing to resolve)', async () => {
    stubApi({ 'POST /projects/7/alert_integrations/3/preview': { body: { alerts: [] } } });
    renderPage(<MappingPreview projectId={7} integrationId={3} payload={PAYLOAD} description="" noPayload="None." />, { url: '/' });
    expect(await screen.findByText(/No alert: a payload with an end time only resolves a matching alert/)).toBeInTheDocument();
  });

  it('asks nothing without a saved integration or a payload', () => {
    const api = stubApi({});
    const unsaved = renderPage(<MappingPreview projectId={7} integrationId={null} payload={PAYLOAD} description="" noPayload="Enter a payload." />, {
      url: '/',
    });
    expect(screen.getByRole('region', { name: 'Preview' })).toHaveTextContent('The preview is available once the integration is saved.');
    unsaved.unmount();
    renderPage(<MappingPreview projectId={7} integrationId={3} payload={null} description="" noPayload="Enter a payload." />, { url: '/' });
    expect(screen.getByRole('region', { name: 'Preview' })).toHaveTextContent('Enter a payload.');
    expect(api.requests).toEqual([]);
  });
});
