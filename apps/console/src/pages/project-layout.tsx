import { Link, Navigate, NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import { useProject } from '@console/api/queries';
import { Project } from '@console/api/types';
import { ErrorPage, Loading } from '@console/components/error-message';
import { usePageTitle } from '@console/lib/use-page-title';
import { can, roleLabel, tierLabel } from '@console/session/roles';
import { OnCallNow } from './oncall/on-call-now';

/** The project of the page, as its layout loaded it (with the caller's role). */
export function useCurrentProject(): Project {
  return useOutletContext<Project>();
}

/** Project pages: the project's name, tier and the caller's role, and the pages that role can use. */
export function ProjectLayout() {
  const projectId = Number(useParams().projectId);
  const project = useProject(projectId);

  if (project.isPending) return <Loading what="the project" />;
  if (project.error) return <ErrorPage title="Project" error={project.error} back={<Link to="/projects">Back to projects</Link>} />;
  const current = project.data;
  return (
    <div className="project">
      <div className="project-header">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <Link to="/projects">Projects</Link> <span aria-hidden="true">/</span> <span>{current.path}</span>
        </nav>
        <span className={`badge badge-${current.tier}`}>{tierLabel(current.tier)}</span>
        <span className="muted">Your role: {roleLabel(current.access_level)}</span>
      </div>
      <div className="project-body">
        <nav aria-label="Project" className="side-nav">
          <ul>
            {can(current, 'readAlerts') && (
              <li>
                <span className="side-nav-group">Monitor</span>
                <NavLink to={`/projects/${current.id}/alerts`}>Alerts</NavLink>
                {can(current, 'readIncidents') && <NavLink to={`/projects/${current.id}/incidents`}>Incidents</NavLink>}
                {can(current, 'readSilences') && <NavLink to={`/projects/${current.id}/silences`}>Silences</NavLink>}
                {can(current, 'readOncallSchedules') && <NavLink to={`/projects/${current.id}/oncall`}>On-call schedules</NavLink>}
                {can(current, 'manageEscalationPolicy') && <NavLink to={`/projects/${current.id}/escalation`}>Escalation policy</NavLink>}
                {/* Developers read the alert settings (not the integrations): the page shows them read-only. */}
                {!can(current, 'manageIntegrations') && can(current, 'readAlertSettings') && (
                  <NavLink to={`/projects/${current.id}/settings/alerts/alert_settings`}>Alert settings</NavLink>
                )}
              </li>
            )}
            {can(current, 'manageIntegrations') && (
              <li>
                <span className="side-nav-group">Settings</span>
                <NavLink to={`/projects/${current.id}/settings/alerts`}>Monitor › Alerts</NavLink>
              </li>
            )}
            {can(current, 'listMembers') && (
              <li>
                <span className="side-nav-group">Manage</span>
                <NavLink to={`/projects/${current.id}/members`}>Members</NavLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="project-content">
          <Outlet context={current} />
        </div>
      </div>
    </div>
  );
}

/** `/projects/:id`: the alerts for those who may see them; otherwise what the role allows. */
export function ProjectHome() {
  const project = useCurrentProject();
  usePageTitle(project.path);
  if (can(project, 'readAlerts')) return <Navigate to="alerts" replace />;
  return (
    <section className="page">
      <h1>{project.path}</h1>
      <p>
        Your role in this project is {roleLabel(project.access_level)}. Alerts need the Developer role or higher, and alert settings the
        Maintainer role or higher. Ask a project owner for more access.
      </p>
      {/* Everyone sees who is on call. */}
      <OnCallNow project={project} />
    </section>
  );
}
