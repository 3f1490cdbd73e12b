import { Link } from 'react-router';
import { useProjectOnCall } from '@console/api/oncall';
import { Project } from '@console/api/types';
import { can } from '@console/session/roles';
import { OnCallMembers } from './on-call-members';

/**
 * "On call now" on the project's alerts page: who is on call in each schedule, to know who looks at
 * an alert now. Nothing when the project has no schedule.
 */
export function OnCallNow({ project }: { project: Project }) {
  const onCall = useProjectOnCall(project.id);
  if (!onCall.data || onCall.data.length === 0) return null;
  const linked = can(project, 'readOncallSchedules');
  return (
    <section className="card oncall-now" aria-labelledby="oncall-now-title">
      <h2 id="oncall-now-title">On call now</h2>
      <dl className="oncall-now-list">
        {onCall.data.map((view) => (
          <div key={view.schedule.id}>
            <dt>{linked ? <Link to={`/projects/${project.id}/oncall/${view.schedule.id}`}>{view.schedule.name}</Link> : view.schedule.name}</dt>
            <dd>
              <OnCallMembers members={view.on_call} timeZone={view.schedule.time_zone} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
