import { lazy, ReactNode, Suspense, useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useIncidentMutations, useIncidents } from '@console/api/incidents';
import { ApplySelect } from '@console/components/apply-select';
import { ActivityTimeline } from '@console/components/activity-timeline';
import { useAlert, useIntegrations } from '@console/api/queries';
import { DetailsList, TextOrNone } from '@console/components/details-list';
import { useCurrentMessage } from '@console/components/current-message';
import { ErrorMessage, ErrorPage, Loading } from '@console/components/error-message';
import { JsonTree } from '@console/components/json-tree';
import { SeverityLabel } from '@console/components/severity';
import { ExactTime } from '@console/components/time-ago';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';
import { SilencedBadge } from '@console/pages/silences/silence-badge';
import { newSilencePath } from '@console/pages/silences/silences.page';
import { incidentPath } from '@console/pages/incidents/incidents.page';
import { AlertAssignees } from './alert-assignees';
import { AlertNotificationsCard } from './alert-notifications-card';
import { AlertStatusControl } from './alert-status-control';
import { QuickActions, useTriageActions } from './alert-triage-actions';
import { ShortcutsHelp } from '@console/components/shortcuts-help';
import { ALERT_PAGE_SHORTCUTS } from '@console/lib/alert-triage';

/** The Escalation card: a chunk of its own, loaded with the alert page, so the main bundle stays within its budget. */
const AlertEscalationCard = lazy(() => import('./alert-escalation-card').then((module) => ({ default: module.AlertEscalationCard })));

/** One alert: every field of the query API's alert, the events counter, the payload as a tree. */
export function AlertDetailPage() {
  const project = useCurrentProject();
  const iid = Number(useParams().iid);
  const alert = useAlert(project.id, iid);
  usePageTitle(alert.data ? `#${alert.data.iid} ${alert.data.title}` : `Alert #${iid}`, 'Alerts', project.path);
  const manage = can(project, 'manageIntegrations');
  // The integration by name, from the integration list everyone who sees alerts may read (its id
  // only once it is deleted); maintainers can open its settings from it.
  const integrations = useIntegrations(project.id, Boolean(alert.data));
  const integrationName = integrations.data?.find((listed) => listed.id === alert.data?.integration_id)?.name;
  // Both here: the page outlives the controls they replace, so their onSuccess still runs.
  const { fromAlert, link } = useIncidentMutations(project.id);
  const navigate = useNavigate();
  // Linking replaces the control that had the focus: "View incident", which it brings, takes it.
  const message = useCurrentMessage();
  const triageMessage = useCurrentMessage();
  const triage = useTriageActions(project.id, triageMessage);
  const viewIncident = useRef<HTMLAnchorElement>(null);
  const focusViewIncident = useRef(false);
  const incidentIid = alert.data?.incident_iid ?? null;
  useEffect(() => {
    if (incidentIid !== null && focusViewIncident.current) viewIncident.current?.focus();
    focusViewIncident.current = false;
  }, [incidentIid]);
  const canChange = can(project, 'changeAlertStatus');
  const shortcuts = {
    a: () => alert.data && canChange && void triage.act([alert.data], 'acknowledge'),
    r: () => alert.data && canChange && void triage.act([alert.data], 'resolve'),
    m: () => alert.data && canChange && void triage.act([alert.data], 'assign'),
    i: () => incidentIid !== null && navigate(incidentPath(project.id, incidentIid)),
  };

  if (alert.isPending) return <Loading what="the alert" />;
  if (alert.error) return <ErrorPage title={`Alert #${iid}`} error={alert.error} back={<Link to={`/projects/${project.id}/alerts`}>Back to alerts</Link>} />;
  const data = alert.data;
  const fields: Array<[string, ReactNode]> = [
    ['Severity', <SeverityLabel severity={data.severity} />],
    ['Events', <strong className="events">{data.events}</strong>],
    ['Start time', <ExactTime iso={data.started_at} />],
    ['End time', <ExactTime iso={data.ended_at} />],
    ['Service', <TextOrNone value={data.service} />],
    ['Monitoring tool', <TextOrNone value={data.monitoring_tool} />],
    ['Hosts', data.hosts.length > 0 ? data.hosts.join(', ') : <span className="muted">none</span>],
    ['Environment', <TextOrNone value={data.platform_environment_name} />],
    [
      'Silenced',
      data.silenced_by ? (
        <>
          <Link to={`/projects/${project.id}/silences/${data.silenced_by.id}/edit`}>Silence {data.silenced_by.id}</Link> until <ExactTime iso={data.silenced_by.ends_at} />
          <div className="muted">{data.silenced_by.comment}</div>
        </>
      ) : (
        <span className="muted">no</span>
      ),
    ],
    [
      'Incident',
      data.incident_iid !== null ? (
        <Link to={incidentPath(project.id, data.incident_iid)}>Incident #{data.incident_iid}</Link>
      ) : can(project, 'manageIncidents') ? (
        <LinkToIncident
          projectId={project.id}
          alertIid={data.iid}
          link={link}
          onLinked={(linked) => {
            message.success(`Alert #${data.iid} linked to incident #${linked}.`);
            // The alert may be read again already (the link shown) or not yet (focused when it is).
            if (viewIncident.current) viewIncident.current.focus();
            else focusViewIncident.current = true;
          }}
        />
      ) : (
        <span className="muted">none</span>
      ),
    ],
    ['Fingerprint', data.fingerprint ? <code className="wrap">{data.fingerprint}</code> : <span className="muted">none</span>],
    [
      'Integration',
      manage ? (
        <Link to={`/projects/${project.id}/settings/alerts/${data.integration_id}`}>{integrationName ?? `Integration ${data.integration_id}`}</Link>
      ) : (
        (integrationName ?? `Integration ${data.integration_id}`)
      ),
    ],
    ['Created', <ExactTime iso={data.created_at} />],
    ['Updated', <ExactTime iso={data.updated_at} />],
  ];

  return (
    <section className="page">
      <nav aria-label="Alert" className="breadcrumb">
        <Link to={`/projects/${project.id}/alerts`}>Alerts</Link> <span aria-hidden="true">/</span> #{data.iid}
      </nav>
      <div className="page-title">
        <h1>
          #{data.iid} {data.title}
          {data.silenced_by && (
            <>
              {' '}
              <SilencedBadge projectId={project.id} silence={data.silenced_by} />
            </>
          )}
        </h1>
        {can(project, 'manageSilences') && (
          <Link to={newSilencePath(project.id, data.iid)} className="button">
            Silence similar
          </Link>
        )}
        {can(project, 'manageIncidents') && data.incident_iid === null && (
          <button
            type="button"
            className="button"
            disabled={fromAlert.isPending}
            onClick={() => fromAlert.mutate(data, { onSuccess: (incident) => navigate(incidentPath(project.id, incident.iid)) })}
          >
            Create incident
          </button>
        )}
        {data.incident_iid !== null && (
          <Link to={incidentPath(project.id, data.incident_iid)} className="button" ref={viewIncident} aria-keyshortcuts="i">
            View incident #{data.incident_iid}
          </Link>
        )}
        <div className="status-control">
          <AlertStatusControl projectId={project.id} iid={data.iid} status={data.status} showLabel />
        </div>
      </div>
      {canChange && (
        <div className="triage-bar">
          <QuickActions alert={data} me={triage.me} busy={triage.busy} onAct={(action) => void triage.act([data], action)} />
          <ShortcutsHelp shortcuts={ALERT_PAGE_SHORTCUTS} handlers={shortcuts} />
        </div>
      )}
      {triageMessage.view}
      <ErrorMessage error={fromAlert.error} title="No incident created" />
      {message.view}
      <div className="card">
        <h2>Assignees</h2>
        <AlertAssignees projectId={project.id} alert={data} canAssign={can(project, 'assignAlerts')} />
      </div>
      <div className="card">
        <h2>Description</h2>
        <p className="description">{data.description ?? <span className="muted">No description.</span>}</p>
      </div>
      <div className="card">
        <h2>Details</h2>
        <DetailsList fields={fields} className="details" />
      </div>
      <Suspense fallback={<Loading what="the escalation" />}>
        <AlertEscalationCard projectId={project.id} iid={data.iid} canAcknowledge={data.status === 'triggered' && can(project, 'changeAlertStatus')} />
      </Suspense>
      <AlertNotificationsCard projectId={project.id} iid={data.iid} />
      <div className="card">
        <h2>Payload</h2>
        <JsonTree value={data.payload} />
      </div>
      <ActivityTimeline subject={{ type: 'alert', projectId: project.id, iid: data.iid }} canWrite={can(project, 'writeNotes')} />
    </section>
  );
}

/** An alert with no incident joins an open one: chosen among the open incidents, then linked with the button (never on choosing). */
interface LinkToIncidentProps {
  projectId: number;
  alertIid: number;
  /** The page's link mutation (useIncidentMutations), which outlives this control. */
  link: ReturnType<typeof useIncidentMutations>['link'];
  onLinked(incidentIid: number): void;
}

function LinkToIncident({ projectId, alertIid, link, onLinked }: LinkToIncidentProps) {
  const open = useIncidents(projectId, 'open', '', 1);
  const incidents = open.data?.items ?? [];
  if (incidents.length === 0) return <span className="muted">none</span>;
  const titles = new Map(incidents.map((incident) => [String(incident.iid), `#${incident.iid} ${incident.title}`]));
  return (
    <ApplySelect
      label="Open incident"
      groupLabel={`Incident of alert #${alertIid}`}
      values={['', ...titles.keys()]}
      optionLabel={(value) => (value === '' ? 'None' : (titles.get(value) ?? value))}
      value=""
      applyLabel="Link to incident"
      chooseFirst="Choose an open incident first."
      pending={link.isPending}
      error={link.error}
      errorTitle="Not linked"
      onApply={(value) => {
        if (value !== '') link.mutate({ iid: Number(value), alertIid }, { onSuccess: (incident) => onLinked(incident.iid) });
      }}
    />
  );
}
