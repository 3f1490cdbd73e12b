import { FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useIntegrationMutations } from '../../api/queries';
import { Integration, Project } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { JsonField } from '../../components/json-field';
import { checkJsonText } from '../../lib/json-text';
import { MappingPreview } from './mapping-preview';

const EXAMPLE_PAYLOAD = JSON.stringify(
  {
    title: 'Test alert',
    description: 'Sent from the integration settings to check that it works.',
    severity: 'high',
    service: 'checkout',
    monitoring_tool: 'console',
    hosts: ['test-host-1'],
  },
  null,
  2,
);

/** The sample payload, when there is one, so a test alert goes through the integration's own mapping. */
function initialPayload(integration: Integration): string {
  if (!integration.sample_payload) return EXAMPLE_PAYLOAD;
  const check = checkJsonText(integration.sample_payload);
  return check.ok ? JSON.stringify(check.value, null, 2) : integration.sample_payload;
}

/**
 * "Send test alert" (spec 4.2): a JSON payload through the real pipeline, and what it created or
 * grouped into; before sending, a preview of the alert it becomes under the saved mapping.
 */
export function TestAlertTab({ project, integration }: { project: Project; integration: Integration }) {
  const projectId = project.id;
  const { testAlert } = useIntegrationMutations(projectId);
  const [payload, setPayload] = useState(() => initialPayload(integration));
  const valid = checkJsonText(payload).ok;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) testAlert.mutate({ id: integration.id, payload });
  };
  return (
    <form className="card" onSubmit={submit}>
      <h2>Send test alert</h2>
      {!integration.active && (
        <div className="notice notice-warning" role="status">
          This integration is disabled: turn on Active in Configure details before sending a test alert.
        </div>
      )}
      <div className="payload-with-preview">
        <JsonField
          label="Alert test payload"
          value={payload}
          onChange={(text) => {
            setPayload(text);
            testAlert.reset();
          }}
          rows={12}
          hint="The payload is sent to the integration's URL with its key, exactly as a monitoring tool would send it."
        />
        <MappingPreview
          projectId={projectId}
          integrationId={integration.id}
          payload={valid ? payload : null}
          noPayload="Enter a valid JSON payload to preview the alert it becomes."
          description={
            project.tier === 'premium' && integration.payload_field_mapping.length > 0
              ? 'The payload as an alert under the saved mapping, before it is sent. Nothing is stored.'
              : 'The payload as an alert (no custom mapping: each platform alert key is read from the payload property of its own name), before it is sent. Nothing is stored.'
          }
        />
      </div>
      <div className="actions-left">
        <button type="submit" className="button button-primary" disabled={!valid || testAlert.isPending}>
          {testAlert.isPending ? 'Sending…' : 'Send'}
        </button>
      </div>
      <ErrorMessage error={testAlert.error} title="Test alert failed" />
      {testAlert.data && (
        <div className="notice notice-success" role="status">
          <p>{testAlert.data.message}</p>
          {testAlert.data.alerts.length > 0 && (
            <ul className="created-alerts">
              {testAlert.data.alerts.map((alert) => (
                <li key={alert.iid}>
                  <Link to={`/projects/${projectId}/alerts/${alert.iid}`}>
                    #{alert.iid} {alert.title}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
