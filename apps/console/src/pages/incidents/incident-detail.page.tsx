import { FormEvent, ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useIncident, useIncidentMutations } from '../../api/incidents';
import { Incident } from '../../api/types';
import { ActivityTimeline } from '../../components/activity-timeline';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useCurrentMessage } from '../../components/current-message';
import { DetailsList } from '../../components/details-list';
import { ErrorMessage, ErrorPage, Loading } from '../../components/error-message';
import { Field } from '../../components/field';
import { MarkdownText } from '../../components/markdown';
import { useFormErrors } from '../../components/form-errors';
import { SeverityLabel } from '../../components/severity';
import { ExactTime } from '../../components/time-ago';
import { usePageTitle } from '../../lib/use-page-title';
import { can } from '../../session/roles';
import { useCurrentProject } from '../project-layout';
import { creatorOf } from './incidents.page';

/** One incident: its fields, its description (Markdown, no raw HTML), its alerts, its timeline; developers close, reopen, link alerts and write notes. */
export function IncidentDetailPage() {
  const project = useCurrentProject();
  const iid = Number(useParams().iid);
  const incident = useIncident(project.id, iid);
  const { update } = useIncidentMutations(project.id);
  const [closing, setClosing] = useState(false);
  const message = useCurrentMessage();
  const manage = can(project, 'manageIncidents');
  usePageTitle(incident.data ? `Incident #${incident.data.iid} ${incident.data.title}` : `Incident #${iid}`, 'Incidents', project.path);

  if (incident.isPending) return <Loading what="the incident" />;
  if (incident.error) return <ErrorPage title={`Incident #${iid}`} error={incident.error} back={<Link to={`/projects/${project.id}/incidents`}>Back to incidents</Link>} />;
  const data = incident.data;
  const setStatus = (status: Incident['status']) =>
    update.mutate(
      { iid, status },
      {
        onSuccess: (changed) => {
          setClosing(false);
          message.success(changed.status === 'closed' ? `Incident #${iid} closed; its alerts are resolved.` : `Incident #${iid} reopened.`);
        },
        onError: (error) => {
          setClosing(false);
          message.error(error, status === 'closed' ? 'Not closed' : 'Not reopened');
        },
      },
    );
  const fields: Array<[string, ReactNode]> = [
    ['Status', data.status === 'open' ? 'Open' : 'Closed'],
    ['Severity', <SeverityLabel severity={data.severity} />],
    [
      'Opened by',
      data.created_by.type === 'alert' && data.created_by.alert_iid !== null ? (
        <Link to={`/projects/${project.id}/alerts/${data.created_by.alert_iid}`}>Alert #{data.created_by.alert_iid}</Link>
      ) : (
        creatorOf(data)
      ),
    ],
    ['Created', <ExactTime iso={data.created_at} />],
    ['Closed', <ExactTime iso={data.closed_at} />],
    ['Updated', <ExactTime iso={data.updated_at} />],
  ];

  return (
    <section className="page">
      <nav aria-label="Incident" className="breadcrumb">
        <Link to={`/projects/${project.id}/incidents`}>Incidents</Link> <span aria-hidden="true">/</span> #{data.iid}
      </nav>
      <div className="page-title">
        <h1>
          #{data.iid} {data.title}
        </h1>
        {manage &&
          (data.status === 'open' ? (
            <button type="button" className="button button-danger-outline" onClick={() => setClosing(true)} disabled={update.isPending}>
              Close incident
            </button>
          ) : (
            <button type="button" className="button" onClick={() => setStatus('open')} disabled={update.isPending}>
              Reopen incident
            </button>
          ))}
      </div>
      {message.view}
      <div className="card">
        <h2>Details</h2>
        <DetailsList fields={fields} className="details" />
      </div>
      <div className="card">
        <h2>Description</h2>
        {data.description ? (
          <div className="markdown">
            <MarkdownText text={data.description} skipHtml />
          </div>
        ) : (
          <p className="muted">No description.</p>
        )}
      </div>
      <LinkedAlerts projectId={project.id} incident={data} manage={manage} />
      <ActivityTimeline subject={{ type: 'incident', projectId: project.id, iid }} canWrite={can(project, 'writeNotes')} />
      <ConfirmDialog
        open={closing}
        title="Close this incident?"
        confirmLabel="Close incident"
        danger
        busy={update.isPending}
        onConfirm={() => setStatus('closed')}
        onCancel={() => setClosing(false)}
      >
        <p>
          Its {data.alert_iids.length === 1 ? 'alert is' : `${data.alert_iids.length} alerts are`} resolved, if not resolved already.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function LinkedAlerts({ projectId, incident, manage }: { projectId: number; incident: Incident; manage: boolean }) {
  const { link } = useIncidentMutations(projectId);
  const [alertIid, setAlertIid] = useState('');
  const { formRef, errors, show, clear, showApiError } = useFormErrors<'alert_iid'>();
  const [failure, setFailure] = useState<unknown>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const iid = Number(alertIid);
    if (!Number.isInteger(iid) || iid < 1) return show({ alert_iid: 'Give the number of an alert of this project (its #).' });
    link.mutate(
      { iid: incident.iid, alertIid: iid },
      {
        onSuccess: () => setAlertIid(''),
        onError: (error) => {
          if (!showApiError(error, { fields: { alert_iid: 'alert_iid' } }, 'Not linked')) setFailure(error);
        },
      },
    );
  };
  return (
    <div className="card">
      <h2>Alerts</h2>
      {incident.alert_iids.length === 0 ? (
        <p className="muted">No alerts linked.</p>
      ) : (
        <ul className="linked-alerts">
          {incident.alert_iids.map((iid) => (
            <li key={iid}>
              <Link to={`/projects/${projectId}/alerts/${iid}`}>Alert #{iid}</Link>
            </li>
          ))}
        </ul>
      )}
      {manage && incident.status === 'open' && (
        <form className="form form-inline" onSubmit={submit} noValidate ref={formRef} aria-label="Link an alert">
          <Field label="Alert #" error={errors.alert_iid}>
            {(id, { errorId }) => (
              <input
                id={id}
                inputMode="numeric"
                value={alertIid}
                aria-invalid={errors.alert_iid ? true : undefined}
                aria-describedby={errorId}
                onChange={(event) => {
                  setAlertIid(event.target.value);
                  clear('alert_iid');
                }}
              />
            )}
          </Field>
          <button type="submit" className="button" disabled={link.isPending}>
            Link alert
          </button>
          <ErrorMessage error={failure} title="Not linked" />
        </form>
      )}
    </div>
  );
}
