import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Integration } from '@console/api/types';
import { integrationFixture } from '@console/testing/integration-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const MAINTAINER = { id: 4, username: 'mia', is_admin: false };
const PROJECT = { id: 7, path: 'acme/web', tier: 'premium', access_level: 'maintainer' };

const SAVED = integrationFixture({ sample_payload: '{"summary":"Disk full","labels":{"host":"db-1"}}', payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }] });

const PARSED = {
  payload_alert_fields: [
    { path: ['summary'], label: 'summary', type: 'string' },
    { path: ['labels', 'host'], label: 'labels.host', type: 'string' },
  ],
};

function integrationApi() {
  let saved = SAVED;
  return stubApi({
    'GET /projects/7': { body: PROJECT },
    'GET /projects/7/alert_integrations': { body: [{ id: 3, name: 'Prometheus', type: 'http', active: true }] },
    'GET /projects/7/alert_integrations/3': () => ({ body: saved }),
    'POST /projects/7/alert_integrations/parse_sample_payload': { body: PARSED },
    'POST /projects/7/alert_integrations/3/preview': { body: { alerts: [] } },
    'PUT /projects/7/alert_integrations/3': (request) => {
      saved = { ...saved, ...(request.body as Partial<Integration>) };
      return { body: saved };
    },
  });
}

const beforeUnloadPrevented = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('IntegrationPage', () => {
  it('warns before an unsaved mapping is lost by switching tabs, and lets the user stay or leave', async () => {
    const user = userEvent.setup();
    integrationApi();
    renderApp('/projects/7/settings/alerts/3', { user: MAINTAINER });
    const title = await screen.findByLabelText('Payload alert key for Title');
    expect(beforeUnloadPrevented()).toBe(false);

    await user.selectOptions(title, 'labels.host (String): "db-1"');
    expect(beforeUnloadPrevented()).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Send test alert' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveTextContent('The changes to Configure details are not saved');
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/projects/7/settings/alerts/3');
    expect((screen.getByLabelText('Payload alert key for Title') as HTMLSelectElement).selectedOptions[0].textContent).toBe('labels.host (String): "db-1"');

    await user.click(screen.getByRole('navigation', { name: 'Project' }).querySelector('a[href="/projects/7/alerts"]')!);
    await user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/projects\/7\/alerts$/));
    expect(beforeUnloadPrevented()).toBe(false);
  });

  it('lets the page go without a warning once the changes are saved', async () => {
    const user = userEvent.setup();
    const api = integrationApi();
    renderApp('/projects/7/settings/alerts/3', { user: MAINTAINER });
    await user.selectOptions(await screen.findByLabelText('Payload alert key for Title'), 'labels.host (String): "db-1"');
    await user.click(screen.getByRole('button', { name: 'Save integration' }));
    await screen.findByText('Integration saved.');
    expect(api.sent('PUT /projects/7/alert_integrations/3')).toHaveLength(1);
    expect(beforeUnloadPrevented()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'View credentials' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/projects/7/settings/alerts/3/credentials'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('names each page in the title: the tab, the integration, the project', async () => {
    const user = userEvent.setup();
    integrationApi();
    renderApp('/projects/7/settings/alerts/3', { user: MAINTAINER });
    await screen.findByLabelText('Payload alert key for Title');
    expect(document.title).toBe('Configure details · Prometheus · acme/web · Alert ingestion');
    await user.click(screen.getByRole('link', { name: 'View credentials' }));
    await waitFor(() => expect(document.title).toBe('View credentials · Prometheus · acme/web · Alert ingestion'));
    await user.click(screen.getByRole('link', { name: 'Settings › Monitor › Alerts' }));
    await waitFor(() => expect(document.title).toBe('Settings › Monitor › Alerts · acme/web · Alert ingestion'));
  });
});
