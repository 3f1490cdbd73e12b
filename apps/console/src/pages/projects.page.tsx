import { Link } from 'react-router';
import { PER_PAGE, useProjects } from '@console/api/queries';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { SearchField } from '@console/components/search-field';
import { Pagination } from '@console/components/pagination';
import { useListQuery } from '@console/lib/use-list-query';
import { usePageTitle } from '@console/lib/use-page-title';
import { can, roleLabel, tierLabel } from '@console/session/roles';
import { useSession } from '@console/session/session';
import { Project } from '@console/api/types';

/** Where a project's link leads: the first page the caller's role can use. */
function projectHome(project: Project): string {
  if (can(project, 'readAlerts')) return `/projects/${project.id}/alerts`;
  return `/projects/${project.id}`;
}

export function ProjectsPage() {
  const { user } = useSession();
  usePageTitle('Projects');
  const { searchField, query, page, paging } = useListQuery();
  const projects = useProjects(query, page);

  return (
    <section className="page">
      <div className="page-title">
        <h1>Projects</h1>
        {user?.is_admin && (
          <Link to="/admin" className="button button-primary">
            New project
          </Link>
        )}
      </div>
      <div className="toolbar">
        <SearchField label="Search projects" placeholder="Search projects by path" {...searchField} />
      </div>
      <ErrorMessage error={projects.error} />
      <DataTable
        rows={projects.data?.items}
        loading={projects.isPending && 'projects'}
        empty={
          <div className="empty">
            {query ? (
              <p>No project path matches “{query}”.</p>
            ) : user?.is_admin ? (
              <p>
                There are no projects yet. <Link to="/admin">Create the first one</Link> on the admin page.
              </p>
            ) : (
              <p>You are not a member of any project yet. Ask a project owner or the administrator to add you.</p>
            )}
          </div>
        }
        columns={['Project', 'Tier', 'Your role']}
      >
        {(project) => (
          <tr key={project.id}>
            <td>
              <Link to={projectHome(project)}>{project.path}</Link>
            </td>
            <td>
              <span className={`badge badge-${project.tier}`}>{tierLabel(project.tier)}</span>
            </td>
            <td>{roleLabel(project.access_level)}</td>
          </tr>
        )}
      </DataTable>
      {projects.data && (
        <Pagination {...paging} total={projects.data.total} perPage={PER_PAGE} nextPage={projects.data.nextPage} />
      )}
    </section>
  );
}
