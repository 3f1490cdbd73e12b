import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ActivityEntry, AlertSettings, Incident, IncidentAlert } from '@console/api/types';
import { alertFixture } from '@console/testing/alert-fixture';
import { renderApp, stubApi } from '@console/testing/render';

const DEVELOPER = { id: 6, username: 'dev', is_admin: false };
const MAINTAINER = { id: 5, username: 'maint', is_admin: false };
const project = (access_level: string) => ({ id: 7, path: 'acme/web', tier: 'premium', access_level });

const INCIDENT: Incident = {
  iid: 3,
  title: 'Checkout down',
  description: 'Opened from alert #4.\n\n- **Service**: checkout\n\n<script>alert(1)</script>',
  severity: 'high',
  status: 'open',
  created_by: { type: 'alert', alert_iid: 4 },
  alert_iids: [4, 9],
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  closed_at: null,
  owner: null,
};

const ALERT = alertFixture({ iid: 4, integration_id: 3 });

/** The incident's alerts as `GET .../incidents/3/alerts` lists them: open first. */
const INCIDENT_ALERTS: IncidentAlert[] = [
  { iid: 9, title: 'Checkout 5xx above 2%', severity: 'critical', status: 'triggered', events: 3, started_at: new Date().toISOString(), ended_at: null, last_event_at: new Date().toISOString() },
  { iid: 4, title: 'Checkout down', severity: 'high', status: 'resolved', events: 1, started_at: new Date().toISOString(), ended_at: new Date().toISOString(), last_event_at: new Date().toISOString() },
];

const ENTRY: ActivityEntry = {
  id: 1,
  kind: 'incident_created',
  created_at: new Date().toISOString(),
  actor: { type: 'service' },
  source: 'settings',
  reason: null,
  details: { alert_iid: 4 },
};

describe('IncidentsPage', () => {
  it('lists incidents with Open, Closed and All tabs and their counts, and searches', async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/incidents': { body: [INCIDENT], headers: { 'X-Total': '1' } },
      'GET /projects/7/incidents/status_counts': { body: { open: 1, closed: 2, all: 3 } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/incidents', { user: DEVELOPER });
    const row = (await screen.findByRole('link', { name: '#3 Checkout down' })).closest('tr')!;
    expect(within(row).getByText('alert #4')).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Incident status' });
    expect(within(tabs).getByRole('link', { name: 'Closed 2' })).toBeInTheDocument();
    expect(within(tabs).getByRole('link', { name: 'All 3' })).toBeInTheDocument();
    expect(api.sent('GET /projects/7/incidents')[0].query.get('status')).toBe('open');

    await user.click(within(tabs).getByRole('link', { name: 'Closed 2' }));
    await waitFor(() => expect(api.sent('GET /projects/7/incidents').map((request) => request.query.get('status'))).toContain('closed'));
    await user.type(screen.getByLabelText('Search incidents'), 'checkout');
    await waitFor(() => expect(api.sent('GET /projects/7/incidents').map((request) => request.query.get('search'))).toContain('checkout'));
  });

  it('creates an incident and opens it; an empty title is refused at its field', { timeout: 20_000 }, async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/incidents': { body: [], headers: { 'X-Total': '0' } },
      'GET /projects/7/incidents/status_counts': { body: { open: 0, closed: 0, all: 0 } },
      'POST /projects/7/incidents': (request) => ({ status: 201, body: { ...INCIDENT, ...(request.body as object), iid: 8, alert_iids: [] } }),
      'GET /projects/7/incidents/8': { body: { ...INCIDENT, iid: 8, title: 'Payments slow', alert_iids: [] } },
      'GET /projects/7/incidents/8/activity': { body: [], headers: { 'X-Total': '0' } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/incidents', { user: DEVELOPER });
    await user.click(await screen.findByRole('button', { name: 'Create incident' }));
    const form = screen.getByRole('form', { name: 'New incident' });
    await user.click(within(form).getByRole('button', { name: 'Create incident' }));
    expect(within(form).getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByLabelText('Title')).toHaveFocus();
    expect(api.sent('POST /projects/7/incidents')).toHaveLength(0);

    await user.type(within(form).getByLabelText('Title'), 'Payments slow');
    await user.selectOptions(within(form).getByLabelText('Severity'), 'medium');
    await user.click(within(form).getByRole('button', { name: 'Create incident' }));
    await waitFor(() => expect(api.sent('POST /projects/7/incidents')).toHaveLength(1));
    expect(api.sent('POST /projects/7/incidents')[0].body).toEqual({ title: 'Payments slow', severity: 'medium' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/projects/7/incidents/8'));
  });

  it('offers a reporter no incidents in the menu', async () => {
    stubApi({ 'GET /projects/7': { body: project('reporter') } });
    renderApp('/projects/7/incidents', { user: DEVELOPER });
    const menu = await screen.findByRole('navigation', { name: 'Project' });
    expect(within(menu).queryByRole('link', { name: 'Incidents' })).not.toBeInTheDocument();
  });
});

describe('IncidentDetailPage', () => {
  it('shows the fields, its alerts, the description without raw HTML, the timeline; closing asks first and resolves', { timeout: 20_000 }, async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/incidents/3': { body: INCIDENT },
      'GET /projects/7/incidents/3/alerts': { body: INCIDENT_ALERTS },
      'GET /projects/7/incidents/3/activity': { body: [ENTRY], headers: { 'X-Total': '1' } },
      'PUT /projects/7/incidents/3': (request) => ({ body: { ...INCIDENT, ...(request.body as object), closed_at: new Date().toISOString() } }),
    });
    const user = userEvent.setup();
    const { container } = renderApp('/projects/7/incidents/3', { user: DEVELOPER });
    expect(await screen.findByRole('heading', { name: '#3 Checkout down' })).toBeInTheDocument();
    // Open first: the firing alert, then the resolved one, each with its state.
    const rows = within(await screen.findByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2].textContent)).toEqual(['Triggered · firing', 'Resolved']);
    expect(within(rows[0]).getByRole('link', { name: '#9 Checkout 5xx above 2%' })).toHaveAttribute('href', '/projects/7/alerts/9');
    expect(screen.getAllByRole('link', { name: 'Alert #4' }).length).toBeGreaterThan(0);
    expect(screen.getByText('Service', { selector: '.markdown strong' })).toBeInTheDocument();
    expect(container.querySelector('script')).toBeNull();
    const timeline = await screen.findByRole('list', { name: 'Activity of incident #3' });
    expect(timeline.querySelector('.timeline-text')?.textContent).toBe('The alert settings opened the incident from alert #4.');
    expect(within(timeline).getByRole('link', { name: 'alert #4' })).toHaveAttribute('href', '/projects/7/alerts/4');

    await user.click(screen.getByRole('button', { name: 'Close incident' }));
    const dialog = screen.getByRole('dialog', { name: 'Close this incident?' });
    expect(within(dialog).getByText('Closing it resolves its open alert:')).toBeInTheDocument();
    expect(within(within(dialog).getByRole('list', { name: 'Alerts closing resolves' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '#9 Checkout 5xx above 2% (Triggered · firing)',
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Close incident' }));
    await waitFor(() => expect(api.sent('PUT /projects/7/incidents/3')).toHaveLength(1));
    expect(api.sent('PUT /projects/7/incidents/3')[0].body).toEqual({ status: 'closed' });
    expect(await screen.findByText('Incident #3 closed; its alerts are resolved.')).toBeInTheDocument();
  });

  it("links an alert, and shows the API's refusal at the field", { timeout: 20_000 }, async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/incidents/3': { body: INCIDENT },
      'GET /projects/7/incidents/3/alerts': { body: INCIDENT_ALERTS },
      'GET /projects/7/incidents/3/activity': { body: [], headers: { 'X-Total': '0' } },
      'POST /projects/7/incidents/3/alerts': { status: 409, body: { error: 'alert_has_incident', message: 'Alert 5 already belongs to another incident.', field: 'alert_iid' } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/incidents/3', { user: DEVELOPER });
    const form = await screen.findByRole('form', { name: 'Link an alert' });
    await user.type(within(form).getByLabelText('Alert #'), '5');
    await user.click(within(form).getByRole('button', { name: 'Link alert' }));
    await waitFor(() => expect(api.sent('POST /projects/7/incidents/3/alerts')).toHaveLength(1));
    expect(api.sent('POST /projects/7/incidents/3/alerts')[0].body).toEqual({ alert_iid: 5 });
    expect(await within(form).findByText(/already belongs to another incident/)).toBeInTheDocument();
    expect(within(form).getByLabelText('Alert #')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says an address that names no incident is not found, without asking the API', async () => {
    const api = stubApi({ 'GET /projects/7': { body: project('developer') } });
    renderApp('/projects/7/incidents/abc', { user: DEVELOPER });
    expect(await screen.findByRole('heading', { name: 'Incident not found', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/This project has no incident “abc”/)).toBeInTheDocument();
    expect(screen.queryByText(/NaN/)).not.toBeInTheDocument();
    expect(api.requests.filter((request) => request.path.startsWith('/projects/7/incidents'))).toHaveLength(0);
  });

  it('says an incident the API does not have is not found', async () => {
    stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/incidents/99': { status: 404, body: { error: 'incident_not_found', message: 'Incident 99 not found.' } },
    });
    renderApp('/projects/7/incidents/99', { user: DEVELOPER });
    expect(await screen.findByRole('heading', { name: 'Incident not found', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/This project has no incident “#99”/)).toBeInTheDocument();
  });

  it('renders a Markdown heading of the description at most as an h3, never a second h1', async () => {
    stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/incidents/3': { body: { ...INCIDENT, description: '# Impact\n\n## Timeline\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |' } },
      'GET /projects/7/incidents/3/alerts': { body: [] },
      'GET /projects/7/incidents/3/activity': { body: [], headers: { 'X-Total': '0' } },
    });
    const { container } = renderApp('/projects/7/incidents/3', { user: DEVELOPER });
    expect(await screen.findByRole('heading', { name: 'Impact', level: 3 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Timeline', level: 4 })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(container.querySelector('.markdown blockquote')).toHaveTextContent('quoted');
    expect(container.querySelector('.markdown table td')).toHaveTextContent('1');
  });
});

describe('after a navigation', () => {
  it("puts the focus on the new page's heading, not on the link that went or the body", { timeout: 20_000 }, async () => {
    stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/incidents': { body: [INCIDENT], headers: { 'X-Total': '1' } },
      'GET /projects/7/incidents/status_counts': { body: { open: 1, closed: 0, all: 1 } },
      'GET /projects/7/alert_settings': { body: { create_incident: false, send_email: false, auto_close_incident: false, email_configured: false } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/incidents', { user: DEVELOPER });
    // The first page keeps the focus where the browser left it.
    await screen.findByRole('heading', { name: 'Incidents', level: 1 });
    expect(document.body).toHaveFocus();
    await user.click(within(screen.getByRole('navigation', { name: 'Project' })).getByRole('link', { name: 'Alert settings' }));
    const heading = await screen.findByRole('heading', { name: 'Alerts', level: 1 });
    await waitFor(() => expect(heading).toHaveFocus());
  });
});

describe('Create incident form', () => {
  it('takes the focus to its Title', async () => {
    stubApi({ 'GET /projects/7': { body: project('developer') }, 'GET /projects/7/incidents': { body: [], headers: { 'X-Total': '0' } } });
    const user = userEvent.setup();
    renderApp('/projects/7/incidents', { user: DEVELOPER });
    await user.click(await screen.findByRole('button', { name: 'Create incident' }));
    expect(within(screen.getByRole('form', { name: 'New incident' })).getByLabelText('Title')).toHaveFocus();
  });
});

describe('"Create incident" on the alert page', () => {
  it('opens an incident from the alert and goes to it; an alert with one links to it instead', { timeout: 20_000 }, async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/alerts/4': { body: ALERT },
      'POST /projects/7/alerts/4/incident': { status: 201, body: INCIDENT },
      'GET /projects/7/incidents/3': { body: INCIDENT },
      'GET /projects/7/incidents/3/activity': { body: [], headers: { 'X-Total': '0' } },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    await user.click(await screen.findByRole('button', { name: 'Create incident' }));
    await waitFor(() => expect(api.sent('POST /projects/7/alerts/4/incident')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/projects/7/incidents/3'));
  });

  it('links the alert to an open incident: chosen, then applied with the button', { timeout: 20_000 }, async () => {
    let linked = false;
    const api = stubApi({
      'GET /projects/7': { body: project('developer') },
      'GET /projects/7/alerts/4': () => ({ body: { ...ALERT, incident_iid: linked ? 3 : null } }),
      'GET /projects/7/incidents': { body: [INCIDENT], headers: { 'X-Total': '1' } },
      'POST /projects/7/incidents/3/alerts': () => {
        linked = true;
        return { body: { ...INCIDENT, alert_iids: [4, 9] } };
      },
    });
    const user = userEvent.setup();
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    const select = await screen.findByLabelText('Open incident');
    // Pressed before choosing: it says what to do, and links nothing.
    await user.click(screen.getByRole('button', { name: 'Link to incident' }));
    expect(within(screen.getByRole('group', { name: 'Incident of alert #4' })).getByRole('status')).toHaveTextContent('Choose an open incident first.');
    await user.selectOptions(select, '#3 Checkout down');
    expect(screen.queryByText('Choose an open incident first.')).not.toBeInTheDocument();
    expect(api.sent('POST /projects/7/incidents/3/alerts')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Link to incident' }));
    await waitFor(() => expect(api.sent('POST /projects/7/incidents/3/alerts')).toHaveLength(1));
    expect(api.sent('POST /projects/7/incidents/3/alerts')[0].body).toEqual({ alert_iid: 4 });
    expect(await screen.findByRole('link', { name: 'Incident #3' })).toBeInTheDocument();
    // The control that had the focus is gone: "View incident", which linking brings, takes it, and the confirmation says what happened.
    await screen.findByText('Alert #4 linked to incident #3.');
    await waitFor(() => expect(screen.getByRole('link', { name: 'View incident #3' })).toHaveFocus());
  });

  it('shows the linked incident', async () => {
    stubApi({ 'GET /projects/7': { body: project('developer') }, 'GET /projects/7/alerts/4': { body: { ...ALERT, incident_iid: 3 } } });
    renderApp('/projects/7/alerts/4', { user: DEVELOPER });
    expect(await screen.findByRole('link', { name: 'Incident #3' })).toHaveAttribute('href', '/projects/7/incidents/3');
    expect(screen.queryByRole('button', { name: 'Create incident' })).not.toBeInTheDocument();
  });
});

describe('Alert settings tab', () => {
  const SETTINGS: AlertSettings = { create_incident: false, send_email: false, auto_close_incident: false, email_configured: false };

  it('maintainers switch each setting, saved at once; email says it is not configured', { timeout: 20_000 }, async () => {
    const api = stubApi({
      'GET /projects/7': { body: project('maintainer') },
      'GET /projects/7/alert_integrations': { body: [] },
      'GET /projects/7/alert_settings': { body: SETTINGS },
      'PUT /projects/7/alert_settings': (request) => ({ body: { ...SETTINGS, ...(request.body as object) } }),
    });
    const user = userEvent.setup();
    renderApp('/projects/7/settings/alerts', { user: MAINTAINER });
    await user.click(within(await screen.findByRole('navigation', { name: 'Alerts settings' })).getByRole('link', { name: 'Alert settings' }));
    const create = await screen.findByRole('switch', { name: 'Create an incident' });
    expect(screen.getByText(/Email is not configured/)).toBeInTheDocument();
    await user.click(create);
    await waitFor(() => expect(api.sent('PUT /projects/7/alert_settings')).toHaveLength(1));
    expect(api.sent('PUT /projects/7/alert_settings')[0].body).toEqual({ create_incident: true });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Create an incident' })).toBeChecked());
  });

  it('shows a developer the settings read-only, from the Monitor menu', async () => {
    const api = stubApi({ 'GET /projects/7': { body: project('developer') }, 'GET /projects/7/alert_settings': { body: { ...SETTINGS, create_incident: true } } });
    const user = userEvent.setup();
    renderApp('/projects/7/alerts', { user: DEVELOPER });
    await user.click(within(await screen.findByRole('navigation', { name: 'Project' })).getByRole('link', { name: 'Alert settings' }));
    expect(await screen.findByText('You see these settings read-only: maintainers and owners of the project change them.')).toBeInTheDocument();
    const create = screen.getByRole('switch', { name: 'Create an incident' });
    expect(create).toBeChecked();
    expect(create).toBeDisabled();
    expect(screen.queryByRole('navigation', { name: 'Alerts settings' })).not.toBeInTheDocument();
    await user.click(create);
    expect(api.sent('PUT /projects/7/alert_settings')).toHaveLength(0);
  });

  it('describes each switch by its hint, and says the outcome under the switches', { timeout: 20_000 }, async () => {
    stubApi({
      'GET /projects/7': { body: project('maintainer') },
      'GET /projects/7/alert_settings': { body: SETTINGS },
      'PUT /projects/7/alert_settings': (request) => ({ body: { ...SETTINGS, ...(request.body as object) } }),
    });
    const user = userEvent.setup();
    renderApp('/projects/7/settings/alerts/alert_settings', { user: MAINTAINER });
    const email = await screen.findByRole('switch', { name: 'Send a single email notification' });
    expect(email).toHaveAccessibleDescription(/Email owners and maintainers of the project .* Email is not configured on this service/);
    expect(screen.getByRole('switch', { name: 'Create an incident' })).toHaveAccessibleDescription('Open an incident for each triggered alert (not for grouped events or resolutions).');
    await user.click(screen.getByRole('switch', { name: 'Create an incident' }));
    const saved = await screen.findByText('Create an incident: on.');
    // After the switches in the document: its appearance moves none of them.
    const fieldset = screen.getByRole('group', { name: 'Alert settings' });
    expect(fieldset.compareDocumentPosition(saved) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
