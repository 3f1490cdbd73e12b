import { FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { OncallOverride, OncallRotation, OncallSchedule, useOncallMutations, useOncallSchedule, useOverrides, useScheduleGaps, useScheduleShifts } from '@console/api/oncall';
import { useMembers } from '@console/api/queries';
import { Schemas } from '@console/api/client';
import { ConfirmDialog } from '@console/components/confirm-dialog';
import { CopyableField } from '@console/components/copy-button';
import { useCurrentMessage } from '@console/components/current-message';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage, ErrorPage, Loading } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { useFormErrors } from '@console/components/form-errors';
import { dayStarts, instantOfLocal, localInputValue, spanText, viewerZone, zonedDateTime, zoneAbbreviation } from '@console/lib/zoned-time';
import { useNow } from '@console/lib/use-now';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useSession } from '@console/session/session';
import { useCurrentProject } from '@console/pages/project-layout';
import { LocalTimeField } from './local-time-field';
import { OnCallMembers } from './on-call-members';
import { ShiftTimeline, TimelineRow } from './shift-timeline';

const TIMELINE_DAYS = 14;

/**
 * An on-call schedule: who is on call now, the gaps of the week ahead, two weeks of final shifts per
 * rotation (overrides marked; times in the schedule's zone and the viewer's), its rotations,
 * overrides and calendar feed. Maintainers change the schedule and its rotations; developers put
 * themselves on call by an override.
 */
export function OncallSchedulePage() {
  const project = useCurrentProject();
  const scheduleId = Number(useParams().scheduleId);
  const schedule = useOncallSchedule(project.id, scheduleId);
  const message = useCurrentMessage();
  const location = useLocation();
  const navigate = useNavigate();
  usePageTitle(schedule.data?.name ?? 'On-call schedule', 'On-call schedules', project.path);
  // A form that saved here says so once.
  const saved = (location.state as { message?: string } | null)?.message;
  useEffect(() => {
    if (!saved) return;
    message.success(saved);
    navigate({ pathname: location.pathname }, { replace: true, state: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [saved]);

  const back = <Link to={`/projects/${project.id}/oncall`}>Back to on-call schedules</Link>;
  if (schedule.isPending) return <Loading what="the schedule" />;
  if (schedule.error) return <ErrorPage title="On-call schedule" error={schedule.error} back={back} />;
  const current = schedule.data;
  return (
    <section className="page oncall-schedule">
      <nav aria-label="On-call schedule" className="breadcrumb">
        <Link to={`/projects/${project.id}/oncall`}>On-call schedules</Link> <span aria-hidden="true">/</span> {current.name}
      </nav>
      <ScheduleHeader projectId={project.id} schedule={current} manage={can(project, 'manageOncallSchedules')} />
      {message.view}
      <section className="card" aria-labelledby="on-call-now">
        <h2 id="on-call-now">On call now</h2>
        <OnCallMembers members={current.on_call_now} timeZone={current.time_zone} />
      </section>
      <GapsWarning projectId={project.id} schedule={current} />
      <TimelineSection projectId={project.id} schedule={current} />
      <RotationsSection projectId={project.id} schedule={current} manage={can(project, 'manageOncallSchedules')} />
      <OverridesSection projectId={project.id} schedule={current} />
      <CalendarSection projectId={project.id} schedule={current} />
    </section>
  );
}

function ScheduleHeader({ projectId, schedule, manage }: { projectId: number; schedule: OncallSchedule; manage: boolean }) {
  const navigate = useNavigate();
  const { updateSchedule, deleteSchedule } = useOncallMutations(projectId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [name, setName] = useState(schedule.name);
  const [timeZone, setTimeZone] = useState(schedule.time_zone);
  const [description, setDescription] = useState(schedule.description ?? '');
  const { formRef, errors, clear, showApiError } = useFormErrors<'name' | 'time_zone'>();
  const message = useCurrentMessage();

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (updateSchedule.isPending) return;
    updateSchedule.mutate(
      { scheduleId: schedule.id, body: { name: name.trim(), time_zone: timeZone.trim(), description: description.trim() === '' ? null : description.trim() } },
      {
        onSuccess: (saved) => {
          setEditing(false);
          message.success(saved.time_zone === schedule.time_zone ? 'Schedule saved.' : `Schedule saved: its rotations hand over in ${saved.time_zone} from now on.`);
        },
        onError: (error) => {
          if (!showApiError(error, { fields: { name: 'name', time_zone: 'time_zone' } })) message.error(error, 'Not saved');
        },
      },
    );
  };

  return (
    <>
      <div className="page-title">
        <h1>{schedule.name}</h1>
        {manage && !editing && (
          <div className="row-actions">
            <button type="button" className="button" onClick={() => setEditing(true)}>
              Edit schedule
            </button>
            <button type="button" className="button button-danger-outline" onClick={() => setDeleting(true)}>
              Delete schedule
            </button>
          </div>
        )}
      </div>
      <p className="muted">
        Time zone <strong>{schedule.time_zone}</strong>
        {viewerZone() !== schedule.time_zone && <> (yours: {viewerZone()})</>}
        {schedule.description && <> · {schedule.description}</>}
      </p>
      {message.view}
      {editing && (
        <form className="card oncall-form" onSubmit={save} noValidate ref={formRef} aria-label="Edit schedule">
          <div className="inline-form">
            <Field label="Name" error={errors.name}>
              {(id, { errorId }) => (
                <input id={id} value={name} maxLength={200} aria-invalid={errors.name !== undefined} aria-describedby={errorId} onChange={(event) => (setName(event.target.value), clear('name'))} />
              )}
            </Field>
            <Field label="Time zone" error={errors.time_zone} hint="A new zone applies from now on: rotations hand over at their local times in it.">
              {(id, { errorId, hintId }) => (
                <input
                  id={id}
                  value={timeZone}
                  aria-invalid={errors.time_zone !== undefined}
                  aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
                  onChange={(event) => (setTimeZone(event.target.value), clear('time_zone'))}
                />
              )}
            </Field>
          </div>
          <Field label="Description (optional)">{(id) => <textarea id={id} rows={2} maxLength={2000} value={description} onChange={(event) => setDescription(event.target.value)} />}</Field>
          <div className="actions-left">
            <button type="submit" className="button button-primary" aria-disabled={updateSchedule.isPending}>
              Save schedule
            </button>
            <button type="button" className="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={deleting}
        title="Delete this schedule?"
        confirmLabel="Delete schedule"
        danger
        busy={deleteSchedule.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          deleteSchedule.mutate(schedule.id, {
            onSuccess: () => navigate(`/projects/${projectId}/oncall`),
            onError: (error) => message.error(error, 'Not deleted'),
            onSettled: () => setDeleting(false),
          })
        }
      >
        <p>Its rotations, overrides and calendar URL go with it. Nobody is on call in it any more.</p>
      </ConfirmDialog>
    </>
  );
}

function GapsWarning({ projectId, schedule }: { projectId: number; schedule: OncallSchedule }) {
  const gaps = useScheduleGaps(projectId, schedule.id);
  if (!gaps.data || gaps.data.length === 0) return null;
  return (
    <div className="notice notice-warning" role="status">
      <strong>Nobody is on call {gaps.data.length === 1 ? 'once' : `${gaps.data.length} times`} in the next 7 days:</strong>
      <ul>
        {gaps.data.slice(0, 10).map((gap) => (
          <li key={gap.starts_at}>
            {zonedDateTime(gap.starts_at, schedule.time_zone)} – {zonedDateTime(gap.ends_at, schedule.time_zone)} {zoneAbbreviation(gap.starts_at, schedule.time_zone)} ({spanText(Date.parse(gap.ends_at) - Date.parse(gap.starts_at))})
          </li>
        ))}
        {gaps.data.length > 10 && <li>and {gaps.data.length - 10} more</li>}
      </ul>
    </div>
  );
}

function TimelineSection({ projectId, schedule }: { projectId: number; schedule: OncallSchedule }) {
  const now = useNow(60_000);
  // Days of the schedule's zone, from the start of today there; read once per day.
  const today = localInputValue(now, schedule.time_zone).slice(0, 10);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const days = useMemo(() => dayStarts(now, schedule.time_zone, TIMELINE_DAYS), [today, schedule.time_zone]);
  const shifts = useScheduleShifts(projectId, schedule.id, new Date(days[0]).toISOString(), new Date(days[TIMELINE_DAYS]).toISOString());
  const mine = viewerZone();
  const rows: TimelineRow[] = [
    ...schedule.rotations.map((rotation) => ({ id: rotation.id, name: rotation.name })),
    // A rotation deleted since still shows the shifts it gave.
    ...[...new Map((shifts.data ?? []).filter((shift) => shift.rotation && !schedule.rotations.some((rotation) => rotation.id === shift.rotation?.id)).map((shift) => [shift.rotation?.id, shift.rotation])).values()].map(
      (rotation) => ({ id: rotation?.id ?? null, name: `${rotation?.name} (deleted)` }),
    ),
    ...((shifts.data ?? []).some((shift) => shift.rotation === null) ? [{ id: null, name: 'Whole schedule' }] : []),
  ];
  return (
    <section className="card" aria-labelledby="timeline">
      <h2 id="timeline">Next {TIMELINE_DAYS} days</h2>
      <ErrorMessage error={shifts.error} />
      {shifts.data && rows.length > 0 && <ShiftTimeline days={days} rows={rows} shifts={shifts.data} timeZone={schedule.time_zone} viewerZone={mine} now={now} />}
      {rows.length === 0 && <p className="muted">No rotations yet: nobody is on call.</p>}
      {shifts.data && shifts.data.length > 0 && (
        <details className="shift-list">
          <summary>Shifts as a list</summary>
          <DataTable
            rows={shifts.data}
            columns={['Who', 'Why', `From (${schedule.time_zone})`, `Until (${schedule.time_zone})`, ...(mine === schedule.time_zone ? [] : [`Your time (${mine})`]), 'Length']}
            className="shift-table"
            scroll
          >
            {(shift) => (
              <tr key={`${shift.starts_at}-${shift.user.id}-${shift.rotation?.id ?? 'schedule'}`}>
                <td>@{shift.user.username}</td>
                <td>{shift.source === 'override' ? `Override${shift.rotation ? ` of ${shift.rotation.name}` : ' of the whole schedule'}` : shift.rotation?.name}</td>
                <td>{zonedDateTime(shift.starts_at, schedule.time_zone)}</td>
                <td>{zonedDateTime(shift.ends_at, schedule.time_zone)}</td>
                {mine !== schedule.time_zone && (
                  <td>
                    {zonedDateTime(shift.starts_at, mine)} – {zonedDateTime(shift.ends_at, mine)}
                  </td>
                )}
                <td>{spanText(Date.parse(shift.ends_at) - Date.parse(shift.starts_at))}</td>
              </tr>
            )}
          </DataTable>
        </details>
      )}
    </section>
  );
}

/** A rotation's rules in a line: "Every 1 week from Mon 23 Mar, 09:00 · 09:00–17:00 only · until …". */
export function rotationRules(rotation: OncallRotation): string {
  const unit = rotation.shift_length === 1 ? rotation.shift_length_unit.replace(/s$/, '') : rotation.shift_length_unit;
  const parts = [`Shifts of ${rotation.shift_length} ${unit} from ${rotation.starts_at.replace('T', ' ')}`];
  if (rotation.active_period) parts.push(`on call ${rotation.active_period.start_time}–${rotation.active_period.end_time} only`);
  if (rotation.ends_at) parts.push(`until ${rotation.ends_at.replace('T', ' ')}`);
  return parts.join(' · ');
}

function RotationsSection({ projectId, schedule, manage }: { projectId: number; schedule: OncallSchedule; manage: boolean }) {
  const { deleteRotation } = useOncallMutations(projectId);
  const [deleting, setDeleting] = useState<OncallRotation | null>(null);
  const message = useCurrentMessage();
  return (
    <section className="card" aria-labelledby="rotations">
      <div className="card-title">
        <h2 id="rotations">Rotations</h2>
        {manage && (
          <Link to={`/projects/${projectId}/oncall/${schedule.id}/rotations/new`} className="button button-small button-primary">
            Add rotation
          </Link>
        )}
      </div>
      {message.view}
      {schedule.rotations.length === 0 && <p className="muted">No rotations yet.{manage ? '' : ' A maintainer adds them.'}</p>}
      <ul className="rotation-list">
        {schedule.rotations.map((rotation) => (
          <li key={rotation.id} className="rotation-item">
            <div>
              <h3>{rotation.name}</h3>
              <p className="muted small">{rotationRules(rotation)} (local times of {schedule.time_zone})</p>
              <p>
                In turn:{' '}
                {rotation.participants.length > 0 ? rotation.participants.map((user) => `@${user.username}`).join(' → ') : <span className="oncall-nobody">nobody</span>}
              </p>
              {rotation.removed_participants.length > 0 && (
                <p className="muted small">
                  Left the rotation when removed from the project:{' '}
                  {rotation.removed_participants.map((removal) => `@${removal.user.username} (${zonedDateTime(removal.removed_at, schedule.time_zone)})`).join(', ')}
                </p>
              )}
            </div>
            {manage && (
              <div className="row-actions">
                <Link to={`/projects/${projectId}/oncall/${schedule.id}/rotations/${rotation.id}/edit`} className="button button-small">
                  Edit<span className="visually-hidden"> rotation {rotation.name}</span>
                </Link>
                <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(rotation)}>
                  Delete<span className="visually-hidden"> rotation {rotation.name}</span>
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this rotation?"
        confirmLabel="Delete rotation"
        danger
        busy={deleteRotation.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          deleteRotation.mutate(
            { scheduleId: schedule.id, rotationId: deleting.id },
            {
              onSuccess: () => message.success(`Rotation ${deleting.name} deleted: it puts nobody on call from now on.`),
              onError: (error) => message.error(error, 'Not deleted'),
              onSettled: () => setDeleting(null),
            },
          )
        }
      >
        <p>It puts nobody on call from now on; its past shifts stay. Its overrides under way end now, and later ones go.</p>
      </ConfirmDialog>
    </section>
  );
}

function OverridesSection({ projectId, schedule }: { projectId: number; schedule: OncallSchedule }) {
  const project = useCurrentProject();
  const { user } = useSession();
  const manage = can(project, 'manageOncallSchedules');
  const mayOverride = can(project, 'overrideOnCall') && (manage || user?.id !== null);
  const [showEnded, setShowEnded] = useState(false);
  const overrides = useOverrides(projectId, schedule.id, showEnded);
  const { deleteOverride } = useOncallMutations(projectId);
  const [deleting, setDeleting] = useState<OncallOverride | null>(null);
  const message = useCurrentMessage();
  const mine = (override: OncallOverride) => manage || override.user.id === user?.id;
  return (
    <section className="card" aria-labelledby="overrides">
      <div className="card-title">
        <h2 id="overrides">Overrides</h2>
        <label className="checkbox">
          <input type="checkbox" checked={showEnded} onChange={(event) => setShowEnded(event.target.checked)} /> Show ended ones
        </label>
      </div>
      <p className="muted small">Someone on call in place of a rotation’s (or the whole schedule’s) on-call for a while, across handoffs. The newest wins where two overlap.</p>
      {message.view}
      <ErrorMessage error={overrides.error} />
      <DataTable
        rows={overrides.data}
        loading={overrides.isPending && 'overrides'}
        empty={<p className="muted">{showEnded ? 'No overrides.' : 'No overrides under way or to come.'}</p>}
        columns={['Who', 'In place of', `From (${schedule.time_zone})`, `Until (${schedule.time_zone})`, 'State', <span className="visually-hidden">Actions</span>]}
        className="override-table"
        scroll
      >
        {(override) => (
          <tr key={override.id}>
            <td>@{override.user.username}</td>
            <td>{override.rotation?.name ?? 'Whole schedule'}</td>
            <td>{zonedDateTime(override.starts_at, schedule.time_zone)}</td>
            <td>{zonedDateTime(override.ends_at, schedule.time_zone)}</td>
            <td>{override.state}</td>
            <td>
              {override.state !== 'ended' && mine(override) && (
                <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(override)}>
                  {override.state === 'active' ? 'End now' : 'Delete'}
                  <span className="visually-hidden"> override {override.id}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      </DataTable>
      {mayOverride && <OverrideForm projectId={projectId} schedule={schedule} manage={manage} onSaved={(text) => message.success(text)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.state === 'active' ? 'End this override now?' : 'Delete this override?'}
        confirmLabel={deleting?.state === 'active' ? 'End override' : 'Delete override'}
        danger
        busy={deleteOverride.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          deleteOverride.mutate(
            { scheduleId: schedule.id, overrideId: deleting.id },
            {
              onSuccess: () => message.success(deleting.state === 'active' ? 'Override ended: the rotation is back on call.' : 'Override deleted.'),
              onError: (error) => message.error(error, 'Not deleted'),
              onSettled: () => setDeleting(null),
            },
          )
        }
      >
        <p>The rotation’s own shifts take over again{deleting?.state === 'active' ? ' from now' : ''}.</p>
      </ConfirmDialog>
    </section>
  );
}

type OverrideField = 'user_id' | 'rotation_id' | 'starts_at' | 'ends_at';

/** A new override: who (a developer: themselves), in place of what, from and until when in the schedule's local time. */
function OverrideForm({ projectId, schedule, manage, onSaved }: { projectId: number; schedule: OncallSchedule; manage: boolean; onSaved(text: string): void }) {
  const { user } = useSession();
  const members = useMembers(projectId, manage);
  const { createOverride } = useOncallMutations(projectId);
  const [who, setWho] = useState(manage ? '' : String(user?.id ?? ''));
  const [rotation, setRotation] = useState(schedule.rotations[0] ? String(schedule.rotations[0].id) : '');
  const [startsAt, setStartsAt] = useState(() => localInputValue(Date.now(), schedule.time_zone));
  const [endsAt, setEndsAt] = useState(() => localInputValue(Date.now() + 4 * 3_600_000, schedule.time_zone));
  const { formRef, errors, show, clear, showApiError } = useFormErrors<OverrideField>();
  const message = useCurrentMessage();
  const mine = viewerZone();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (createOverride.isPending) return;
    const found: Partial<Record<OverrideField, string>> = {};
    if (who === '') found.user_id = 'Choose who is on call.';
    if (endsAt === '') found.ends_at = 'Give the end, a local date and time.';
    if (Object.keys(found).length > 0) return show(found);
    const body: Schemas['CreateOverrideDto'] = { user_id: Number(who), rotation_id: rotation === '' ? null : Number(rotation), ends_at: endsAt, ...(startsAt === '' ? {} : { starts_at: startsAt }) };
    createOverride.mutate(
      { scheduleId: schedule.id, body },
      {
        onSuccess: (saved) =>
          onSaved(`@${saved.user.username} is on call in place of ${saved.rotation?.name ?? 'the whole schedule'} from ${zonedDateTime(saved.starts_at, schedule.time_zone)} until ${zonedDateTime(saved.ends_at, schedule.time_zone)}.`),
        onError: (error) => {
          if (!showApiError(error, { fields: { user_id: 'user_id', rotation_id: 'rotation_id', starts_at: 'starts_at', ends_at: 'ends_at' } })) message.error(error, 'Not created');
        },
      },
    );
  };
  /** The viewer's own time of a local time of the schedule's zone, when their zones differ. */
  const yours = (local: string) => {
    const instant = mine === schedule.time_zone ? undefined : instantOfLocal(local, schedule.time_zone);
    return instant === undefined ? undefined : `Your time: ${zonedDateTime(instant, mine)} (${mine}).`;
  };

  return (
    <form className="oncall-form" onSubmit={submit} noValidate ref={formRef} aria-label="New override">
      <h3>Put someone on call</h3>
      <div className="inline-form">
        <Field label="Who" error={errors.user_id}>
          {(id, { errorId }) =>
            manage ? (
              <select id={id} value={who} aria-invalid={errors.user_id !== undefined} aria-describedby={errorId} onChange={(event) => (setWho(event.target.value), clear('user_id'))}>
                <option value="">Choose a member…</option>
                {(members.data ?? []).map((member) => (
                  <option key={member.user_id} value={member.user_id}>
                    @{member.username}
                  </option>
                ))}
              </select>
            ) : (
              <input id={id} value={`@${user?.username ?? ''} (you)`} readOnly />
            )
          }
        </Field>
        <Field label="In place of" error={errors.rotation_id}>
          {(id, { errorId }) => (
            <select id={id} value={rotation} aria-describedby={errorId} onChange={(event) => (setRotation(event.target.value), clear('rotation_id'))}>
              {schedule.rotations.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
              <option value="">The whole schedule</option>
            </select>
          )}
        </Field>
        <LocalTimeField
          label={`From (${schedule.time_zone})`}
          value={startsAt}
          error={errors.starts_at}
          hint={yours(startsAt) ?? 'Now, if in the past.'}
          onChange={(value) => (setStartsAt(value), clear('starts_at'))}
        />
        <LocalTimeField label={`Until (${schedule.time_zone})`} value={endsAt} error={errors.ends_at} hint={yours(endsAt)} onChange={(value) => (setEndsAt(value), clear('ends_at'))} />
      </div>
      {message.view}
      <div className="actions-left">
        <button type="submit" className="button button-primary" aria-disabled={createOverride.isPending}>
          Add override
        </button>
      </div>
    </form>
  );
}

function CalendarSection({ projectId, schedule }: { projectId: number; schedule: OncallSchedule }) {
  const { resetCalendarUrl } = useOncallMutations(projectId);
  const [url, setUrl] = useState<Schemas['OncallCalendarUrlDto'] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const message = useCurrentMessage();
  const reset = () =>
    resetCalendarUrl.mutate(schedule.id, {
      onSuccess: (made) => {
        setUrl(made);
        message.clear();
      },
      onError: (error) => message.error(error, 'Not reset'),
      onSettled: () => setConfirming(false),
    });
  return (
    <section className="card" aria-labelledby="calendar">
      <h2 id="calendar">Calendar feed</h2>
      <p className="muted small">
        The schedule’s shifts (the past week and the next 60 days) for any calendar that subscribes to a URL. The URL is secret: anyone who has it sees the
        shifts. It is shown once; resetting it makes a new one, and the previous one stops working at once.
      </p>
      {message.view}
      {url ? (
        <CopyableField label="Calendar URL" value={url.calendar_url ?? `${window.location.origin}${url.calendar_path}`} copyLabel="Copy the calendar URL">
          <p className="hint">Copy it now: it is not shown again. Add <code>&amp;user_id=</code> and a member’s id for their shifts only.</p>
        </CopyableField>
      ) : (
        <p>{schedule.calendar_url_created_at ? `A calendar URL was made ${zonedDateTime(schedule.calendar_url_created_at, viewerZone())}.` : 'No calendar URL yet.'}</p>
      )}
      <button type="button" className="button" onClick={() => (schedule.calendar_url_created_at ? setConfirming(true) : reset())} aria-disabled={resetCalendarUrl.isPending}>
        {schedule.calendar_url_created_at ? 'Reset calendar URL' : 'Make calendar URL'}
      </button>
      <ConfirmDialog
        open={confirming}
        title="Reset the calendar URL?"
        confirmLabel="Reset URL"
        danger
        busy={resetCalendarUrl.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={reset}
      >
        <p>Calendars subscribed to the current URL stop getting the shifts at once; give them the new one.</p>
      </ConfirmDialog>
    </section>
  );
}
