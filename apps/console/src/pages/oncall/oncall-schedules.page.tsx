import { FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useOncallMutations, useOncallSchedules } from '@console/api/oncall';
import { PER_PAGE } from '@console/api/queries';
import { useCurrentMessage } from '@console/components/current-message';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { useFormErrors } from '@console/components/form-errors';
import { Pagination } from '@console/components/pagination';
import { useListQuery } from '@console/lib/use-list-query';
import { viewerZone } from '@console/lib/zoned-time';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';
import { OnCallMembers } from './on-call-members';

/** The zones a browser knows, for the time zone field's suggestions. */
const ZONES: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

/**
 * Monitor > On-call schedules: each schedule with who is on call now; maintainers create schedules
 * (a name and an IANA time zone) and open one to add its rotations.
 */
export function OncallSchedulesPage() {
  const project = useCurrentProject();
  const { page, paging } = useListQuery();
  const schedules = useOncallSchedules(project.id, page);
  const manage = can(project, 'manageOncallSchedules');
  const [creating, setCreating] = useState(false);
  usePageTitle('On-call schedules', project.path);

  return (
    <section className="page">
      <div className="page-title">
        <h1>On-call schedules</h1>
        {manage && !creating && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New schedule
          </button>
        )}
      </div>
      <p className="muted">
        Who should look at an alert now. Each schedule has rotations of members taking shifts in turn, in the schedule’s time zone, and overrides where
        someone takes over a shift.
      </p>
      {creating && <NewScheduleForm projectId={project.id} onCancel={() => setCreating(false)} />}
      <ErrorMessage error={schedules.error} />
      <DataTable
        rows={schedules.data?.items}
        loading={schedules.isPending && 'schedules'}
        empty={`No on-call schedules yet.${manage ? ' Create one, then add its rotations.' : ' A maintainer creates them.'}`}
        columns={['Schedule', 'Time zone', 'On call now', 'Rotations']}
        className="oncall-table"
        scroll
      >
        {(schedule) => (
          <tr key={schedule.id}>
            <td>
              <Link to={`/projects/${project.id}/oncall/${schedule.id}`}>{schedule.name}</Link>
              {schedule.description && <div className="muted small">{schedule.description}</div>}
            </td>
            <td data-label="Time zone">{schedule.time_zone}</td>
            <td data-label="On call now">
              <OnCallMembers members={schedule.on_call_now} timeZone={schedule.time_zone} />
            </td>
            <td data-label="Rotations">{schedule.rotations.map((rotation) => rotation.name).join(', ') || <span className="muted">none</span>}</td>
          </tr>
        )}
      </DataTable>
      {schedules.data && (
        <Pagination {...paging} total={schedules.data.total} perPage={PER_PAGE} />
      )}
    </section>
  );
}

type ScheduleField = 'name' | 'time_zone' | 'description';

function NewScheduleForm({ projectId, onCancel }: { projectId: number; onCancel(): void }) {
  const navigate = useNavigate();
  const { createSchedule } = useOncallMutations(projectId);
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState(viewerZone());
  const [description, setDescription] = useState('');
  const { formRef, errors, show, clear, showApiError } = useFormErrors<ScheduleField>();
  const message = useCurrentMessage();
  const zonesId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (createSchedule.isPending) return;
    const found: Partial<Record<ScheduleField, string>> = {};
    if (name.trim() === '') found.name = 'Name the schedule, e.g. the team or service it covers.';
    if (timeZone.trim() === '') found.time_zone = 'Give an IANA time zone, such as Europe/Berlin.';
    if (Object.keys(found).length > 0) return show(found);
    createSchedule.mutate(
      { name: name.trim(), time_zone: timeZone.trim(), description: description.trim() === '' ? null : description.trim() },
      {
        onSuccess: (schedule) => navigate(`/projects/${projectId}/oncall/${schedule.id}`, { state: { message: `Schedule ${schedule.name} created. Add its rotations.` } }),
        onError: (error) => {
          if (!showApiError(error, { fields: { name: 'name', time_zone: 'time_zone', description: 'description' } })) message.error(error, 'Not created');
        },
      },
    );
  };

  return (
    <form className="card oncall-form" onSubmit={submit} noValidate ref={formRef} aria-label="New schedule">
      <h2>New schedule</h2>
      <div className="inline-form">
        <Field label="Name" error={errors.name}>
          {(id, { errorId }) => (
            <input
              id={id}
              value={name}
              maxLength={200}
              aria-invalid={errors.name !== undefined}
              aria-describedby={errorId}
              onChange={(event) => {
                setName(event.target.value);
                clear('name');
              }}
            />
          )}
        </Field>
        <Field label="Time zone" error={errors.time_zone} hint="Shifts hand over at local times of this zone, across its daylight-saving changes.">
          {(id, { errorId, hintId }) => (
            <>
              <input
                id={id}
                value={timeZone}
                list={zonesId}
                aria-invalid={errors.time_zone !== undefined}
                aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
                onChange={(event) => {
                  setTimeZone(event.target.value);
                  clear('time_zone');
                }}
              />
              <datalist id={zonesId}>
                {ZONES.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </div>
      <Field label="Description (optional)" error={errors.description}>
        {(id, { errorId }) => <textarea id={id} rows={2} maxLength={2000} value={description} aria-describedby={errorId} onChange={(event) => setDescription(event.target.value)} />}
      </Field>
      {message.view}
      <div className="actions-left">
        <button type="submit" className="button button-primary" aria-disabled={createSchedule.isPending}>
          Create schedule
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
