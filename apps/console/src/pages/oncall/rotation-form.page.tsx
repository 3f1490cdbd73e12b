import { FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { OncallRotation, OncallSchedule, RotationRequest, useOncallMutations, useOncallSchedule, useRotationPreview } from '@console/api/oncall';
import { useMembers } from '@console/api/queries';
import { SHIFT_LENGTH_UNITS, ShiftLengthUnit } from '@console/api/types';
import { useCurrentMessage } from '@console/components/current-message';
import { ErrorMessage, ErrorNotice, ErrorPage, Loading } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { useFormErrors } from '@console/components/form-errors';
import { useDebounced } from '@console/lib/use-debounced';
import { usePageTitle } from '@console/lib/use-page-title';
import { spanText, viewerZone, zonedDateTime } from '@console/lib/zoned-time';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';
import { LocalTimeField } from './local-time-field';

const UNIT_LABELS: Record<ShiftLengthUnit, string> = { hours: 'hours', days: 'days', weeks: 'weeks' };

/** `/oncall/:scheduleId/rotations/new` and `/oncall/:scheduleId/rotations/:rotationId/edit` (maintainers). */
export function RotationFormPage() {
  const project = useCurrentProject();
  const params = useParams();
  const scheduleId = Number(params.scheduleId);
  const schedule = useOncallSchedule(project.id, scheduleId);
  const rotationId = params.rotationId === undefined ? undefined : Number(params.rotationId);
  usePageTitle(rotationId === undefined ? 'New rotation' : 'Edit rotation', schedule.data?.name ?? 'On-call schedule', project.path);
  const back = <Link to={`/projects/${project.id}/oncall/${scheduleId}`}>Back to the schedule</Link>;
  if (!can(project, 'manageOncallSchedules')) {
    return (
      <section className="page">
        <h1>{rotationId === undefined ? 'New rotation' : 'Edit rotation'}</h1>
        <ErrorNotice>Only maintainers and owners can change rotations.</ErrorNotice>
        {back}
      </section>
    );
  }
  if (schedule.isPending) return <Loading what="the schedule" />;
  if (schedule.error) return <ErrorPage title="Rotation" error={schedule.error} back={back} />;
  const rotation = schedule.data.rotations.find((candidate) => candidate.id === rotationId);
  if (rotationId !== undefined && !rotation) return <ErrorPage title="Rotation" error={new Error(`Rotation ${rotationId} not found in this schedule.`)} back={back} />;
  return <RotationForm key={rotation?.id ?? 'new'} projectId={project.id} schedule={schedule.data} rotation={rotation} />;
}

type RotationField = 'name' | 'starts_at' | 'ends_at' | 'shift_length' | 'active_start' | 'active_end' | 'participants';

/** Where the API's refusals go in this form. */
const API_FIELDS: Record<string, RotationField> = {
  name: 'name',
  starts_at: 'starts_at',
  ends_at: 'ends_at',
  shift_length: 'shift_length',
  shift_length_unit: 'shift_length',
  active_period: 'active_start',
  'active_period.start_time': 'active_start',
  'active_period.end_time': 'active_end',
  participant_ids: 'participants',
};

/** Today at 09:00 in the schedule's zone, as a `datetime-local` value. */
function nineToday(timeZone: string): string {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return `${date}T09:00`;
}

function RotationForm({ projectId, schedule, rotation }: { projectId: number; schedule: OncallSchedule; rotation?: OncallRotation }) {
  const navigate = useNavigate();
  const members = useMembers(projectId);
  const { createRotation, updateRotation } = useOncallMutations(projectId);
  const [name, setName] = useState(rotation?.name ?? '');
  const [startsAt, setStartsAt] = useState(rotation?.starts_at.slice(0, 16) ?? nineToday(schedule.time_zone));
  const [endsAt, setEndsAt] = useState(rotation?.ends_at?.slice(0, 16) ?? '');
  const [length, setLength] = useState(String(rotation?.shift_length ?? 1));
  const [unit, setUnit] = useState<ShiftLengthUnit>(rotation?.shift_length_unit ?? 'weeks');
  const [active, setActive] = useState(rotation?.active_period !== null && rotation?.active_period !== undefined);
  const [activeStart, setActiveStart] = useState(rotation?.active_period?.start_time ?? '09:00');
  const [activeEnd, setActiveEnd] = useState(rotation?.active_period?.end_time ?? '17:00');
  const [participants, setParticipants] = useState<number[]>(rotation?.participants.map((user) => user.id) ?? []);
  const { formRef, errors, show, clear, showApiError } = useFormErrors<RotationField>();
  const message = useCurrentMessage();
  const mutation = rotation ? updateRotation : createRotation;
  const usernames = new Map([...(members.data ?? []).map((member): [number, string] => [member.user_id, member.username]), ...(rotation?.participants ?? []).map((user): [number, string] => [user.id, user.username])]);

  const rules: Omit<RotationRequest, 'name'> = {
    starts_at: startsAt,
    ends_at: endsAt === '' ? null : endsAt,
    shift_length: Number(length),
    shift_length_unit: unit,
    active_period: active && unit !== 'hours' ? { start_time: activeStart, end_time: activeEnd } : null,
    participant_ids: participants,
  };
  // The preview follows the form once it has what a rotation needs, a moment after typing stops.
  const previewable = startsAt !== '' && Number.isInteger(Number(length)) && Number(length) > 0 && participants.length > 0;
  // Debounced as text: a value equal to the last one is the same string, so it settles.
  const previewText = useDebounced(previewable ? JSON.stringify({ ...rules, count: 8 }) : null, 400);
  const previewBody = previewText === null ? null : (JSON.parse(previewText) as Parameters<typeof useRotationPreview>[2]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const found: Partial<Record<RotationField, string>> = {};
    if (name.trim() === '') found.name = 'Name the rotation, e.g. Weekdays or Nights.';
    if (startsAt === '') found.starts_at = 'Give the first handoff: a local date and time.';
    if (!(Number.isInteger(Number(length)) && Number(length) > 0)) found.shift_length = 'A whole number of hours, days or weeks, 1 or more.';
    if (participants.length === 0) found.participants = 'Add at least one member, in the order they take shifts.';
    if (Object.keys(found).length > 0) return show(found);
    const body: RotationRequest = { name: name.trim(), ...rules };
    const onSuccess = (saved: OncallRotation) =>
      navigate(`/projects/${projectId}/oncall/${schedule.id}`, {
        state: { message: rotation ? `Rotation ${saved.name} saved: its new rules apply from now on.` : `Rotation ${saved.name} added.` },
      });
    const onError = (error: Error) => {
      if (!showApiError(error, { fields: API_FIELDS })) message.error(error, rotation ? 'Not saved' : 'Not added');
    };
    if (rotation) updateRotation.mutate({ scheduleId: schedule.id, rotationId: rotation.id, body }, { onSuccess, onError });
    else createRotation.mutate({ scheduleId: schedule.id, body }, { onSuccess, onError });
  };

  const addable = (members.data ?? []).filter((member) => !participants.includes(member.user_id));
  const move = (index: number, by: number) =>
    setParticipants((current) => {
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });

  return (
    <section className="page">
      <nav aria-label="Rotation" className="breadcrumb">
        <Link to={`/projects/${projectId}/oncall`}>On-call schedules</Link> <span aria-hidden="true">/</span>{' '}
        <Link to={`/projects/${projectId}/oncall/${schedule.id}`}>{schedule.name}</Link> <span aria-hidden="true">/</span> {rotation ? rotation.name : 'New rotation'}
      </nav>
      <h1>{rotation ? `Edit rotation ${rotation.name}` : 'New rotation'}</h1>
      {rotation && <p className="notice notice-info">New rules take effect from when you save: the shifts before stay as they were.</p>}
      <div className="rotation-editor">
        <form className="card oncall-form" onSubmit={submit} noValidate ref={formRef} aria-label={rotation ? 'Edit rotation' : 'New rotation'}>
          <Field label="Name" error={errors.name}>
            {(id, { errorId }) => <input id={id} value={name} maxLength={200} aria-invalid={errors.name !== undefined} aria-describedby={errorId} onChange={(event) => (setName(event.target.value), clear('name'))} />}
          </Field>
          <div className="inline-form">
            <LocalTimeField
              label={`First handoff (${schedule.time_zone})`}
              value={startsAt}
              error={errors.starts_at}
              hint="Shifts of days and weeks hand over at this local time, also across daylight-saving changes."
              onChange={(value) => (setStartsAt(value), clear('starts_at'))}
            />
            <LocalTimeField
              label={`Ends (${schedule.time_zone}, optional)`}
              value={endsAt}
              error={errors.ends_at}
              hint="Empty: the rotation goes on."
              onChange={(value) => (setEndsAt(value), clear('ends_at'))}
            />
          </div>
          <div className="inline-form">
            <Field label="Shift length" error={errors.shift_length} hint={unit === 'hours' ? 'Hours count elapsed time: across a change the local handoff time moves.' : undefined}>
              {(id, { errorId, hintId }) => (
                <input
                  id={id}
                  type="number"
                  min={1}
                  value={length}
                  className="input-narrow"
                  aria-invalid={errors.shift_length !== undefined}
                  aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
                  onChange={(event) => (setLength(event.target.value), clear('shift_length'))}
                />
              )}
            </Field>
            <Field label="Unit">
              {(id) => (
                <select id={id} value={unit} onChange={(event) => setUnit(event.target.value as ShiftLengthUnit)}>
                  {SHIFT_LENGTH_UNITS.map((value) => (
                    <option key={value} value={value}>
                      {UNIT_LABELS[value]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          {unit !== 'hours' && (
            <fieldset>
              <legend>Active period</legend>
              <label className="checkbox">
                <input type="checkbox" checked={active} onChange={(event) => (setActive(event.target.checked), clear('active_start', 'active_end'))} /> On call only part of each day
              </label>
              {active && (
                <div className="inline-form">
                  <LocalTimeField label="From" type="time" value={activeStart} error={errors.active_start} onChange={(value) => (setActiveStart(value), clear('active_start'))} />
                  <LocalTimeField
                    label="Until"
                    type="time"
                    value={activeEnd}
                    error={errors.active_end}
                    hint="Before From: it runs past midnight."
                    onChange={(value) => (setActiveEnd(value), clear('active_end'))}
                  />
                </div>
              )}
            </fieldset>
          )}
          <fieldset>
            <legend>Participants, in turn</legend>
            {errors.participants && <ErrorNotice inline>{errors.participants}</ErrorNotice>}
            <ol className="participant-list" aria-label="Participants">
              {participants.map((userId, index) => (
                <li key={userId}>
                  <span>@{usernames.get(userId) ?? userId}</span>
                  <span className="row-actions">
                    <button type="button" className="button button-small" disabled={index === 0} onClick={() => move(index, -1)}>
                      Up<span className="visually-hidden"> @{usernames.get(userId)}</span>
                    </button>
                    <button type="button" className="button button-small" disabled={index === participants.length - 1} onClick={() => move(index, 1)}>
                      Down<span className="visually-hidden"> @{usernames.get(userId)}</span>
                    </button>
                    <button type="button" className="button button-small button-danger-outline" onClick={() => setParticipants((current) => current.filter((id) => id !== userId))}>
                      Remove<span className="visually-hidden"> @{usernames.get(userId)}</span>
                    </button>
                  </span>
                </li>
              ))}
            </ol>
            <Field label="Add a member">
              {(id) => (
                <select
                  id={id}
                  value=""
                  onChange={(event) => {
                    if (event.target.value === '') return;
                    setParticipants((current) => [...current, Number(event.target.value)]);
                    clear('participants');
                  }}
                >
                  <option value="">Choose…</option>
                  {addable.map((member) => (
                    <option key={member.user_id} value={member.user_id}>
                      @{member.username}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </fieldset>
          {message.view}
          <div className="actions-left">
            <button type="submit" className="button button-primary" aria-disabled={mutation.isPending}>
              {rotation ? 'Save rotation' : 'Add rotation'}
            </button>
            <Link to={`/projects/${projectId}/oncall/${schedule.id}`} className="button">
              Cancel
            </Link>
          </div>
        </form>
        <RotationPreview projectId={projectId} schedule={schedule} body={previewBody} />
      </div>
    </section>
  );
}

/** The next shifts of the rules as the form has them: local times of the zone (and the viewer's), each shift's length, the clocks changing. */
function RotationPreview({ projectId, schedule, body }: { projectId: number; schedule: OncallSchedule; body: Parameters<typeof useRotationPreview>[2] }) {
  const preview = useRotationPreview(projectId, schedule.id, body);
  const mine = viewerZone();
  return (
    <section className="card rotation-preview" aria-labelledby="preview" aria-live="polite">
      <h2 id="preview">Next shifts</h2>
      {body === null && <p className="muted">Give the first handoff, a shift length and the participants to see the shifts they make.</p>}
      {body !== null && preview.error && <ErrorMessage error={preview.error} title="No preview" />}
      {body !== null && preview.data && (
        <table className="table preview-table">
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">From ({schedule.time_zone})</th>
              <th scope="col">Until</th>
              <th scope="col">Length</th>
            </tr>
          </thead>
          <tbody>
            {preview.data.map((shift) => {
              const changes = shift.utc_offset_at_start !== shift.utc_offset_at_end;
              return (
                <tr key={shift.starts_at} className={changes ? 'preview-change' : undefined}>
                  <td>@{shift.user.username}</td>
                  <td>
                    {shift.local_starts_at.replace('T', ' ')} <span className="muted small">UTC{shift.utc_offset_at_start}</span>
                    {mine !== schedule.time_zone && <div className="muted small">your time: {zonedDateTime(shift.starts_at, mine)}</div>}
                  </td>
                  <td>
                    {shift.local_ends_at.replace('T', ' ')} <span className="muted small">UTC{shift.utc_offset_at_end}</span>
                  </td>
                  <td>
                    {spanText(Date.parse(shift.ends_at) - Date.parse(shift.starts_at))}
                    {changes && (
                      <div className="preview-change-note">
                        Clocks change: UTC{shift.utc_offset_at_start} → UTC{shift.utc_offset_at_end}
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
