import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { useIntegration } from '@console/api/queries';
import { Integration, IntegrationType } from '@console/api/types';
import { ErrorNotice, ErrorPage, Loading, SuccessMessage } from '@console/components/error-message';
import { TabLink, TabNav } from '@console/components/tab-nav';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { testAlertPath } from '@console/pages/alerts/send-test-alert.page';
import { useCurrentProject } from '@console/pages/project-layout';
import { CredentialsTab } from './credentials-tab';
import { DeliveriesTab } from './deliveries-tab';
import { HeartbeatStatus } from './heartbeat-field';
import { DraftSample, IntegrationDetailsForm } from './integration-details-form';
import { TestAlertTab } from './test-alert-tab';
import { IntegrationStatus } from './integration-status';

/**
 * The integration's tabs. Each is a row here (address, label, which types have it); the ones that
 * need a saved integration stay disabled until it is saved.
 */
const TABS = [
  { id: 'details', label: 'Configure details', types: ['http', 'external_link'], needsSaved: false },
  { id: 'credentials', label: 'View credentials', types: ['http'], needsSaved: true },
  { id: 'test', label: 'Send test alert', types: ['http'], needsSaved: true },
  { id: 'deliveries', label: 'Deliveries', types: ['http'], needsSaved: true },
] as const satisfies ReadonlyArray<{ id: string; label: string; types: readonly IntegrationType[]; needsSaved: boolean }>;

type TabId = (typeof TABS)[number]['id'];

/** After saving, the page says so: the save navigates with this router state. */
interface SavedState {
  saved?: 'created' | 'updated';
}

/** The "saved" notice held by the page: shown on the address it was given for, until the next save or another address. */
interface SavedNotice {
  /** The history entry that brought it (location.key). */
  key: string;
  path: string;
  saved: 'created' | 'updated';
}

export function IntegrationPage() {
  const project = useCurrentProject();
  const params = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const integrationId = params.integrationId === undefined ? null : Number(params.integrationId);
  const tabRow = TABS.find((candidate) => candidate.id === params.tab) ?? TABS[0];
  const tab: TabId = tabRow.id;
  const manage = can(project, 'manageIntegrations');
  // Below maintainer the integration's settings are not read (the API would answer 403).
  const integration = useIntegration(project.id, manage ? integrationId : null);
  const [newType, setNewType] = useState<IntegrationType>('http');
  // A delivery's body chosen as the sample payload: the page outlives its tabs, so it is held here
  // until the details are saved or it is discarded.
  const [draftSample, setDraftSample] = useState<DraftSample | null>(null);
  const base = `/projects/${project.id}/settings/alerts`;
  const tabPath = (id: number, tabId: TabId) => (tabId === 'details' ? `${base}/${id}` : `${base}/${id}/${tabId}`);
  const routedSaved = (location.state as SavedState | null)?.saved;
  const [notice, setNotice] = useState<SavedNotice | null>(null);
  if (routedSaved && notice?.key !== location.key) setNotice({ key: location.key, path: location.pathname, saved: routedSaved });
  else if (!routedSaved && notice && notice.path !== location.pathname) setNotice(null);
  // The browser keeps history state across a reload: once the page holds the notice, the entry's
  // state is cleared, so a reload (or a later visit of the same entry) does not announce it again.
  useEffect(() => {
    if (routedSaved) void navigate(location.pathname, { replace: true, state: null });
  }, [routedSaved, location.pathname, navigate]);
  const saved = notice?.path === location.pathname ? notice.saved : undefined;
  usePageTitle(
    integrationId === null ? 'Add new integration' : tabRow.label,
    integration.data?.name,
    project.path,
  );

  if (!manage) {
    return (
      <section className="page">
        <h1>Integration</h1>
        <ErrorNotice>Alert integrations are configured by maintainers and owners of the project.</ErrorNotice>
        {can(project, 'sendTestAlert') && (
          <p>
            To check an integration, <Link to={testAlertPath(project.id, integrationId ?? undefined)}>send a test alert</Link> through it from
            Monitor › Alerts.
          </p>
        )}
      </section>
    );
  }
  if (integrationId !== null && integration.isPending) return <Loading what="the integration" />;
  if (integrationId !== null && integration.error) {
    return <ErrorPage title="Integration" error={integration.error} back={<Link to={base}>Back to the integrations</Link>} />;
  }
  const current = integration.data ?? null;
  const type = current?.type ?? newType;
  if (params.tab !== undefined && (tab !== params.tab || !tabRow.types.some((t) => t === type))) {
    return <Navigate to={`${base}/${integrationId}`} replace />;
  }

  const onSaved = (savedIntegration: Integration, created: boolean) => {
    setDraftSample(null);
    const next = created && savedIntegration.type === 'http' ? 'credentials' : 'details';
    const state: SavedState = { saved: created ? 'created' : 'updated' };
    navigate(tabPath(savedIntegration.id, next), { state, replace: !created });
  };

  const tabs: TabLink[] = TABS.filter((candidate) => candidate.types.some((t) => t === type)).map((candidate) => ({
    id: candidate.id,
    label: candidate.label,
    to: current ? tabPath(current.id, candidate.id) : `${base}/new`,
    active: candidate.id === tab,
    disabledReason: candidate.needsSaved && !current ? 'Save the integration first' : undefined,
  }));

  return (
    <section className="page">
      <nav aria-label="Settings" className="breadcrumb">
        <Link to={base}>Settings › Monitor › Alerts</Link> <span aria-hidden="true">/</span> {current ? current.name : 'Add new integration'}
      </nav>
      <div className="page-title">
        <h1>{current ? current.name : 'Add new integration'}</h1>
        {current && (
          <IntegrationStatus integration={current} withType />
        )}
      </div>
      {current?.type === 'http' && <HeartbeatStatus integration={current} />}
      {saved === 'created' && (
        <SuccessMessage>
          Integration saved.{' '}
          {type === 'http' ? 'Configure your monitoring tool with the URL and authorization key below, then send a test alert.' : ''}
        </SuccessMessage>
      )}
      {saved === 'updated' && <SuccessMessage>Integration saved.</SuccessMessage>}
      {current?.type === 'external_link' && current.link_deprecation && (
        <div className="notice notice-warning">
          Deprecated from release {current.link_deprecation.deprecated_in}: {current.link_deprecation.message}
        </div>
      )}
      <TabNav label="Integration settings" tabs={tabs} />
      {tab === 'details' && (
        <IntegrationDetailsForm
          key={`${current?.id ?? 'new'}:${draftSample?.deliveryId ?? 'saved'}`}
          project={project}
          integration={current}
          type={type}
          onTypeChange={setNewType}
          onSaving={() => setNotice(null)}
          onSaved={onSaved}
          draftSample={current && draftSample?.integrationId === current.id ? draftSample : null}
          onDiscardDraft={() => setDraftSample(null)}
        />
      )}
      {tab === 'credentials' && current && <CredentialsTab projectId={project.id} integration={current} />}
      {tab === 'test' && current && <TestAlertTab key={current.id} project={project} integration={current} />}
      {tab === 'deliveries' && current && (
        <DeliveriesTab
          key={current.id}
          project={project}
          integration={current}
          onUseAsSample={(text, delivery) => {
            setDraftSample({ text, integrationId: current.id, deliveryId: delivery.id, receivedAt: delivery.received_at });
            navigate(`${base}/${current.id}`);
          }}
        />
      )}
    </section>
  );
}
