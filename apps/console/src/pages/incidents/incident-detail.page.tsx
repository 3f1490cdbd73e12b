import { FormEvent, ReactNode, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAssigneeCandidates } from '@console/api/alert-workflow';
import { ApiError, Schemas } from '@console/api/client';
import { useIncident, useIncidentAlerts, useIncidentMutations } from '@console/api/incidents';
import { Incident, SEVERITIES } from '@console/api/types';
import { ApplySelect } from '@console/components/apply-select';
import { DataTable } from '@console/components/data-table';
import { ActivityTimeline } from '@console/components/activity-timeline';
import { ConfirmDialog } from '@console/components/confirm-dialog';
import { useCurrentMessage } from '@console/components/current-message';
import { DetailsList } from '@console/components/details-list';
import { ErrorMessage, ErrorPage, Loading } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { MarkdownText } from '@console/components/markdown';
import { useFormErrors } from '@console/components/form-errors';
import { SEVERITY_LABELS, SeverityLabel } from '@console/components/severity';
import { ExactTime, TimeAgo } from '@console/components/time-ago';
import { alertsClosingResolves, alertStateText, closingSummary, isOpenAlert, ownerChoice, ownerIdOf } from '@console/lib/incident-alerts';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';
import { creatorOf } from './incidents.page';

/** The incident's iid in the address: a positive whole number, or null (`/incidents/abc`). */
export function incidentIidOf(text: string | undefined): number | null {
  return text !== undefined && /^[1-9][0-9]{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

/** One incident as a war room: its alerts (open ones first, each one's state and latest event), its fields edited in place, its owner, its timeline; developers close, reopen, link alerts and write notes. */
export function IncidentDetailPage() {
  const project = useCurrentProject();
  const text = useParams().iid;
  const iid = incidentIidOf(text);
  if (iid === null) return <IncidentNotFound projectId={project.id} projectPath={project.path} what={text ?? ''} />;
  return <IncidentWarRoom key={iid} iid={iid} />;
}

/** An address that names no incident of the project: said so, with the way back. */
function IncidentNotFound({ projectId, projectPath, what }: { projectId: number; projectPath: string; what: string }) {
  usePageTitle('Incident not found', 'Incidents', projectPath);
  return (
    <section className="page">
      <h1>Incident not found</h1>
      <p>
        This project has no incident “{what}”. <Link to={`/projects/${projectId}/incidents`}>Back to incidents</Link>
      </p>
    </section>
  );
}

function IncidentWarRoom({ iid }: { iid: number }) {
  const project = useCurrentProject();
  const incident = useIncident(project.id, iid);
  const alerts = useIncidentAlerts(project.id, iid, !incident.error);
  const { update } = useIncidentMutations(project.id);
  const [closing, setClosing] = useState(false);
  const message = useCurrentMessage();
  const manage = can(project, 'manageIncidents');
  usePageTitle(incident.data ? `Incident #${incident.data.iid} ${incident.data.title}` : `Incident #${iid}`, 'Incidents', project.path);

  if (incident.isPending) return <Loading what="the incident" />;
  if (incident.error instanceof ApiError && incident.error.status === 404)
    return <IncidentNotFound projectId={project.id} projectPath={project.path} what={`#${iid}`} />;
  if (incident.error) return <ErrorPage title={`Incident #${iid}`} error={incident.error} back={<Link to={`/projects/${project.id}/incidents`}>Back to incidents</Link>} />;
  const data = incident.data;
  const toResolve = alertsClosingResolves(alerts.data ?? []);
  /** Saves a change of the incident; the message says what it did, or why not. */
  const change = (changes: Schemas['UpdateIncidentDto'], done: (changed: Incident) => string, failed: string, after?: () => void) =>
    update.mutate(
      { iid, ...changes },
      {
        onSuccess: (changed) => {
          after?.();
          message.success(done(changed));
        },
        onError: (error) => {
          after?.();
          message.error(error, failed);
        },
      },
    );
  const setStatus = (status: Incident['status']) =>
    change(
      { status },
      (changed) => (changed.status === 'closed' ? `Incident #${iid} closed; its alerts are resolved.` : `Incident #${iid} reopened.`),
      status === 'closed' ? 'Not closed' : 'Not reopened',
      () => setClosing(false),
    );
  const fields: Array<[string, ReactNode]> = [
    ['Status', data.status === 'open' ? 'Open' : 'Closed'],
    [
      'Severity',
      manage ? (
        <ApplySelect
          label="Severity"
          groupLabel={`Severity of incident #${iid}`}
          values={SEVERITIES}
          optionLabel={(value) => SEVERITY_LABELS[value]}
          value={data.severity}
          applyLabel="Change severity"
          pending={update.isPending && update.variables?.severity !== undefined}
          error={null}
          errorTitle="Severity not changed"
          onApply={(severity) => change({ severity }, (changed) => `Severity changed to ${SEVERITY_LABELS[changed.severity]}.`, 'Severity not changed')}
        />
      ) : (
        <SeverityLabel severity={data.severity} />
      ),
    ],
    ['Owner', manage ? <OwnerControl projectId={project.id} incident={data} pending={update.isPending && update.variables?.owner_id !== undefined} change={change} /> : data.owner ? `@${data.owner.username}` : <span className="muted">nobody</span>],
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
    <section className="page incident-page">
      <nav aria-label="Incident" className="breadcrumb">
        <Link to={`/projects/${project.id}/incidents`}>Incidents</Link> <span aria-hidden="true">/</span> #{data.iid}
      </nav>
      <div className="page-title">
        <InPlaceText
          label="Title"
          value={data.title}
          canEdit={manage}
          multiline={false}
          pending={update.isPending}
          onSave={(title, done) => change({ title }, () => `Title changed to “${title}”.`, 'Title not changed', done)}
        >
          <h1 className="incident-heading">
            #{data.iid} {data.title}
          </h1>
        </InPlaceText>
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
      <IncidentAlerts projectId={project.id} incident={data} alerts={alerts} manage={manage} />
      <div className="card">
        <h2>Details</h2>
        <DetailsList fields={fields} className="details" />
      </div>
      <div className="card">
        <InPlaceText
          label="Description"
          value={data.description ?? ''}
          canEdit={manage}
          multiline
          pending={update.isPending}
          heading={<h2>Description</h2>}
          onSave={(description, done) => change({ description }, () => 'Description saved.', 'Description not saved', done)}
        >
          {data.description ? (
            <div className="markdown">
              <MarkdownText text={data.description} skipHtml />
            </div>
          ) : (
            <p className="muted">No description.</p>
          )}
        </InPlaceText>
      </div>
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
        <p>{closingSummary(toResolve.length)}</p>
        {toResolve.length > 0 && (
          <ul className="closing-alerts" aria-label="Alerts closing resolves">
            {toResolve.map((alert) => (
              <li key={alert.iid}>
                #{alert.iid} {alert.title} <span className="muted">({alertStateText(alert.status)})</span>
              </li>
            ))}
          </ul>
        )}
      </ConfirmDialog>
    </section>
  );
}

interface InPlaceTextProps {
  label: string;
  value: string;
  canEdit: boolean;
  multiline: boolean;
  pending: boolean;
  /** Shown above the text and the form (the card's heading). */
  heading?: ReactNode;
  /** The text as the page shows it. */
  children: ReactNode;
  /** Save `value`; `done` ends editing (the change saved or refused). */
  onSave(value: string, done: () => void): void;
}

/** A text shown as it is, with "Edit" for those who may change it: the field, Save and Cancel in its place. */
function InPlaceText({ label, value, canEdit, multiline, pending, heading, children, onSave }: InPlaceTextProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const editButton = useRef<HTMLButtonElement>(null);
  const stop = () => {
    setDraft(null);
    setProblem(undefined);
    // Back on the button that opened the field, once it is shown again.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft === null || pending) return;
    const next = multiline ? draft : draft.trim();
    if (!multiline && next === '') return setProblem(`Give the incident a ${label.toLowerCase()}.`);
    if (next === value) return stop();
    onSave(next, stop);
  };
  if (draft === null)
    return (
      <div className="in-place">
        <div className="in-place-head">
          {heading}
          {!heading && children}
          {canEdit && (
            <button type="button" className="button button-small" ref={editButton} onClick={() => setDraft(value)}>
              Edit {label.toLowerCase()}
            </button>
          )}
        </div>
        {heading && children}
      </div>
    );
  return (
    <form className="form in-place-form" onSubmit={submit} noValidate aria-label={`Edit the ${label.toLowerCase()}`}>
      {heading}
      <Field label={multiline ? `${label} (Markdown)` : label} error={problem}>
        {(id, { errorId }) =>
          multiline ? (
            <textarea id={id} rows={8} value={draft} autoFocus aria-describedby={errorId} onChange={(event) => setDraft(event.target.value)} />
          ) : (
            <input
              id={id}
              value={draft}
              maxLength={255}
              autoFocus
              aria-invalid={problem ? true : undefined}
              aria-describedby={errorId}
              onChange={(event) => {
                setDraft(event.target.value);
                setProblem(undefined);
              }}
            />
          )
        }
      </Field>
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-disabled={pending}>
          Save {label.toLowerCase()}
        </button>
        <button type="button" className="button" onClick={stop}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The incident's owner, chosen among the project's developers and above (or nobody), then applied. */
function OwnerControl({
  projectId,
  incident,
  pending,
  change,
}: {
  projectId: number;
  incident: Incident;
  pending: boolean;
  change(changes: Schemas['UpdateIncidentDto'], done: (changed: Incident) => string, failed: string): void;
}) {
  const candidates = useAssigneeCandidates(projectId);
  const names = new Map((candidates.data ?? []).map((member) => [String(member.id), member.username]));
  if (incident.owner) names.set(String(incident.owner.id), incident.owner.username);
  const values = ['', ...names.keys()];
  return (
    <>
      <ApplySelect
        label="Owner"
        groupLabel={`Owner of incident #${incident.iid}`}
        values={values}
        optionLabel={(value) => (value === '' ? 'Nobody' : `@${names.get(value) ?? value}`)}
        value={ownerChoice(incident.owner?.id ?? null)}
        applyLabel="Change owner"
        pending={pending}
        error={null}
        errorTitle="Owner not changed"
        onApply={(choice) =>
          change({ owner_id: ownerIdOf(choice) }, (changed) => (changed.owner ? `@${changed.owner.username} owns the incident.` : 'The incident has no owner now.'), 'Owner not changed')
        }
      />
      <ErrorMessage error={candidates.error} title="Members" />
    </>
  );
}

/** The incident's alerts, open ones first: each one's severity, title, state (a triggered one is firing), events and latest event. */
function IncidentAlerts({ projectId, incident, alerts, manage }: { projectId: number; incident: Incident; alerts: ReturnType<typeof useIncidentAlerts>; manage: boolean }) {
  const firing = (alerts.data ?? []).filter((alert) => isOpenAlert(alert.status)).length;
  return (
    <div className="card incident-alerts">
      <h2>
        Alerts{' '}
        {alerts.data && (
          <span className="muted">
            ({firing} open of {alerts.data.length})
          </span>
        )}
      </h2>
      <ErrorMessage error={alerts.error} title="Alerts" />
      <DataTable
        rows={alerts.data}
        loading={alerts.isPending && 'the alerts'}
        empty={<p className="muted">No alerts linked.</p>}
        columns={['Severity', 'Alert', 'State', 'Events', 'Last event']}
        className="incident-alerts-table"
        scroll
      >
        {(alert) => (
          <tr key={alert.iid} className={isOpenAlert(alert.status) ? 'alert-open' : 'alert-closed'}>
            <td className="severity">
              <SeverityLabel severity={alert.severity} />
            </td>
            <td className="alert-title">
              <Link to={`/projects/${projectId}/alerts/${alert.iid}`} title={`#${alert.iid} ${alert.title}`}>
                #{alert.iid} {alert.title}
              </Link>
            </td>
            <td className="state" data-label="State">
              <span className={`badge badge-alert-${alert.status}`}>{alertStateText(alert.status)}</span>
            </td>
            <td className="numeric events" data-label="Events">
              {alert.events}
            </td>
            <td className="last-event" data-label="Last event">
              <TimeAgo iso={alert.last_event_at} />
            </td>
          </tr>
        )}
      </DataTable>
      <LinkAlertForm projectId={projectId} incident={incident} manage={manage} />
    </div>
  );
}

function LinkAlertForm({ projectId, incident, manage }: { projectId: number; incident: Incident; manage: boolean }) {
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
  if (!manage || incident.status !== 'open') return null;
  return (
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
  );
}
