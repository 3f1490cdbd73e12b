import { FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { IncidentTab, useIncidentCounts, useIncidentMutations, useIncidents } from '@console/api/incidents';
import { PER_PAGE } from '@console/api/queries';
import { Incident, SEVERITIES, Severity } from '@console/api/types';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { useFormErrors } from '@console/components/form-errors';
import { Pagination } from '@console/components/pagination';
import { SearchField } from '@console/components/search-field';
import { SeverityLabel } from '@console/components/severity';
import { TabNav } from '@console/components/tab-nav';
import { TimeAgo } from '@console/components/time-ago';
import { useListQuery } from '@console/lib/use-list-query';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';

const TABS: Array<{ id: IncidentTab; label: string }> = [
  { id: 'open', label: 'Open' },
  { id: 'closed', label: 'Closed' },
  { id: 'all', label: 'All' },
];

export function incidentPath(projectId: number, iid: number): string {
  return `/projects/${projectId}/incidents/${iid}`;
}

/** Who opened an incident, in words. */
export function creatorOf(incident: Incident): string {
  if (incident.created_by.type === 'alert') return incident.created_by.alert_iid === null ? 'an alert' : `alert #${incident.created_by.alert_iid}`;
  return incident.created_by.username ?? (incident.created_by.id === null ? 'administrator' : `user ${incident.created_by.id}`);
}

/** Monitor > Incidents: GitLab's incident list (Open, Closed and All tabs with counts, search, paging); developers open incidents here. */
export function IncidentsPage() {
  const project = useCurrentProject();
  const { tab, tabLinks, searchField, query, page, paging } = useListQuery({ param: 'status', values: TABS.map((item) => item.id), default: 'open' });
  const incidents = useIncidents(project.id, tab, query, page);
  const counts = useIncidentCounts(project.id);
  const [creating, setCreating] = useState(false);
  usePageTitle('Incidents', project.path);

  return (
    <section className="page">
      <div className="page-title">
        <h1>Incidents</h1>
        {can(project, 'manageIncidents') && !creating && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            Create incident
          </button>
        )}
      </div>
      <p className="muted">An incident groups the alerts of one problem. Closing it resolves its alerts.</p>
      {creating && <NewIncidentForm projectId={project.id} onCancel={() => setCreating(false)} />}
      <TabNav label="Incident status" tabs={tabLinks(TABS, counts.data ?? null)} />
      <div className="toolbar toolbar-row">
        <SearchField label="Search incidents" placeholder="Search title or description" {...searchField} />
      </div>
      <ErrorMessage error={counts.error} title="Status counts" />
      <ErrorMessage error={incidents.error} />
      <DataTable
        rows={incidents.data?.items}
        loading={incidents.isPending && 'incidents'}
        empty={query ? `No incident matches “${query}”.` : tab === 'all' ? 'No incidents yet.' : `No ${tab} incidents.`}
        columns={['Severity', 'Incident', 'Status', 'Alerts', 'Opened by', 'Created']}
        className="incidents-table"
        scroll
      >
        {(incident) => (
          <tr key={incident.iid}>
            <td className="severity">
              <SeverityLabel severity={incident.severity} />
            </td>
            <td className="incident-title">
              <Link to={incidentPath(project.id, incident.iid)} title={`#${incident.iid} ${incident.title}`}>
                #{incident.iid} {incident.title}
              </Link>
            </td>
            <td className="status">{incident.status === 'open' ? 'Open' : 'Closed'}</td>
            <td className="numeric alerts" data-label="Alerts">
              {incident.alert_iids.length}
            </td>
            <td className="creator" data-label="Opened by">
              {creatorOf(incident)}
            </td>
            <td className="created">
              <TimeAgo iso={incident.created_at} />
            </td>
          </tr>
        )}
      </DataTable>
      {incidents.data && <Pagination {...paging} total={incidents.data.total} perPage={PER_PAGE} />}
    </section>
  );
}

function NewIncidentForm({ projectId, onCancel }: { projectId: number; onCancel(): void }) {
  const { create } = useIncidentMutations(projectId);
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<Severity>('critical');
  const [description, setDescription] = useState('');
  const { formRef, errors, show, clear, showApiError } = useFormErrors<'title' | 'description'>();
  const [failure, setFailure] = useState<unknown>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (title.trim() === '') return show({ title: 'Give the incident a title.' });
    create.mutate(
      { title: title.trim(), severity, ...(description.trim() ? { description } : {}) },
      {
        onSuccess: (incident) => navigate(incidentPath(projectId, incident.iid)),
        onError: (error) => {
          if (!showApiError(error, { fields: { title: 'title', description: 'description' } }, 'Not created')) setFailure(error);
        },
      },
    );
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="New incident" ref={formRef}>
      <Field label="Title" error={errors.title}>
        {(id, { errorId }) => (
          <input
            id={id}
            value={title}
            maxLength={255}
            autoFocus
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errorId}
            onChange={(event) => {
              setTitle(event.target.value);
              clear('title');
            }}
          />
        )}
      </Field>
      <Field label="Severity">
        {(id) => (
          <select id={id} value={severity} onChange={(event) => setSeverity(event.target.value as Severity)}>
            {SEVERITIES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Description (Markdown)" error={errors.description}>
        {(id, { errorId }) => (
          <textarea
            id={id}
            rows={4}
            value={description}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errorId}
            onChange={(event) => {
              setDescription(event.target.value);
              clear('description');
            }}
          />
        )}
      </Field>
      <ErrorMessage error={failure} title="Not created" />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create incident
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
