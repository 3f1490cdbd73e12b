import { FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useIntegrationMutations } from '../../api/queries';
import { Integration, IntegrationListItem, Project } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { JsonField } from '../../components/json-field';
import { checkJsonText, checkTestPayload } from '../../lib/json-text';
import { describeTestAlert, effectWords } from '../../lib/test-alert-outcome';
import { can } from '../../session/roles';
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

/** The whole integration (maintainers), or its line of the list (developers, who may not read its settings). */
export type TestAlertTarget = Integration | IntegrationListItem;

function isWhole(integration: TestAlertTarget): integration is Integration {
  return 'payload_field_mapping' in integration;
}

/** The sample payload, when there is one, so a test alert goes through the integration's own mapping. */
function initialPayload(integration: TestAlertTarget): string {
  if (!isWhole(integration) || !integration.sample_payload) return EXAMPLE_PAYLOAD;
  const check = checkJsonText(integration.sample_payload);
  return check.ok ? JSON.stringify(check.value, null, 2) : integration.sample_payload;
}

/**
 * "Send test alert" (spec 4.2, developer+): a test payload through the real pipeline, checked
 * first for what it is (valid JSON holding at least one alert), then a message saying what it did
 * to which alert. Maintainers also see, before sending, a preview of the alert it becomes under the
 * saved mapping (the preview, like the mapping, is maintainer+).
 */
export function TestAlertTab({ project, integration }: { project: Project; integration: TestAlertTarget }) {
  const projectId = project.id;
  const { testAlert } = useIntegrationMutations(projectId);
  const [payload, setPayload] = useState(() => initialPayload(integration));
  const valid = checkTestPayload(payload).ok;
  const preview = can(project, 'manageIntegrations') && isWhole(integration);
  const outcome = testAlert.data ? describeTestAlert(testAlert.data) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) testAlert.mutate({ id: integration.id, payload });
  };
  return (
    <form className="card" onSubmit={submit}>
      <h2>Send test alert</h2>
      {!integration.active && (
        <div className="notice notice-warning" role="status">
          {can(project, 'manageIntegrations')
            ? 'This integration is disabled: turn on Active in Configure details before sending a test alert.'
            : 'This integration is disabled: a maintainer of the project turns it on (Active) before a test alert can be sent.'}
        </div>
      )}
      <div className={preview ? 'payload-with-preview' : undefined}>
        <JsonField
          label="Alert test payload"
          value={payload}
          onChange={(text) => {
            setPayload(text);
            testAlert.reset();
          }}
          check={checkTestPayload}
          rows={12}
          hint="One alert as a JSON object, or an array of them. It is sent to the integration's URL with its key, exactly as a monitoring tool would send it."
        />
        {preview && isWhole(integration) && (
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
        )}
      </div>
      <div className="actions-left">
        <button type="submit" className="button button-primary" disabled={!valid || testAlert.isPending}>
          {testAlert.isPending ? 'Sending…' : 'Send'}
        </button>
      </div>
      <ErrorMessage error={testAlert.error} title="Test alert failed" />
      {outcome && (
        <div className="notice notice-success" role="status">
          <p>{outcome.summary}</p>
          {outcome.effects.length > 0 && (
            <ul className="created-alerts">
              {outcome.effects.map((effect) => {
                const [before, after] = effectWords(effect);
                return (
                  <li key={effect.alert.iid}>
                    {before}{' '}
                    <Link to={`/projects/${projectId}/alerts/${effect.alert.iid}`}>
                      #{effect.alert.iid} {effect.alert.title}
                    </Link>
                    {after}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
