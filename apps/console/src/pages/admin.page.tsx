import { FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { PER_PAGE, useChangeTier, useCreateProject, useCreateUser, useProjects } from '../api/queries';
import { Project, PROJECT_TIERS, ProjectTier } from '../api/types';
import { CopyButton } from '../components/copy-button';
import { DataTable } from '../components/data-table';
import { Field } from '../components/field';
import { ErrorMessage, ErrorNotice, SuccessMessage } from '../components/error-message';
import { Pagination } from '../components/pagination';
import { usePageTitle } from '../lib/use-page-title';
import { tierLabel } from '../session/roles';
import { useSession } from '../session/session';
import { HiddenLabelSelect, Options } from '../components/options';

/** The administrator's page: users (with their token, shown once), projects and their tiers. */
export function AdminPage() {
  const { user } = useSession();
  usePageTitle('Admin');
  if (!user?.is_admin) {
    return (
      <section className="page">
        <h1>Admin</h1>
        <ErrorNotice>Only the administrator may create users and projects. Sign in with the administrator token.</ErrorNotice>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>Admin</h1>
      <div className="columns">
        <CreateUser />
        <CreateProject />
      </div>
      <AllProjects />
    </section>
  );
}

function CreateUser() {
  const createUser = useCreateUser();
  const [username, setUsername] = useState('');
  // Shown until the next submit: each one starts without it.
  const created = createUser.data;
  const titleId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    createUser.mutate(username.trim(), { onSuccess: () => setUsername('') });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>New user</h2>
      <Field label="Username">
        {(id) => <input id={id} value={username} onChange={(event) => setUsername(event.target.value)} required autoComplete="off" />}
      </Field>
      <ErrorMessage error={createUser.error} />
      <button type="submit" className="button button-primary" disabled={createUser.isPending || username.trim() === ''}>
        Create user
      </button>
      {created && (
        <div className="notice notice-success created-token" role="status">
          <p>
            User <strong>{created.username}</strong> created (user ID <strong>{created.id}</strong>). Their personal access token is shown
            only now: copy it and hand it over.
          </p>
          <div className="secret">
            <code aria-label="Personal access token">{created.token}</code>
            <CopyButton value={created.token} label="Copy the personal access token" />
          </div>
        </div>
      )}
    </form>
  );
}

function CreateProject() {
  const createProject = useCreateProject();
  const [path, setPath] = useState('');
  const [tier, setTier] = useState<ProjectTier>('premium');
  const created = createProject.data;
  const titleId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    createProject.mutate({ path: path.trim(), tier }, { onSuccess: () => setPath('') });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>New project</h2>
      <Field label="Path">
        {(id) => <input id={id} value={path} onChange={(event) => setPath(event.target.value)} placeholder="group/project" required autoComplete="off" />}
      </Field>
      <Field label="Tier" hint="Free: one HTTP Endpoint. Premium: several named endpoints, custom mapping, grouping, the external link.">
        {(id) => (
          <select id={id} value={tier} onChange={(event) => setTier(event.target.value as ProjectTier)}>
            <Options values={PROJECT_TIERS} label={tierLabel} />
          </select>
        )}
      </Field>
      <ErrorMessage error={createProject.error} />
      <button type="submit" className="button button-primary" disabled={createProject.isPending || path.trim() === ''}>
        Create project
      </button>
      {created && (
        <SuccessMessage>
          Project <Link to={`/projects/${created.id}/settings/alerts`}>{created.path}</Link> created. Configure its alert integrations, or{' '}
          <Link to={`/projects/${created.id}/members`}>add members</Link>.
        </SuccessMessage>
      )}
    </form>
  );
}

function AllProjects() {
  const [page, setPage] = useState(1);
  const projects = useProjects('', page);
  return (
    <div className="card">
      <h2>All projects</h2>
      <ErrorMessage error={projects.error} />
      <DataTable
        rows={projects.data?.items}
        loading={projects.isPending && 'projects'}
        empty={<p className="muted">No projects yet.</p>}
        columns={['Project', 'Tier', 'Manage']}
      >
        {(project) => (
          <tr key={project.id}>
            <td>
              <Link to={`/projects/${project.id}`}>{project.path}</Link>
            </td>
            <td>
              <TierSelect project={project} />
            </td>
            <td>
              <div className="row-actions">
                <Link to={`/projects/${project.id}/members`}>Members</Link>
                <Link to={`/projects/${project.id}/settings/alerts`}>Alert settings</Link>
              </div>
            </td>
          </tr>
        )}
      </DataTable>
      {projects.data && <Pagination page={page} total={projects.data.total} perPage={PER_PAGE} nextPage={projects.data.nextPage} onPage={setPage} />}
    </div>
  );
}

function TierSelect({ project }: { project: Project }) {
  const changeTier = useChangeTier(project.id);
  return (
    <>
      <HiddenLabelSelect
        label={`Tier of ${project.path}`}
        values={PROJECT_TIERS}
        optionLabel={tierLabel}
        value={project.tier}
        disabled={changeTier.isPending}
        onChange={(tier) => changeTier.mutate(tier)}
      />
      <ErrorMessage error={changeTier.error} />
    </>
  );
}
