import { FormEvent, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useAlert, useSilence, useSilenceMutations } from '../../api/queries';
import { Silence, SILENCE_MATCHER_FIELDS, SILENCE_MATCHER_OPERATORS, SilenceMatcher, SilenceMatcherField, SilenceMatcherOperator } from '../../api/types';
import { ErrorMessage, ErrorNotice, ErrorPage, Loading } from '../../components/error-message';
import { Field } from '../../components/field';
import {
  emptyRow,
  fromLocalInput,
  MATCHER_FIELD_LABELS,
  MatcherRow,
  matchersFromRows,
  OPERATOR_LABELS,
  rowsFromMatchers,
  similarMatchers,
  toLocalInput,
} from '../../lib/silence-form';
import { exactTime } from '../../lib/time';
import { usePageTitle } from '../../lib/use-page-title';
import { useCurrentProject } from '../project-layout';
import { Options } from '../../components/options';

const DEFAULT_DURATION_MS = 2 * 3_600_000;

/** `/silences/new` (from an alert with `?alert=<iid>`: "Silence similar") and `/silences/:silenceId/edit`. */
export function SilenceFormPage() {
  const project = useCurrentProject();
  const silenceId = useParams().silenceId;
  const fromAlert = useSearchParams()[0].get('alert');
  const editing = useSilence(project.id, silenceId === undefined ? null : Number(silenceId));
  const alert = useAlert(project.id, fromAlert === null ? 0 : Number(fromAlert), fromAlert !== null);
  usePageTitle(silenceId === undefined ? 'New silence' : `Silence ${silenceId}`, 'Silences', project.path);

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

function SilenceForm({ projectId, silence, initialMatchers, fromAlert }: SilenceFormProps) {
  const navigate = useNavigate();
  const { create, update } = useSilenceMutations(projectId);
  const [rows, setRows] = useState<MatcherRow[]>(() => (initialMatchers.length > 0 ? rowsFromMatchers(initialMatchers) : [emptyRow()]));
  const [startsAt, setStartsAt] = useState('');
  const [endsAt, setEndsAt] = useState(() => toLocalInput(silence?.ends_at ?? new Date(Date.now() + DEFAULT_DURATION_MS).toISOString()));
  const [comment, setComment] = useState(silence?.comment ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = silence ? update : create;

  const change = (index: number, changes: Partial<MatcherRow>) => setRows((current) => current.map((row, at) => (at === index ? { ...row, ...changes } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = matchersFromRows(rows);
    if (!checked.ok) return setProblem(checked.message);
    const ends = fromLocalInput(endsAt);
    if (!ends) return setProblem('Give the end of the silence.');
    setProblem(null);
    // Back to the list, on the Pending tab for a silence that has not started.
    const done = ({ state }: Silence) => navigate(`/projects/${projectId}/silences${state === 'pending' ? '?state=pending' : ''}`);
    if (silence) {
      update.mutate({ id: silence.id, body: { matchers: checked.matchers, ends_at: ends, comment } }, { onSuccess: () => done(silence) });
    } else {
      const starts = fromLocalInput(startsAt);
      create.mutate({ matchers: checked.matchers, ...(starts ? { starts_at: starts } : {}), ends_at: ends, comment }, { onSuccess: done });
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
      <form className="card silence-form" onSubmit={submit}>
        <fieldset>
          <legend>Matchers</legend>
          <p className="hint">
            All must hold. A regex must match the whole value (RE2 syntax, as in Alertmanager); a value the alert does not have counts as empty.
          </p>
          {rows.map((row, index) => (
            <MatcherRowEditor
              key={index}
              index={index}
              row={row}
              onChange={(changes) => change(index, changes)}
              onRemove={rows.length > 1 ? () => setRows((current) => current.filter((_, at) => at !== index)) : undefined}
            />
          ))}
          <button type="button" className="button button-small" onClick={() => setRows((current) => [...current, emptyRow()])}>
            Add matcher
          </button>
        </fieldset>
        <div className="inline-form">
          {silence ? (
            <div className="field">
              <span className="inline-label">Starts</span> {exactTime(silence.starts_at)}
            </div>
          ) : (
            <Field label="Starts" hint="Empty: now.">
              {(id) => <input id={id} type="datetime-local" value={startsAt} onChange={(event) => setStartsAt(event.target.value)} />}
            </Field>
          )}
          <Field label="Ends">
            {(id) => <input id={id} type="datetime-local" required value={endsAt} onChange={(event) => setEndsAt(event.target.value)} />}
          </Field>
        </div>
        <Field label="Comment" hint="Why alerts are silenced, e.g. the maintenance or the ticket.">
          {(id) => <textarea id={id} required maxLength={2000} rows={3} value={comment} onChange={(event) => setComment(event.target.value)} />}
        </Field>
        {problem && <ErrorNotice>{problem}</ErrorNotice>}
        <ErrorMessage error={mutation.error} />
        <div className="actions-left">
          <button type="submit" className="button button-primary" disabled={mutation.isPending}>
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

function MatcherRowEditor({ index, row, onChange, onRemove }: { index: number; row: MatcherRow; onChange(changes: Partial<MatcherRow>): void; onRemove?: () => void }) {
  const n = index + 1;
  return (
    <div className="matcher-row" role="group" aria-label={`Matcher ${n}`}>
      <Field label="On">
        {(id) => (
          <select
            id={id}
            value={row.target === 'path' ? '__path' : row.field}
            onChange={(event) => onChange(event.target.value === '__path' ? { target: 'path' } : { target: 'field', field: event.target.value as SilenceMatcherField })}
          >
            <Options values={SILENCE_MATCHER_FIELDS} label={(field) => MATCHER_FIELD_LABELS[field]} />
            <option value="__path">Payload path…</option>
          </select>
        )}
      </Field>
      {row.target === 'path' && (
        <Field label="Path">
          {(id) => <input id={id} className="code" placeholder="labels.team" value={row.path} onChange={(event) => onChange({ path: event.target.value })} />}
        </Field>
      )}
      <Field label="Operator">
        {(id) => (
          <select id={id} value={row.operator} onChange={(event) => onChange({ operator: event.target.value as SilenceMatcherOperator })}>
            <Options values={SILENCE_MATCHER_OPERATORS} label={(operator) => OPERATOR_LABELS[operator]} />
          </select>
        )}
      </Field>
      <Field label="Value" className="field-grow">
        {(id) => (
          <input id={id} className={row.operator.includes('~') ? 'code' : undefined} value={row.value} maxLength={1024} onChange={(event) => onChange({ value: event.target.value })} />
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
