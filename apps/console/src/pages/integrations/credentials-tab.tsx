import { useId, useState } from 'react';
import { useIntegrationMutations } from '@console/api/queries';
import { Integration, MAX_KEY_GRACE_PERIOD_MINUTES, SIGNING_SECRET_MAX_LENGTH, SIGNING_SECRET_MIN_LENGTH } from '@console/api/types';
import { ConfirmDialog } from '@console/components/confirm-dialog';
import { CopyableField } from '@console/components/copy-button';
import { useCurrentMessage } from '@console/components/current-message';
import { Field } from '@console/components/field';
import { relativeTime, utcTime } from '@console/lib/time';
import { useNow } from '@console/lib/use-now';

type CurrentMessage = ReturnType<typeof useCurrentMessage>;

/** The grace periods the reset dialog offers, in minutes; "custom" takes any number up to 7 days. */
export const GRACE_PERIOD_CHOICES = [
  { value: '0', label: 'None: the current key stops at once', minutes: 0 },
  { value: '60', label: '1 hour', minutes: 60 },
  { value: '1440', label: '24 hours', minutes: 1_440 },
  { value: '10080', label: '7 days', minutes: 10_080 },
  { value: 'custom', label: 'Custom number of minutes', minutes: null },
] as const;

/** The minutes a grace choice stands for, or null when the custom number is not a whole number in range. */
export function gracePeriodMinutes(choice: string, custom: string): number | null {
  const preset = GRACE_PERIOD_CHOICES.find((option) => option.value === choice);
  if (preset && preset.minutes !== null) return preset.minutes;
  if (!/^\d+$/.test(custom.trim())) return null;
  const minutes = Number(custom.trim());
  return minutes <= MAX_KEY_GRACE_PERIOD_MINUTES ? minutes : null;
}

/** What the answer of a key reset says happened to the keys, for its success message. */
export function keyResetMessage(answer: Integration, graceMinutes: number, revoked: boolean): string {
  const [newest, ...earlier] = answer.previous_authorization_keys;
  const replaced =
    graceMinutes > 0 && newest
      ? `The previous key keeps working until ${utcTime(newest.expires_at)}.`
      : 'The previous key no longer works.';
  const others = revoked ? ' Earlier previous keys were revoked.' : (graceMinutes > 0 ? earlier : answer.previous_authorization_keys).length > 0 ? ' Earlier previous keys keep working until they expire.' : '';
  return `A new authorization key was generated. ${replaced}${others}`;
}

/**
 * "View credentials" (spec 2.1, 5): the URL and authorization key the monitoring tool is configured
 * with, every previous key while its rotation's grace period lasts, and the webhook signing secret.
 * One current message for the whole tab: the outcome of the last action replaces the one before.
 */
export function CredentialsTab({ projectId, integration }: { projectId: number; integration: Integration }) {
  const { resetKey } = useIntegrationMutations(projectId);
  const message = useCurrentMessage();
  const [confirming, setConfirming] = useState(false);
  const [graceChoice, setGraceChoice] = useState('0');
  const [customMinutes, setCustomMinutes] = useState('');
  const [revoke, setRevoke] = useState(false);
  // Every second: "valid until ... (in 1 h 58 min)" is exact to the minute, also right after a reset.
  const now = useNow(1_000);
  const url = integration.url ?? '';
  const key = integration.authorization_key ?? '';
  const previousKeys = integration.previous_authorization_keys;
  const grace = gracePeriodMinutes(graceChoice, customMinutes);
  // At most two previous keys work at once (docs/api-guide.md "Rotating an authorization key without dropping alerts"): a third needs them revoked.
  const needsRevoke = previousKeys.length >= 2 && grace !== null && grace > 0;

  return (
    <>
      {message.view}
      <div className="card">
        <h2>Credentials</h2>
        <p className="muted">
          Configure the monitoring tool to POST its alerts as JSON to this URL, with the authorization key as a bearer token (
          <code>Authorization: Bearer &lt;key&gt;</code>) or as the password of Basic authentication with an empty username.
        </p>
        <CopyableField label="Webhook URL" value={url} copyLabel="Copy the webhook URL" />
        <CopyableField label="Authorization key" value={key} copyLabel="Copy the authorization key" />
        {previousKeys.map((previous, index) => {
          const which = index === 0 ? 'previous authorization key' : 'older previous authorization key';
          return (
            <CopyableField key={previous.authorization_key} label={which.charAt(0).toUpperCase() + which.slice(1)} value={previous.authorization_key} copyLabel={`Copy the ${which}`}>
              <p className="hint" data-testid="previous-key-expiry">
                Valid until <time dateTime={previous.expires_at}>{utcTime(previous.expires_at)}</time> ({relativeTime(previous.expires_at, now)}), so senders can be
                moved to the new key one by one. Deliveries name the requests that still use it by this time.
              </p>
            </CopyableField>
          );
        })}
        <details className="example">
          <summary>Example request</summary>
          <pre className="code-block">
            {`curl -X POST '${url}' \\\n  -H 'Authorization: Bearer ${key}' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"title": "Disk full", "severity": "high", "hosts": ["db-1"]}'`}
          </pre>
        </details>
        <div className="actions-left">
          <button type="button" className="button button-danger-outline" onClick={() => setConfirming(true)}>
            Reset key
          </button>
        </div>
        <ConfirmDialog
          open={confirming}
          title="Reset authorization key"
          confirmLabel="Reset key"
          danger
          busy={resetKey.isPending || grace === null}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            if (grace === null) return;
            const revokePreviousKeys = revoke && previousKeys.length > 0;
            resetKey.mutate(
              { id: integration.id, gracePeriodMinutes: grace, revokePreviousKeys },
              {
                onSuccess: (answer) => message.success(keyResetMessage(answer, grace, revokePreviousKeys)),
                onError: (error) => message.error(error, 'Key not reset'),
                onSettled: () => {
                  setConfirming(false);
                  setRevoke(false);
                },
              },
            );
          }}
        >
          <p>
            Resetting the authorization key for this endpoint will require updating the authorization key in every alert source it is enabled
            in. With a grace period the current key keeps working until it ends, so no alert is dropped while the senders are updated.
          </p>
          <Field label="Grace period for the current key">
            {(id) => (
              <select id={id} value={graceChoice} onChange={(event) => setGraceChoice(event.target.value)}>
                {GRACE_PERIOD_CHOICES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {graceChoice === 'custom' && (
            <Field label={`Minutes (0 to ${MAX_KEY_GRACE_PERIOD_MINUTES})`}>
              {(id) => (
                <>
                  <input
                    id={id}
                    type="number"
                    min={0}
                    max={MAX_KEY_GRACE_PERIOD_MINUTES}
                    step={1}
                    value={customMinutes}
                    onChange={(event) => setCustomMinutes(event.target.value)}
                    aria-invalid={grace === null}
                  />
                  {grace === null && <p className="field-error">A whole number of minutes from 0 to {MAX_KEY_GRACE_PERIOD_MINUTES} (7 days).</p>}
                </>
              )}
            </Field>
          )}
          {previousKeys.length > 0 && (
            <div className="field">
              <p className={needsRevoke && !revoke ? 'notice notice-warning' : 'hint'} data-testid="previous-keys-note">
                {previousKeys.length === 1 ? 'A previous key still works' : `${previousKeys.length} previous keys still work`} (until{' '}
                {previousKeys.map((previous) => utcTime(previous.expires_at)).join(' and ')}) and keep working until then.
                {needsRevoke && ' At most two are kept: a reset with a grace period now needs them revoked, or wait until the oldest expires.'}
              </p>
              <label className="checkbox">
                <input type="checkbox" checked={revoke} onChange={(event) => setRevoke(event.target.checked)} /> Revoke the previous{' '}
                {previousKeys.length === 1 ? 'key' : 'keys'} now (requests still using {previousKeys.length === 1 ? 'it' : 'them'} are refused)
              </label>
            </div>
          )}
        </ConfirmDialog>
      </div>
      <SigningSecretCard projectId={projectId} integration={integration} message={message} />
    </>
  );
}

/** The webhook signing secret: set, generate or remove it, and how Grafana or curl sign requests with it. */
function SigningSecretCard({ projectId, integration, message }: { projectId: number; integration: Integration; message: CurrentMessage }) {
  const { update, resetSigningSecret } = useIntegrationMutations(projectId);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [removing, setRemoving] = useState(false);
  const secret = integration.signing_secret;
  const draftValid = draft.length >= SIGNING_SECRET_MIN_LENGTH && draft.length <= SIGNING_SECRET_MAX_LENGTH;
  const url = integration.url ?? '';
  const key = integration.authorization_key ?? '';

  return (
    <div className="card">
      <h2>Signing secret</h2>
      <p className="muted">
        With a signing secret, every request to this URL must carry the HMAC-SHA256 of its body, as Grafana&apos;s webhook contact point sends it (
        <code>X-Grafana-Alerting-Signature</code>) or in GitHub&apos;s form (<code>X-Hub-Signature-256: sha256=&lt;hex&gt;</code>). Unsigned, wrongly
        signed or stale requests get 401, and so does a signed request sent again: each signature is accepted once.
      </p>
      {secret === null ? (
        <p data-testid="signing-secret-state">Not set: requests are not signed.</p>
      ) : (
        <>
          <CopyableField label="Signing secret" value={secret} copyLabel="Copy the signing secret" />
          <SignatureTimestampSwitch
            checked={integration.allow_signature_without_timestamp}
            busy={update.isPending}
            onChange={(allowed) =>
              update.mutate(
                { id: integration.id, changes: { allow_signature_without_timestamp: allowed } },
                {
                  onSuccess: () => message.success(allowed ? 'Grafana signatures without a timestamp are now accepted.' : 'Grafana signatures now need their timestamp header.'),
                  onError: (error) => message.error(error, 'Setting not changed'),
                },
              )
            }
          />
        </>
      )}
      {editing && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!draftValid) return;
            update.mutate(
              { id: integration.id, changes: { signing_secret: draft } },
              {
                onSuccess: () => {
                  setEditing(false);
                  setDraft('');
                  message.success('The signing secret was saved.');
                },
                onError: (error) => message.error(error, 'Signing secret not changed'),
              },
            );
          }}
        >
          <Field label="New signing secret">
            {(id) => (
              <>
                <input id={id} className="code" value={draft} autoComplete="off" onChange={(event) => setDraft(event.target.value)} aria-invalid={draft !== '' && !draftValid} />
                <p className="hint">
                  {SIGNING_SECRET_MIN_LENGTH} to {SIGNING_SECRET_MAX_LENGTH} characters.
                </p>
              </>
            )}
          </Field>
          <div className="actions-left">
            <button type="submit" className="button button-primary" disabled={!draftValid || update.isPending}>
              Save secret
            </button>
            <button type="button" className="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {!editing && (
        <div className="actions-left">
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {secret === null ? 'Set secret' : 'Change secret'}
          </button>
          <button
            type="button"
            className="button"
            disabled={resetSigningSecret.isPending}
            onClick={() =>
              resetSigningSecret.mutate(integration.id, {
                onSuccess: () => message.success('A new signing secret was generated. Requests signed with a previous one are refused.'),
                onError: (error) => message.error(error, 'Signing secret not changed'),
              })
            }
          >
            Generate secret
          </button>
          {secret !== null && (
            <button type="button" className="button button-danger-outline" onClick={() => setRemoving(true)}>
              Remove secret
            </button>
          )}
        </div>
      )}
      <ConfirmDialog
        open={removing}
        title="Remove signing secret"
        confirmLabel="Remove secret"
        danger
        busy={update.isPending}
        onCancel={() => setRemoving(false)}
        onConfirm={() =>
          update.mutate(
            { id: integration.id, changes: { signing_secret: null } },
            {
              onSuccess: () => message.success('The signing secret was removed.'),
              onError: (error) => message.error(error, 'Signing secret not changed'),
              onSettled: () => setRemoving(false),
            },
          )
        }
      >
        <p>Requests to this URL will no longer need a signature: the authorization key alone lets them in.</p>
      </ConfirmDialog>
      {secret !== null && (
        <>
          <details className="example">
            <summary>Configure Grafana&apos;s webhook contact point</summary>
            <ol>
              <li>
                Alerting, Contact points, your contact point, Integration <strong>Webhook</strong>; URL: <code>{url}</code>
              </li>
              <li>
                Optional settings, Authorization header: scheme <code>Bearer</code>, credentials: the authorization key.
              </li>
              <li>
                HMAC Signature: Secret: the signing secret above; Header: <code>X-Grafana-Alerting-Signature</code> (Grafana&apos;s default);
                Timestamp Header: <code>X-Grafana-Alerting-Signature-Timestamp</code>. Required unless signatures without a timestamp are allowed
                above: the gateway refuses a signed timestamp more than 5 minutes off.
              </li>
            </ol>
          </details>
          <details className="example">
            <summary>Example signed request</summary>
            <pre className="code-block">
              {`body='{"title": "Disk full", "severity": "high", "hosts": ["db-1"]}'\nts=$(date +%s)\nsig=$(printf '%s:%s' "$ts" "$body" | openssl dgst -sha256 -hmac '${secret}' -hex | sed 's/^.* //')\ncurl -X POST '${url}' \\\n  -H 'Authorization: Bearer ${key}' \\\n  -H 'Content-Type: application/json' \\\n  -H "X-Grafana-Alerting-Signature: $sig" \\\n  -H "X-Grafana-Alerting-Signature-Timestamp: $ts" \\\n  -d "$body"`}
            </pre>
          </details>
        </>
      )}
    </div>
  );
}

/**
 * The integration's allow_signature_without_timestamp: off (the default), a Grafana signature
 * without its timestamp header is refused; on, it is accepted, and only the gateway's replay cache
 * (5 minutes) stands between a captured request and its replay.
 */
function SignatureTimestampSwitch({ checked, busy, onChange }: { checked: boolean; busy: boolean; onChange: (allowed: boolean) => void }) {
  const id = useId();
  return (
    <div className="field field-switch">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={busy}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>Accept Grafana signatures without a timestamp</label>
      <div className="hint" id={`${id}-hint`}>
        Only for a contact point that cannot set a Timestamp Header. Risk: such a signature never grows old, so a captured request can be sent
        again and accepted once the gateway has forgotten it (after 5 minutes).
      </div>
    </div>
  );
}
