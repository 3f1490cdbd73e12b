import { FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { PER_PAGE, useChangeTier, useCreateProject, useCreateUser, useProjects } from '@console/api/queries';
import { Project, PROJECT_TIERS, ProjectTier } from '@console/api/types';
import { CopyButton } from '@console/components/copy-button';
import { DataTable } from '@console/components/data-table';
import { Field } from '@console/components/field';
import { ErrorMessage, ErrorNotice, SuccessMessage } from '@console/components/error-message';
import { Pagination } from '@console/components/pagination';
import { useListQuery } from '@console/lib/use-list-query';
import { usePageTitle } from '@console/lib/use-page-title';
import { tierLabel } from '@console/session/roles';
import { useSession } from '@console/session/session';
import { Options } from '@console/components/options';
import { ApplySelect } from '@console/components/apply-select';
import { useCurrentMessage } from '@console/components/current-message';
import { useFormErrors } from '@console/components/form-errors';
import { emailProblem } from '@console/lib/email';
import { EmailField } from '@console/components/email-field';

/** The API's rules (CreateUserDto, CreateProjectDto), checked here first so the form says them at the field. */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const PROJECT_PATH = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

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
  const [email, setEmail] = useState('');
  // Shown until the next submit: each one starts without it.
  const created = createUser.data;
  const titleId = useId();

  const { formRef, errors, show, clear, clearAll, showApiError } = useFormErrors<'username' | 'email'>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (createUser.isPending) return;
    const value = username.trim();
    const found: { username?: string; email?: string } = {};
    if (value === '') found.username = 'Enter a username.';
    else if (!USERNAME.test(value)) found.username = 'A username holds letters, digits, "_", "." and "-", and starts with a letter or digit.';
    const emailError = emailProblem(email);
    if (emailError) found.email = emailError;
    if (found.username || found.email) return show(found);
    clearAll();
    createUser.mutate(email.trim() === '' ? { username: value } : { username: value, email: email.trim() }, {
      onSuccess: () => {
        setUsername('');
        setEmail('');
      },
      onError: (error) => {
        if (!showApiError(error, { fields: { username: 'username', email: 'email' } })) show({ username: `Not created: ${error.message}` });
      },
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby={titleId} noValidate ref={formRef}>
      <h2 id={titleId}>New user</h2>
      <Field label="Username" error={errors.username}>
        {(id, { errorId }) => (
          <input
            id={id}
            value={username}
            onChange={(event) => {
              setUsername(event.target.value);
              clear('username');
            }}
            aria-invalid={errors.username !== undefined}
            aria-describedby={errorId}
            autoComplete="off"
          />
        )}
      </Field>
      <EmailField
        label="Email (optional)"
        value={email}
        error={errors.email}
        hint="Where alert emails go; users can change it on their profile."
        onChange={(value) => {
          setEmail(value);
          clear('email');
        }}
        autoComplete="off"
      />
      <button type="submit" className="button button-primary" aria-disabled={createUser.isPending}>
        Create user
      </button>
      {created && (
        <div className="notice notice-success created-token" role="status">
          <p>
            User <strong>{created.username}</strong> created (user ID <strong>{created.id}</strong>
            {created.email ? `, alert emails to ${created.email}` : ''}). Their personal access token is shown
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

  const { formRef, errors, show, clear, clearAll, showApiError } = useFormErrors<'path' | 'tier'>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (createProject.isPending) return;
    const value = path.trim();
    if (value === '') return show({ path: 'Enter the path of the project, e.g. group/project.' });
    if (!PROJECT_PATH.test(value)) return show({ path: 'A path is one or more names separated by "/"; each holds letters, digits, "_", "." and "-", and starts with a letter or digit.' });
    clearAll();
    createProject.mutate(
      { path: value, tier },
      {
        onSuccess: () => setPath(''),
        onError: (error) => {
          if (!showApiError(error, { fields: { path: 'path', tier: 'tier' } })) show({ path: `Not created: ${error.message}` });
        },
      },
    );
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby={titleId} noValidate ref={formRef}>
      <h2 id={titleId}>New project</h2>
      <Field label="Path" error={errors.path}>
        {(id, { errorId }) => (
          <input
            id={id}
            value={path}
            onChange={(event) => {
              setPath(event.target.value);
              clear('path');
            }}
            placeholder="group/project"
            aria-invalid={errors.path !== undefined}
            aria-describedby={errorId}
            autoComplete="off"
          />
        )}
      </Field>
      <Field label="Tier" hint="Free: one HTTP Endpoint. Premium: several named endpoints, custom mapping, grouping, the external link.">
        {(id) => (
          <select id={id} value={tier} onChange={(event) => setTier(event.target.value as ProjectTier)}>
            <Options values={PROJECT_TIERS} label={tierLabel} />
          </select>
        )}
      </Field>
      <button type="submit" className="button button-primary" aria-disabled={createProject.isPending}>
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
  const { page, paging } = useListQuery();
  const projects = useProjects('', page);
  const message = useCurrentMessage();
  return (
    <div className="card">
      <h2>All projects</h2>
      {message.view}
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
              <TierSelect project={project} message={message} />
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
      {projects.data && <Pagination {...paging} total={projects.data.total} perPage={PER_PAGE} nextPage={projects.data.nextPage} />}
    </div>
  );
}

/** A project's tier: choose, then apply (ApplySelect: the arrow keys never save a tier). */
function TierSelect({ project, message }: { project: Project; message: ReturnType<typeof useCurrentMessage> }) {
  const changeTier = useChangeTier(project.id);
  return (
    <ApplySelect
      label={`Tier of ${project.path}`}
      groupLabel={`Tier change of ${project.path}`}
      values={PROJECT_TIERS}
      optionLabel={tierLabel}
      value={project.tier}
      applyLabel="Change tier"
      applyHiddenSuffix={` of ${project.path}`}
      pending={changeTier.isPending}
      error={null}
      errorTitle="Tier not changed"
      onApply={(tier) =>
        changeTier.mutate(tier, {
          onSuccess: (saved) => message.success(`${saved.path} is now on the ${tierLabel(saved.tier)} tier.`),
          onError: (error) => message.error(error, `Tier of ${project.path} not changed`),
        })
      }
    />
  );
}
