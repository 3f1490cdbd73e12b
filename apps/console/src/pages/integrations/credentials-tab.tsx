import { useId, useState } from 'react';
import { useIntegrationMutations } from '../../api/queries';
import { Integration } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { ErrorMessage, SuccessMessage } from '../../components/error-message';

/** "View credentials" (spec 2.1, 5): the URL and authorization key the monitoring tool is configured with. */
export function CredentialsTab({ projectId, integration }: { projectId: number; integration: Integration }) {
  const { resetKey } = useIntegrationMutations(projectId);
  const [confirming, setConfirming] = useState(false);
  const urlId = useId();
  const keyId = useId();
  const url = integration.url ?? '';
  const key = integration.authorization_key ?? '';

  return (
    <div className="card">
      <h2>Credentials</h2>
      <p className="muted">
        Configure the monitoring tool to POST its alerts as JSON to this URL, with the authorization key as a bearer token (
        <code>Authorization: Bearer &lt;key&gt;</code>) or as the password of Basic authentication with an empty username.
      </p>
      {resetKey.isSuccess && <SuccessMessage>A new authorization key was generated. The previous key no longer works.</SuccessMessage>}
      <div className="field">
        <label htmlFor={urlId}>Webhook URL</label>
        <div className="input-with-button">
          <input id={urlId} value={url} readOnly className="code" onFocus={(event) => event.target.select()} />
          <CopyButton value={url} label="Copy the webhook URL" />
        </div>
      </div>
      <div className="field">
        <label htmlFor={keyId}>Authorization key</label>
        <div className="input-with-button">
          <input id={keyId} value={key} readOnly className="code" onFocus={(event) => event.target.select()} />
          <CopyButton value={key} label="Copy the authorization key" />
        </div>
      </div>
      <details className="example">
        <summary>Example request</summary>
        <pre className="code-block">
          {`curl -X POST '${url}' \\\n  -H 'Authorization: Bearer ${key}' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"title": "Disk full", "severity": "high", "hosts": ["db-1"]}'`}
        </pre>
      </details>
      <ErrorMessage error={resetKey.error} title="Key not reset" />
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
        busy={resetKey.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => resetKey.mutate(integration.id, { onSettled: () => setConfirming(false) })}
      >
        <p>
          Resetting the authorization key for this endpoint will require updating the authorization key in every alert source it is enabled
          in. Alerts sent with the current key are refused from then on.
        </p>
      </ConfirmDialog>
    </div>
  );
}
