import { FormEvent, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useAlert, useSilence, useSilenceMutations } from '@console/api/queries';
import { Silence, SILENCE_MATCHER_FIELDS, SILENCE_MATCHER_OPERATORS, SilenceMatcher, SilenceMatcherField, SilenceMatcherOperator } from '@console/api/types';
import { ErrorNotice, ErrorPage, Loading } from '@console/components/error-message';
import { useCurrentMessage } from '@console/components/current-message';
import { ApiErrorFields, fieldOfApiError, useFormErrors } from '@console/components/form-errors';
import { can } from '@console/session/roles';
import { Field } from '@console/components/field';
import {
  emptyRow,
  fromUtcInput,
  MATCHER_FIELD_LABELS,
  MatcherRow,
  matchersFromRows,
  OPERATOR_LABELS,
  rowsFromMatchers,
  similarMatchers,
  toUtcInput,
  utcMinute,
} from '@console/lib/silence-form';
import { usePageTitle } from '@console/lib/use-page-title';
import { useCurrentProject } from '@console/pages/project-layout';
import { Options } from '@console/components/options';

const DEFAULT_DURATION_MS = 2 * 3_600_000;

/** `/silences/new` (from an alert with `?alert=<iid>`: "Silence similar") and `/silences/:silenceId/edit`. */
export function SilenceFormPage() {
  const project = useCurrentProject();
  const silenceId = useParams().silenceId;
  const fromAlert = useSearchParams()[0].get('alert');
  const editing = useSilence(project.id, silenceId === undefined ? null : Number(silenceId));
  const alert = useAlert(project.id, fromAlert === null ? 0 : Number(fromAlert), fromAlert !== null);
  usePageTitle(silenceId === undefined ? 'New silence' : `Silence ${silenceId}`, 'Silences', project.path);
  if (!can(project, 'manageSilences')) return <SilenceRefused projectId={project.id} editing={silenceId !== undefined} />;

  if (silenceId !== undefined) {
    if (editing.isPending) return <Loading what="the silence" />;
    if (editing.error) return <FormError error={editing.error} projectId={project.id} title={`Silence ${silenceId}`} />;
    return <SilenceForm key={editing.data.id} projectId={project.id} silence={editing.data} initialMatchers={editing.data.matchers} />;
  }
  if (fromAlert !== null) {
    if (alert.isPending) return <Loading what="the alert" />;
    if (alert.error) return <FormError error={alert.error} projectId={project.id} title="New silence" />;
    return <SilenceForm projectId={project.id} initialMatchers={similarMatchers(alert.data)} fromAlert={alert.data.iid} />;
  }
  return <SilenceForm projectId={project.id} initialMatchers={[]} />;
}

/** Said before the form, so that a role that may not save learns it before filling it in. */
function SilenceRefused({ projectId, editing }: { projectId: number; editing: boolean }) {
  return (
    <section className="page">
      <h1>{editing ? 'Edit silence' : 'New silence'}</h1>
      <ErrorNotice>Only maintainers and owners can {editing ? 'edit' : 'create'} silences.</ErrorNotice>
      <Link to={`/projects/${projectId}/silences`}>Back to silences</Link>
    </section>
  );
}

function FormError({ error, projectId, title }: { error: unknown; projectId: number; title: string }) {
  return <ErrorPage title={title} error={error} back={<Link to={`/projects/${projectId}/silences`}>Back to silences</Link>} />;
}

interface SilenceFormProps {
  projectId: number;
  /** Editing this silence; creating one when absent. */
  silence?: Silence;
  initialMatchers: readonly SilenceMatcher[];
  fromAlert?: number;
}

/** A control of the form that can be in error: a matcher's path or value (by row), the window, the comment. */
type SilenceField = `value-${number}` | `path-${number}` | `field-${number}` | `operator-${number}` | 'starts' | 'ends' | 'comment';

/** Where the API's refusals belong (it names `matchers[1].value`, `ends_at`, ...), for these rows. */
function apiErrorFields(rows: number): ApiErrorFields<SilenceField> {
  const fields: Record<string, SilenceField> = { matchers: 'value-0', starts_at: 'starts', ends_at: 'ends', comment: 'comment' };
  for (let index = 0; index < rows; index += 1) {
    fields[`matchers[${index}]`] = `value-${index}`;
    fields[`matchers[${index}].value`] = `value-${index}`;
    fields[`matchers[${index}].path`] = `path-${index}`;
    fields[`matchers[${index}].field`] = `field-${index}`;
    fields[`matchers[${index}].operator`] = `operator-${index}`;
  }
  return { fields };
}

/** The API's message at its field: without the field's name in front ("matchers[1]: "), which the field shows. */
function atFieldText(message: string): string {
  const text = message.replace(/^matchers\[\d+\](\.\w+)?:\s*/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function SilenceForm({ projectId, silence, initialMatchers, fromAlert }: SilenceFormProps) {
  const navigate = useNavigate();
  const { create, update } = useSilenceMutations(projectId);
  const [rows, setRows] = useState<MatcherRow[]>(() => (initialMatchers.length > 0 ? rowsFromMatchers(initialMatchers) : [emptyRow()]));
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState(() => toUtcInput(silence?.ends_at ?? new Date(Date.now() + DEFAULT_DURATION_MS).toISOString()));
  const [comment, setComment] = useState(silence?.comment ?? '');
  const { formRef, errors, show, clear, clearAll } = useFormErrors<SilenceField>();
  const message = useCurrentMessage();
  const mutation = silence ? update : create;

  const change = (index: number, changes: Partial<MatcherRow>) => {
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...changes } : row)));
    // A matcher's change can settle the rule about empty values, said at the first value.
    clear(`value-${index}`, `path-${index}`, `field-${index}`, `operator-${index}`, 'value-0');
  };

  /** What is wrong, control by control, in the order the form shows them. */
  const check = (): { errors: Partial<Record<SilenceField, string>> } | { matchers: SilenceMatcher[]; starts: string | null; ends: string } => {
    const found: Partial<Record<SilenceField, string>> = {};
    const checked = matchersFromRows(rows);
    if (!checked.ok) found[`${checked.at}-${checked.row}`] = checked.message;
    const starts = silence ? null : fromUtcInput(startsAt);
    if (!silence && startsAt.trim() !== '' && !starts) found.starts = 'Give the start as a date and time (UTC), or leave it empty to start now.';
    const ends = fromUtcInput(endsAt);
    if (!ends) found.ends = 'Give the end of the silence: a date and time (UTC).';
    else if (Date.parse(ends) <= Date.now()) found.ends = silence ? 'The end must be in the future; to end the silence now, expire it.' : 'The end must be in the future.';
    else if (starts && Date.parse(ends) <= Date.parse(starts)) found.ends = 'The end must be after the start.';
    if (comment.trim() === '') found.comment = 'Say why alerts are silenced, e.g. the maintenance or the ticket.';
    if (Object.keys(found).length > 0 || !checked.ok || !ends) return { errors: found };
    return { matchers: checked.matchers, starts, ends };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const result = check();
    if ('errors' in result) return show(result.errors);
    clearAll();
    message.clear();
    // Back to the list (on the Pending tab for a silence that has not started), which says what happened.
    const done = (saved: Silence, verb: string) =>
      navigate(`/projects/${projectId}/silences${saved.state === 'pending' ? '?state=pending' : ''}`, {
        state: {
          message:
            saved.state === 'pending'
              ? `Silence ${verb}: pending, from ${utcMinute(saved.starts_at)} until ${utcMinute(saved.ends_at)}.`
              : `Silence ${verb}: active until ${utcMinute(saved.ends_at)}.`,
        },
      });
    const onError = (error: Error) => {
      const field = fieldOfApiError(error, apiErrorFields(rows.length));
      if (field) show({ [field]: atFieldText(error.message) });
      else message.error(error, silence ? 'Not saved' : 'Not created');
    };
    if (silence) {
      update.mutate({ id: silence.id, body: { matchers: result.matchers, ends_at: result.ends, comment } }, { onSuccess: (saved) => done(saved, 'saved'), onError });
    } else {
      create.mutate(
        { matchers: result.matchers, ...(result.starts ? { starts_at: result.starts } : {}), ends_at: result.ends, comment },
        { onSuccess: (saved) => done(saved, 'created'), onError },
      );
    }
  };

  return (
    <section className="page">
      <nav aria-label="Silence" className="breadcrumb">
        <Link to={`/projects/${projectId}/silences`}>Silences</Link> <span aria-hidden="true">/</span> {silence ? `Silence ${silence.id}` : 'New'}
      </nav>
      <h1>{silence ? `Edit silence ${silence.id}` : 'New silence'}</h1>
      {fromAlert !== undefined && (
        <p className="notice notice-info">
          Prefilled from <Link to={`/projects/${projectId}/alerts/${fromAlert}`}>alert #{fromAlert}</Link>: alerts like it that arrive while the silence is active are marked
          silenced. Change the matchers to silence more or fewer alerts.
        </p>
      )}
      <form className="card silence-form" onSubmit={submit} noValidate ref={formRef}>
        <fieldset>
          <legend>Matchers</legend>
          <p className="hint">
            All must hold, and one at least must need a value (a silence whose matchers all match an empty value would silence every alert). A regex
            must match the whole value (RE2 syntax, as in Alertmanager); a value the alert does not have counts as empty.
          </p>
          {rows.map((row, index) => (
            <MatcherRowEditor
              key={index}
              index={index}
              row={row}
              errors={{ field: errors[`field-${index}`], operator: errors[`operator-${index}`], path: errors[`path-${index}`], value: errors[`value-${index}`] }}
              onChange={(changes) => change(index, changes)}
              onRemove={
                rows.length > 1
                  ? () => {
                      setRows((current) => current.filter((_, at) => at !== index));
                      clearAll();
                    }
                  : undefined
              }
            />
          ))}
          <button type="button" className="button button-small" onClick={() => setRows((current) => [...current, emptyRow()])}>
            Add matcher
          </button>
        </fieldset>
        <div className="inline-form">
          {silence ? (
            <div className="field">
              <span className="inline-label">Starts (UTC)</span> {utcMinute(silence.starts_at)}
            </div>
          ) : (
            <Field label="Starts (UTC)" hint="Empty: now." error={errors.starts}>
              {(id, { errorId, hintId }) => (
                <input
                  id={id}
                  type="datetime-local"
                  value={startsAt}
                  aria-invalid={errors.starts !== undefined}
                  aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
                  onChange={(event) => {
                    setStartsAt(event.target.value);
                    clear('starts', 'ends');
                  }}
                />
              )}
            </Field>
          )}
          <Field label="Ends (UTC)" error={errors.ends}>
            {(id, { errorId }) => (
              <input
                id={id}
                type="datetime-local"
                value={endsAt}
                aria-invalid={errors.ends !== undefined}
                aria-describedby={errorId}
                onChange={(event) => {
                  setEndsAt(event.target.value);
                  clear('ends');
                }}
              />
            )}
          </Field>
        </div>
        <Field label="Comment" hint="Why alerts are silenced, e.g. the maintenance or the ticket." error={errors.comment}>
          {(id, { errorId, hintId }) => (
            <textarea
              id={id}
              maxLength={2000}
              rows={3}
              value={comment}
              aria-invalid={errors.comment !== undefined}
              aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
              onChange={(event) => {
                setComment(event.target.value);
                clear('comment');
              }}
            />
          )}
        </Field>
        {message.view}
        <div className="actions-left">
          <button type="submit" className="button button-primary" aria-disabled={mutation.isPending}>
            {silence ? 'Save silence' : 'Create silence'}
          </button>
          <Link to={`/projects/${projectId}/silences`} className="button">
            Cancel
          </Link>
        </div>
      </form>
    </section>
  );
}

interface MatcherRowErrors {
  field?: string;
  operator?: string;
  path?: string;
  value?: string;
}

function MatcherRowEditor({
  index,
  row,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  row: MatcherRow;
  errors: MatcherRowErrors;
  onChange(changes: Partial<MatcherRow>): void;
  onRemove?: () => void;
}) {
  const n = index + 1;
  return (
    <div className="matcher-row" role="group" aria-label={`Matcher ${n}`}>
      <Field label="On" error={errors.field}>
        {(id, { errorId }) => (
          <select
            id={id}
            aria-invalid={errors.field !== undefined}
            aria-describedby={errorId}
            value={row.target === 'path' ? '__path' : row.field}
            onChange={(event) => onChange(event.target.value === '__path' ? { target: 'path' } : { target: 'field', field: event.target.value as SilenceMatcherField })}
          >
            <Options values={SILENCE_MATCHER_FIELDS} label={(field) => MATCHER_FIELD_LABELS[field]} />
            <option value="__path">Payload path…</option>
          </select>
        )}
      </Field>
      {row.target === 'path' && (
        <Field label="Path" error={errors.path}>
          {(id, { errorId }) => (
            <input
              id={id}
              className="code"
              placeholder="labels.team"
              value={row.path}
              aria-invalid={errors.path !== undefined}
              aria-describedby={errorId}
              onChange={(event) => onChange({ path: event.target.value })}
            />
          )}
        </Field>
      )}
      <Field label="Operator" error={errors.operator}>
        {(id, { errorId }) => (
          <select id={id} value={row.operator} aria-invalid={errors.operator !== undefined} aria-describedby={errorId} onChange={(event) => onChange({ operator: event.target.value as SilenceMatcherOperator })}>
            <Options values={SILENCE_MATCHER_OPERATORS} label={(operator) => OPERATOR_LABELS[operator]} />
          </select>
        )}
      </Field>
      <Field label="Value" className="field-grow" error={errors.value}>
        {(id, { errorId }) => (
          <input
            id={id}
            className={row.operator.includes('~') ? 'code' : undefined}
            value={row.value}
            maxLength={1024}
            aria-invalid={errors.value !== undefined}
            aria-describedby={errorId}
            onChange={(event) => onChange({ value: event.target.value })}
          />
        )}
      </Field>
      {onRemove && (
        <div className="field-button">
          <button type="button" className="button button-small button-danger-outline" onClick={onRemove}>
            Remove<span className="visually-hidden"> matcher {n}</span>
          </button>
        </div>
      )}
    </div>
  );
}
