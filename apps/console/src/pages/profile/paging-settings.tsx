import { FormEvent, useState } from 'react';
import { ContactMethod, useContactMethods, useNotificationRules, usePagingMutations, usePagingSettings } from '@console/api/escalation';
import { CopyableField } from '@console/components/copy-button';
import { useCurrentMessage } from '@console/components/current-message';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { useFormErrors } from '@console/components/form-errors';

type MethodType = ContactMethod['type'];

/**
 * Profile › Paging: how escalation policies reach the signed-in user in every project: their contact
 * methods (with a test page each), their notification rules, and whether they want notices.
 */
export function PagingSettings() {
  const methods = useContactMethods();
  const rules = useNotificationRules();
  const settings = usePagingSettings();
  const mutations = usePagingMutations();
  const message = useCurrentMessage();
  const [secret, setSecret] = useState<ContactMethod | null>(null);
  const names = new Map((methods.data ?? []).map((method) => [method.id, method.name]));

  const test = (method: ContactMethod) =>
    mutations.testMethod.mutate(method.id, {
      onSuccess: (outcome) => (outcome.sent ? message.success(`Test page sent to ${method.name} (${method.address}).`) : message.error(new Error(outcome.error ?? 'not sent'), `Test page to ${method.name} not sent`)),
      onError: (error) => message.error(error, 'Test page not sent'),
    });

  return (
    <>
      <div className="card">
        <h2>Contact methods</h2>
        <p className="muted">Where an escalation policy pages you, in any project. Without notification rules below, each is used at once.</p>
        {message.view}
        {secret?.secret && (
          <CopyableField label={`Signing secret of ${secret.name} (shown once)`} value={secret.secret} copyLabel={`Copy the signing secret of ${secret.name}`}>
            <div className="hint">Your webhook's pages are signed with it: X-Grafana-Alerting-Signature, the HMAC-SHA256 of the X-Signature-Timestamp, a colon and the body.</div>
          </CopyableField>
        )}
        <ErrorMessage error={methods.error} />
        <DataTable rows={methods.data} loading={methods.isPending && 'your contact methods'} empty={<p className="muted">No contact method: escalation policies cannot reach you.</p>} columns={['Name', 'Type', 'Address', 'Actions']}>
          {(method) => (
            <tr key={method.id}>
              <td>{method.name}</td>
              <td>{method.type === 'email' ? 'Email' : 'Webhook'}</td>
              <td className="wrap">{method.address}</td>
              <td className="row-actions">
                <button type="button" className="button button-small" disabled={mutations.testMethod.isPending} onClick={() => test(method)}>
                  Send me a test page
                </button>
                <button type="button" className="button button-small button-danger-outline" onClick={() => mutations.deleteMethod.mutate(method.id, { onSuccess: () => message.success(`Deleted ${method.name}.`) })}>
                  Delete
                </button>
              </td>
            </tr>
          )}
        </DataTable>
        <AddContactMethod onAdded={(method) => setSecret(method)} />
      </div>
      <div className="card">
        <h2>Notification rules</h2>
        <p className="muted">When each contact method is used after a page: email at once, your phone's webhook after 5 minutes if you have not acknowledged by then.</p>
        <ErrorMessage error={rules.error} />
        <DataTable
          rows={rules.data}
          loading={rules.isPending && 'your notification rules'}
          empty={<p className="muted">No rules: every contact method is used at once.</p>}
          columns={['Contact method', 'After', 'Actions']}
        >
          {(rule) => (
            <tr key={rule.id}>
              <td>{names.get(rule.contact_method_id) ?? `Contact method ${rule.contact_method_id}`}</td>
              <td>{rule.after_minutes === 0 ? 'at once' : `${rule.after_minutes} minutes`}</td>
              <td>
                <button type="button" className="button button-small button-danger-outline" onClick={() => mutations.deleteRule.mutate(rule.id)}>
                  Delete
                </button>
              </td>
            </tr>
          )}
        </DataTable>
        {methods.data && methods.data.length > 0 && <AddNotificationRule methods={methods.data} />}
      </div>
      <div className="card">
        <h2>Notices</h2>
        <ErrorMessage error={settings.error ?? mutations.updateSettings.error} />
        {settings.data && <NoticesSwitch stored={settings.data.status_notices} save={(on, failed) => mutations.updateSettings.mutate({ status_notices: on }, { onError: failed })} />}
      </div>
    </>
  );
}

/** The notices switch: it shows the choice at once, and goes back if saving it fails. */
function NoticesSwitch({ stored, save }: { stored: boolean; save(on: boolean, failed: () => void): void }) {
  const [on, setOn] = useState(stored);
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={on}
        onChange={(event) => {
          const wanted = event.target.checked;
          setOn(wanted);
          save(wanted, () => setOn(!wanted));
        }}
      />{' '}
      Tell me when an alert I was paged for is acknowledged or resolved, and by whom
    </label>
  );
}

function AddContactMethod({ onAdded }: { onAdded(method: ContactMethod): void }) {
  const { createMethod } = usePagingMutations();
  const [type, setType] = useState<MethodType>('email');
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const { formRef, errors, clear, clearAll, showApiError } = useFormErrors<'name' | 'address' | 'type'>();
  const message = useCurrentMessage();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (createMethod.isPending) return;
    clearAll();
    createMethod.mutate(
      { type, name, address },
      {
        onSuccess: (method) => {
          setName('');
          setAddress('');
          onAdded(method);
          message.success(`Added ${method.name}: send yourself a test page to check it reaches you.`);
        },
        onError: (error) => {
          if (!showApiError(error, { fields: { name: 'name', address: 'address', type: 'type' } }, 'Not added')) message.error(error, 'Not added');
        },
      },
    );
  };

  return (
    <form className="inline-form" onSubmit={submit} ref={formRef} noValidate aria-label="Add a contact method">
      <h3>Add a contact method</h3>
      {message.view}
      <Field label="Type" error={errors.type}>
        {(id, { errorId }) => (
          <select id={id} value={type} aria-invalid={errors.type !== undefined} aria-describedby={errorId} onChange={(event) => setType(event.target.value as MethodType)}>
            <option value="email">Email</option>
            <option value="webhook">Webhook</option>
          </select>
        )}
      </Field>
      <Field label="Name" error={errors.name}>
        {(id, { errorId }) => (
          <input id={id} value={name} placeholder="Work email" aria-invalid={errors.name !== undefined} aria-describedby={errorId} onChange={(event) => (setName(event.target.value), clear('name'))} />
        )}
      </Field>
      <Field label={type === 'email' ? 'Address to page' : 'Webhook URL'} className="field-grow" error={errors.address}>
        {(id, { errorId }) => (
          <input
            id={id}
            type={type === 'email' ? 'email' : 'url'}
            value={address}
            placeholder={type === 'email' ? 'you@example.com' : 'https://…'}
            aria-invalid={errors.address !== undefined}
            aria-describedby={errorId}
            onChange={(event) => (setAddress(event.target.value), clear('address'))}
          />
        )}
      </Field>
      <button type="submit" className="button button-primary" aria-disabled={createMethod.isPending}>
        Add
      </button>
    </form>
  );
}

function AddNotificationRule({ methods }: { methods: ContactMethod[] }) {
  const { createRule } = usePagingMutations();
  const [methodId, setMethodId] = useState(String(methods[0].id));
  const [minutes, setMinutes] = useState('0');
  const { formRef, errors, clear, clearAll, showApiError } = useFormErrors<'method' | 'minutes'>();
  const message = useCurrentMessage();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (createRule.isPending) return;
    clearAll();
    createRule.mutate(
      { contact_method_id: Number(methodId), after_minutes: Number(minutes) },
      {
        onError: (error) => {
          if (!showApiError(error, { fields: { contact_method_id: 'method', after_minutes: 'minutes' } }, 'Not added')) message.error(error, 'Not added');
        },
      },
    );
  };

  return (
    <form className="inline-form" onSubmit={submit} ref={formRef} noValidate aria-label="Add a notification rule">
      <h3>Add a notification rule</h3>
      {message.view}
      <Field label="Contact method" error={errors.method}>
        {(id) => (
          <select id={id} value={methodId} onChange={(event) => (setMethodId(event.target.value), clear('method'))}>
            {methods.map((method) => (
              <option key={method.id} value={method.id}>
                {method.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="After (minutes)" error={errors.minutes}>
        {(id, { errorId }) => (
          <input id={id} type="number" min={0} max={1440} value={minutes} aria-invalid={errors.minutes !== undefined} aria-describedby={errorId} onChange={(event) => (setMinutes(event.target.value), clear('minutes'))} />
        )}
      </Field>
      <button type="submit" className="button button-primary" aria-disabled={createRule.isPending}>
        Add rule
      </button>
    </form>
  );
}
