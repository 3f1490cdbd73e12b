import { Link, useParams } from 'react-router';
import { useIntegrations } from '@console/api/queries';
import { IntegrationListItem, Project } from '@console/api/types';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage, ErrorPage, Loading } from '@console/components/error-message';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { INTEGRATION_TYPE_LABELS } from '@console/pages/integrations/integration-types';
import { TestAlertTab } from '@console/pages/integrations/test-alert-tab';
import { useCurrentProject } from '@console/pages/project-layout';
import { IntegrationStatus } from '@console/pages/integrations/integration-status';

/** Where developers send a test alert from (Monitor > Alerts): the integrations, then one integration's test alert. */
export const testAlertPath = (projectId: number, integrationId?: number) =>
  `/projects/${projectId}/alerts/test-alert${integrationId === undefined ? '' : `/${integrationId}`}`;

/** Only an active HTTP Endpoint receives alerts, and so a test alert (the API answers 422 or 409 otherwise). */
const takesTestAlert = (integration: IntegrationListItem) => integration.type === 'http' && integration.active;

function Breadcrumb({ project, integration }: { project: Project; integration?: string }) {
  return (
    <nav aria-label="Alert" className="breadcrumb">
      <Link to={`/projects/${project.id}/alerts`}>Alerts</Link> <span aria-hidden="true">/</span>{' '}
      {integration ? (
        <>
          <Link to={testAlertPath(project.id)}>Send test alert</Link> <span aria-hidden="true">/</span> {integration}
        </>
      ) : (
        'Send test alert'
      )}
    </nav>
  );
}

function NeedsDeveloper() {
  return (
    <p className="notice notice-info">
      Sending a test alert needs the Developer role or higher in this project. Ask a project owner for more access.
    </p>
  );
}

/**
 * Monitor > Alerts > Send test alert (spec 1.7, 4.2: developer+). Configuring integrations stays
 * in Settings (maintainer+); this lists them by name, type and status (the integration list, which
 * developers may read: no credentials) so that a developer can pick the one to test.
 */
export function SendTestAlertPage() {
  const project = useCurrentProject();
  const allowed = can(project, 'sendTestAlert');
  const integrations = useIntegrations(project.id, allowed);
  usePageTitle('Send test alert', project.path);

  return (
    <section className="page">
      <Breadcrumb project={project} />
      <h1>Send test alert</h1>
      <p className="muted">
        A test alert goes to an integration&apos;s URL with its key, as the monitoring tool would send it, and creates or updates alerts like
        any other. Choose the integration to send it through.
      </p>
      {!allowed && <NeedsDeveloper />}
      <ErrorMessage error={integrations.error} />
      <DataTable
        rows={integrations.data}
        loading={allowed && integrations.isPending && 'integrations'}
        empty={<p className="empty">This project has no integrations yet. Maintainers add them in Settings › Monitor › Alerts.</p>}
        columns={['Status', 'Name', 'Type', 'Test alert']}
        scroll
      >
        {(integration) => (
          <tr key={integration.id}>
            <td>
              <IntegrationStatus integration={integration} />
            </td>
            <td>{integration.name}</td>
            <td>{INTEGRATION_TYPE_LABELS[integration.type]}</td>
            <td>
              {takesTestAlert(integration) ? (
                <Link to={testAlertPath(project.id, integration.id)} className="button button-small" aria-label={`Send a test alert to ${integration.name}`}>
                  Send test alert
                </Link>
              ) : integration.type === 'http' ? (
                <span className="muted">Disabled: a maintainer turns it on first</span>
              ) : (
                <span className="muted">Receives no alerts</span>
              )}
            </td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}

/**
 * One integration's "Send test alert", on its own: for a developer the only tab of the integration
 * there is (its settings, URL and key are maintainer+). The form reads what a test alert is written
 * from (`GET .../test_alert`: the sample payload) and previews it under the integration's mapping
 * (`POST .../test_alert/preview`), both developer+, so every role sees the same page.
 */
export function SendTestAlertToIntegrationPage() {
  const project = useCurrentProject();
  const requestedId = useParams().integrationId ?? '';
  const integrationId = Number(requestedId);
  const allowed = can(project, 'sendTestAlert');
  const integrations = useIntegrations(project.id, allowed);
  const listed = integrations.data?.find((integration) => integration.id === integrationId);
  usePageTitle('Send test alert', listed?.name, project.path);

  const back = (
    <Link to={testAlertPath(project.id)} aria-label="Back to Send test alert">
      Back to the integrations
    </Link>
  );
  if (!allowed) {
    return (
      <section className="page">
        <h1>Send test alert</h1>
        <NeedsDeveloper />
      </section>
    );
  }
  if (integrations.isPending) return <Loading what="the integration" />;
  if (integrations.error) return <ErrorPage title="Send test alert" error={integrations.error} back={back} />;
  if (!listed) {
    return (
      <section className="page">
        <Breadcrumb project={project} integration={`Integration ${requestedId}`} />
        <h1>Send test alert</h1>
        <p className="notice notice-error">This project has no integration {requestedId}.</p>
        {back}
      </section>
    );
  }
  return (
    <section className="page">
      <Breadcrumb project={project} integration={listed.name} />
      <div className="page-title">
        <h1>Send test alert: {listed.name}</h1>
        <IntegrationStatus integration={listed} withType />
      </div>
      {listed.type === 'http' ? (
        <TestAlertTab key={listed.id} project={project} integration={listed} />
      ) : (
        <p className="notice notice-info">The external incident management link receives no alerts, so it takes no test alert.</p>
      )}
    </section>
  );
}
