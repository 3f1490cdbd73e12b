import { FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { messageOf, ApiError } from '@console/api/client';
import {
  EscalationPolicy,
  EscalationPolicyRequest,
  EscalationTargetRequest,
  useEscalationPolicy,
  useEscalationPolicyMutations,
  usePolicyPreview,
} from '@console/api/escalation';
import { useOncallSchedules } from '@console/api/oncall';
import { useMembers } from '@console/api/queries';
import { ConfirmDialog } from '@console/components/confirm-dialog';
import { CopyableField } from '@console/components/copy-button';
import { useCurrentMessage } from '@console/components/current-message';
import { ErrorMessage, ErrorNotice, Loading } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { Options } from '@console/components/options';
import { useDebounced } from '@console/lib/use-debounced';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';

type Condition = 'not_acknowledged' | 'not_resolved';
type TargetType = EscalationTargetRequest['type'];

interface TargetForm {
  type: TargetType;
  /** The schedule's or the member's id, or the URL, as the control holds it. */
  value: string;
}

interface RuleForm {
  afterMinutes: string;
  condition: Condition;
  targets: TargetForm[];
}

interface PolicyForm {
  rules: RuleForm[];
  repeat: string;
}

const CONDITIONS: Record<Condition, string> = { not_acknowledged: 'if not acknowledged', not_resolved: 'if not resolved' };
const TARGET_TYPES: Record<TargetType, string> = { schedule: 'Whoever is on call in', user: 'Member', webhook: 'Webhook' };
const WHOLE = /^\d+$/;

/** A record's keys, typed as its keys. */
const keysOf = <Key extends string>(record: Record<Key, unknown>) => Object.keys(record) as Key[];

/** The stored policy as the form holds it (one rule to start from when there is none). */
function formOf(policy: EscalationPolicy | undefined): PolicyForm {
  if (!policy || policy.rules.length === 0) return { rules: [{ afterMinutes: '0', condition: 'not_acknowledged', targets: [{ type: 'schedule', value: '' }] }], repeat: '0' };
  return {
    repeat: String(policy.repeat),
    rules: policy.rules.map((rule) => ({
      afterMinutes: String(rule.after_minutes),
      condition: rule.condition,
      targets: rule.targets.map((target) => ({ type: target.type, value: String(target.schedule_id ?? target.user_id ?? target.url ?? '') })),
    })),
  };
}

/** The form as the API takes it; null while a number is not a whole one or a target is not chosen (the form says where). */
function requestOf(form: PolicyForm): EscalationPolicyRequest | null {
  if (!WHOLE.test(form.repeat) || form.rules.some((rule) => !WHOLE.test(rule.afterMinutes) || rule.targets.some((target) => target.value.trim() === ''))) return null;
  return {
    repeat: Number(form.repeat),
    rules: form.rules.map((rule) => ({
      after_minutes: Number(rule.afterMinutes),
      condition: rule.condition,
      targets: rule.targets.map((target): EscalationTargetRequest => {
        if (target.type === 'webhook') return { type: 'webhook', url: target.value };
        const id = Number(target.value);
        return target.type === 'schedule' ? { type: 'schedule', schedule_id: id } : { type: 'user', user_id: id };
      }),
    })),
  };
}

/** The API's field of a refusal (`rules[1].targets[0].schedule_id`), for the control it is about. */
function fieldOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.field : undefined;
}

/** Monitor > Escalation policy (maintainer+): the rules in order, each said in words as it is edited, saved as a whole. */
export function EscalationPolicyPage() {
  const project = useCurrentProject();
  usePageTitle('Escalation policy', 'Monitor', project.path);
  const allowed = can(project, 'manageEscalationPolicy');
  const policy = useEscalationPolicy(project.id);
  if (!allowed) {
    return (
      <section className="page">
        <h1>Escalation policy</h1>
        <ErrorNotice>The escalation policy is set by maintainers and owners of the project.</ErrorNotice>
      </section>
    );
  }
  return (
    <section className="page">
      <div className="page-title">
        <h1>Escalation policy</h1>
      </div>
      <p className="muted">
        When an alert is triggered and nobody acknowledges it, the rules page people in order: each after its minutes, while its condition holds.
        Acknowledging stops the "if not acknowledged" rules, resolving stops all. An alert keeps the policy it started with.
      </p>
      {policy.isPending ? <Loading what="the escalation policy" /> : policy.error ? <ErrorMessage error={policy.error} /> : <PolicyEditor stored={policy.data} />}
    </section>
  );
}

function PolicyEditor({ stored }: { stored: EscalationPolicy }) {
  const project = useCurrentProject();
  const [form, setForm] = useState<PolicyForm>(() => formOf(stored));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [secrets, setSecrets] = useState<EscalationPolicy['webhook_secrets']>([]);
  const schedules = useOncallSchedules(project.id, 1);
  const members = useMembers(project.id);
  const { save, remove } = useEscalationPolicyMutations(project.id);
  const message = useCurrentMessage();
  const request = requestOf(form);
  const preview = usePolicyPreview(project.id, useDebounced(request, 400));
  const shown = preview.data ?? stored;
  const refused = save.error ?? (preview.error instanceof ApiError ? preview.error : null);
  const errorAt = (field: string) => (fieldOf(refused) === field ? messageOf(refused) : undefined);

  const change = (update: (draft: PolicyForm) => PolicyForm) => {
    save.reset();
    setForm((current) => update(structuredClone(current)));
  };
  const changeRule = (index: number, update: (rule: RuleForm) => void) =>
    change((draft) => {
      update(draft.rules[index]);
      return draft;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!request || save.isPending) return;
    save.mutate(request, {
      onSuccess: (saved) => {
        setSecrets(saved.webhook_secrets);
        message.success('Saved: alerts triggered from now on escalate with these rules.');
      },
    });
  };

  return (
    <form className="card escalation-policy" onSubmit={submit} noValidate aria-label="Escalation policy">
      <h2>Rules</h2>
      {message.view}
      {secrets.map((secret) => (
        <CopyableField key={secret.url} label={`Signing secret of ${secret.url} (shown once)`} value={secret.secret} copyLabel={`Copy the signing secret of ${secret.url}`}>
          <div className="hint">Pages to this URL are signed with it (X-Grafana-Alerting-Signature over the timestamp and the body).</div>
        </CopyableField>
      ))}
      <ol className="escalation-rules">
        {form.rules.map((rule, index) => (
          <li key={index} className="escalation-rule">
            <fieldset>
              <legend>Rule {index + 1}</legend>
              <div className="inline-form">
                <Field label="After (minutes)" error={errorAt(`rules[${index}].after_minutes`) ?? (WHOLE.test(rule.afterMinutes) ? undefined : 'Minutes are a whole number from 0 to 1440.')}>
                  {(id, { errorId }) => (
                    <input
                      id={id}
                      type="number"
                      min={0}
                      max={1440}
                      className="input-narrow"
                      value={rule.afterMinutes}
                      aria-invalid={!WHOLE.test(rule.afterMinutes) || errorAt(`rules[${index}].after_minutes`) !== undefined}
                      aria-describedby={errorId}
                      onChange={(event) => changeRule(index, (draft) => void (draft.afterMinutes = event.target.value))}
                    />
                  )}
                </Field>
                <Field label="Condition">
                  {(id) => (
                    <select id={id} value={rule.condition} onChange={(event) => changeRule(index, (draft) => void (draft.condition = event.target.value as Condition))}>
                      <Options values={keysOf(CONDITIONS)} label={(value) => CONDITIONS[value]} />
                    </select>
                  )}
                </Field>
              </div>
              <ul className="escalation-targets" aria-label={`Targets of rule ${index + 1}`}>
                {rule.targets.map((target, targetIndex) => {
                  const field = `rules[${index}].targets[${targetIndex}]`;
                  const problem = errorAt(field) ?? errorAt(`${field}.schedule_id`) ?? errorAt(`${field}.user_id`) ?? errorAt(`${field}.url`);
                  const setTarget = (update: Partial<TargetForm>) => changeRule(index, (draft) => void Object.assign(draft.targets[targetIndex], update));
                  return (
                    <li key={targetIndex}>
                      <div className="inline-form">
                        <Field label="Page">
                          {(id) => (
                            <select id={id} value={target.type} onChange={(event) => setTarget({ type: event.target.value as TargetType, value: '' })}>
                              <Options values={keysOf(TARGET_TYPES)} label={(value) => TARGET_TYPES[value]} />
                            </select>
                          )}
                        </Field>
                        {target.type === 'webhook' ? (
                          <Field label="URL" className="field-grow" error={problem}>
                            {(id, { errorId }) => (
                              <input
                                id={id}
                                type="url"
                                value={target.value}
                                placeholder="https://hooks.example.com/…"
                                aria-invalid={problem !== undefined}
                                aria-describedby={errorId}
                                onChange={(event) => setTarget({ value: event.target.value })}
                              />
                            )}
                          </Field>
                        ) : (
                          <Field label={target.type === 'schedule' ? 'Schedule' : 'Member'} error={problem}>
                            {(id, { errorId }) => (
                              <select id={id} value={target.value} aria-invalid={problem !== undefined} aria-describedby={errorId} onChange={(event) => setTarget({ value: event.target.value })}>
                                <option value="">Choose…</option>
                                {target.type === 'schedule'
                                  ? schedules.data?.items.map((schedule) => (
                                      <option key={schedule.id} value={schedule.id}>
                                        {schedule.name}
                                      </option>
                                    ))
                                  : members.data?.map((member) => (
                                      <option key={member.user_id} value={member.user_id}>
                                        {member.username}
                                      </option>
                                    ))}
                              </select>
                            )}
                          </Field>
                        )}
                        <button
                          type="button"
                          className="button button-small"
                          disabled={rule.targets.length === 1}
                          onClick={() => changeRule(index, (draft) => void draft.targets.splice(targetIndex, 1))}
                          aria-label={`Remove target ${targetIndex + 1} of rule ${index + 1}`}
                        >
                          Remove
                        </button>
                      </div>
                    </li>
                  );
                })}
              </ul>
              <div className="row-actions">
                <button type="button" className="button button-small" disabled={rule.targets.length >= 10} onClick={() => changeRule(index, (draft) => void draft.targets.push({ type: 'user', value: '' }))}>
                  Add target
                </button>
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  disabled={form.rules.length === 1}
                  onClick={() =>
                    change((draft) => {
                      draft.rules.splice(index, 1);
                      return draft;
                    })
                  }
                >
                  Remove rule {index + 1}
                </button>
              </div>
              <p className="rule-preview" aria-live="polite">
                {shown.rules[index] && !preview.isError ? shown.rules[index].description.replace(/^./, (first) => first.toUpperCase()) + '.' : ''}
              </p>
            </fieldset>
          </li>
        ))}
      </ol>
      <div className="row-actions">
        <button
          type="button"
          className="button"
          disabled={form.rules.length >= 10}
          onClick={() =>
            change((draft) => {
              const last = draft.rules[draft.rules.length - 1];
              draft.rules.push({ afterMinutes: String(Number(last?.afterMinutes ?? 0) + 5), condition: 'not_acknowledged', targets: [{ type: 'user', value: '' }] });
              return draft;
            })
          }
        >
          Add rule
        </button>
      </div>
      <Field
        label="Repeat (times)"
        error={errorAt('repeat') ?? (WHOLE.test(form.repeat) ? undefined : 'A whole number from 0 to 9.')}
        hint={preview.data && WHOLE.test(form.repeat) ? `The rules run ${Number(form.repeat) + 1} ${form.repeat === '0' ? 'loop' : 'loops'}; a loop lasts ${preview.data.loop_minutes} minutes (the last rule's plus 5).` : undefined}
      >
        {(id, { errorId, hintId }) => (
          <input
            id={id}
            type="number"
            min={0}
            max={9}
            className="input-narrow"
            value={form.repeat}
            aria-invalid={!WHOLE.test(form.repeat) || errorAt('repeat') !== undefined}
            aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
            onChange={(event) =>
              change((draft) => {
                draft.repeat = event.target.value;
                return draft;
              })
            }
          />
        )}
      </Field>
      {shown.unreachable_users.length > 0 && (
        <div className="notice notice-warning" role="status">
          <strong>No contact method:</strong> {shown.unreachable_users.map((user) => `@${user.username}`).join(', ')} would be paged in vain: the policy can page them, but they have set no way to reach them
          (Profile › Contact methods).
        </div>
      )}
      {refused && fieldOf(refused) === undefined && <ErrorMessage error={refused} title="Not saved" />}
      {request === null && <p className="hint">Choose every target and give whole numbers of minutes to see the rules in words and save them.</p>}
      <div className="actions">
        <button type="submit" className="button button-primary" aria-disabled={save.isPending || request === null}>
          Save policy
        </button>
        {stored.created_at && (
          <button type="button" className="button button-danger-outline" onClick={() => setConfirmDelete(true)}>
            Delete policy
          </button>
        )}
        <Link to={`/projects/${project.id}/oncall`}>On-call schedules</Link>
      </div>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete the escalation policy?"
        confirmLabel="Delete policy"
        danger
        busy={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirmDelete(false);
              setForm(formOf(undefined));
              message.success('Deleted: new alerts escalate no more (escalations under way go on).');
            },
          })
        }
      >
        New alerts will page nobody. Escalations under way keep the policy they started with.
      </ConfirmDialog>
    </form>
  );
}
