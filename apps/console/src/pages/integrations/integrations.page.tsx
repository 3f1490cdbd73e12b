import { useState } from 'react';
import { Link } from 'react-router';
import { useIntegrationMutations, useIntegrations } from '@console/api/queries';
import { IntegrationListItem } from '@console/api/types';
import { ConfirmDialog } from '@console/components/confirm-dialog';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage, ErrorNotice } from '@console/components/error-message';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { testAlertPath } from '@console/pages/alerts/send-test-alert.page';
import { useCurrentProject } from '@console/pages/project-layout';
import { FREE_TIER_REASONS, INTEGRATION_TYPE_LABELS } from './integration-types';
import { IntegrationStatus } from './integration-status';
import { AlertsSettingsHeader } from './alert-settings.page';

/** Settings > Monitor > Alerts: the integration list (spec 1.2: name, type, status) and its actions. */
export function IntegrationsPage() {
  const project = useCurrentProject();
  usePageTitle('Settings › Monitor › Alerts', project.path);
  const allowed = can(project, 'manageIntegrations');
  const integrations = useIntegrations(project.id, allowed);
  const { remove } = useIntegrationMutations(project.id);
  const [deleting, setDeleting] = useState<IntegrationListItem | null>(null);
  const base = `/projects/${project.id}/settings/alerts`;
  const freeTierFull = project.tier === 'free' && (integrations.data ?? []).some((integration) => integration.type === 'http');

  return (
    <section className="page">
      <AlertsSettingsHeader projectId={project.id} active="integrations" tabs={allowed && can(project, 'manageAlertSettings')} />
      <p className="muted">
        Monitoring tools send alerts as JSON to an integration&apos;s URL. Add an integration, then configure the tool with its URL and
        authorization key.
      </p>
      {!allowed && <ErrorNotice>Alert integrations are configured by maintainers and owners of the project.</ErrorNotice>}
      {!allowed && can(project, 'sendTestAlert') && (
        <p>
          To check an integration, <Link to={testAlertPath(project.id)}>send a test alert</Link> through it from Monitor › Alerts.
        </p>
      )}
      <ErrorMessage error={integrations.error} />
      <ErrorMessage error={remove.error} title="Not deleted" />
      {allowed && (
        <div className="card">
          <div className="card-title">
            <h2>Current integrations</h2>
            {freeTierFull ? (
              <span className="disabled-with-reason">
                <button type="button" className="button button-primary" disabled aria-describedby="add-integration-reason">
                  Add new integration
                </button>
                <span id="add-integration-reason" className="hint">
                  {FREE_TIER_REASONS.secondEndpoint}
                </span>
              </span>
            ) : (
              <Link to={`${base}/new`} className="button button-primary">
                Add new integration
              </Link>
            )}
          </div>
          <DataTable
            rows={integrations.data}
            loading={integrations.isPending && 'integrations'}
            empty={<p className="empty">No integrations yet. Add one to start receiving alerts.</p>}
            columns={['Status', 'Name', 'Type', 'Actions']}
          >
            {(integration) => (
              <tr key={integration.id}>
                <td>
                  <IntegrationStatus integration={integration} />
                </td>
                <td>
                  <Link to={`${base}/${integration.id}`}>{integration.name}</Link>
                </td>
                <td>{INTEGRATION_TYPE_LABELS[integration.type]}</td>
                <td>
                  <div className="row-actions">
                    <Link to={`${base}/${integration.id}`} className="button button-small" aria-label={`Edit ${integration.name}`}>
                      Edit
                    </Link>
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      aria-label={`Delete ${integration.name}`}
                      onClick={() => setDeleting(integration)}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            )}
          </DataTable>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete integration"
        confirmLabel="Delete integration"
        danger
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      >
        <p>
          Delete <strong>{deleting?.name}</strong>? Monitoring tools sending to its URL are refused from then on. Alerts it already created are
          kept.
        </p>
      </ConfirmDialog>
    </section>
  );
}
