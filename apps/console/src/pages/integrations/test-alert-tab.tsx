import { FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useIntegrationMutations, useTestAlertSample } from '@console/api/queries';
import { Integration, IntegrationListItem, Project, TestAlertSample } from '@console/api/types';
import { useCurrentMessage } from '@console/components/current-message';
import { ErrorMessage, Loading } from '@console/components/error-message';
import { JsonField } from '@console/components/json-field';
import { checkJsonText, checkTestPayload } from '@console/lib/json-text';
import { describeTestAlert, effectWords } from '@console/lib/test-alert-outcome';
import { can } from '@console/session/roles';
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
function initialPayload(samplePayload: string | null): string {
  if (!samplePayload) return EXAMPLE_PAYLOAD;
  const check = checkJsonText(samplePayload);
  return check.ok ? JSON.stringify(check.value, null, 2) : samplePayload;
}

/**
 * "Send test alert" (spec 4.2, developer+): a test payload through the real pipeline, checked
 * first for what it is (valid JSON holding at least one alert), then one current message saying
 * what it did to which alert. It starts from the integration's sample payload when it has one and
 * previews, before sending, the alert it becomes under the saved mapping (`.../test_alert/preview`).
 * A maintainer has the whole integration; a developer, who may not read its settings, gets the
 * sample from `GET .../test_alert` (no URL, key or mapping).
 */
export function TestAlertTab({ project, integration }: { project: Project; integration: TestAlertTarget }) {
  const sample = useTestAlertSample(project.id, isWhole(integration) ? null : integration.id);
  if (isWhole(integration)) {
    const customMapping = project.tier === 'premium' && integration.payload_field_mapping.length > 0;
    return <TestAlertForm project={project} integration={integration} start={{ sample_payload: integration.sample_payload, custom_mapping: customMapping }} />;
  }
  if (sample.isPending) return <Loading what="the test alert" />;
  if (sample.error) return <ErrorMessage error={sample.error} title="The integration's sample payload could not be read" />;
  return <TestAlertForm project={project} integration={integration} start={sample.data} />;
}

function TestAlertForm({ project, integration, start }: { project: Project; integration: TestAlertTarget; start: TestAlertSample }) {
  const projectId = project.id;
  const { testAlert } = useIntegrationMutations(projectId);
  const message = useCurrentMessage();
  const [payload, setPayload] = useState(() => initialPayload(start.sample_payload));
  const valid = checkTestPayload(payload).ok;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    testAlert.mutate(
      { id: integration.id, payload },
      {
        onSuccess: (answer) => message.success(<TestAlertOutcome projectId={projectId} outcome={describeTestAlert(answer)} />),
        onError: (error) => message.error(error, 'Test alert failed'),
      },
    );
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
      <div className="payload-with-preview">
        <JsonField
          label="Alert test payload"
          value={payload}
          onChange={(text) => {
            setPayload(text);
            testAlert.reset();
            message.clear();
          }}
          check={checkTestPayload}
          rows={12}
          hint={
            start.sample_payload
              ? "Starts from the integration's sample payload. One alert as a JSON object, or an array of them. It is sent to the integration's URL with its key, exactly as a monitoring tool would send it."
              : "One alert as a JSON object, or an array of them. It is sent to the integration's URL with its key, exactly as a monitoring tool would send it."
          }
        />
        <MappingPreview
          projectId={projectId}
          integrationId={integration.id}
          payload={valid ? payload : null}
          testAlert
          noPayload="Enter a valid JSON payload to preview the alert it becomes."
          description={
            start.custom_mapping
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
      {message.view}
    </form>
  );
}

/** What the test alert did, with a link to each alert it created or grouped into. */
function TestAlertOutcome({ projectId, outcome }: { projectId: number; outcome: ReturnType<typeof describeTestAlert> }) {
  return (
    <>
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
    </>
  );
}
