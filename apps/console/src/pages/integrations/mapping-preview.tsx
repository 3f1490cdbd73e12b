import { ReactNode, useId, useMemo } from 'react';
import { PreviewRequest, usePreview } from '@console/api/queries';
import { PayloadFieldMappingEntry, PreviewAlert } from '@console/api/types';
import { DetailsList, TextOrNone } from '@console/components/details-list';
import { ErrorMessage } from '@console/components/error-message';
import { SeverityLabel } from '@console/components/severity';
import { exactTime } from '@console/lib/time';
import { useDebounced } from '@console/lib/use-debounced';

/** The preview asks the API once typing or choosing has paused this long. */
export const PREVIEW_DEBOUNCE_MS = 400;
/** A payload of many alerts (an array, an Alertmanager body) shows this many of them. */
const MAX_SHOWN = 5;

interface MappingPreviewProps {
  projectId: number;
  /** null while the integration is not saved: the preview runs on a saved one. */
  integrationId: number | null;
  /** The payload as JSON text; null when there is none to preview (empty or not valid JSON). */
  payload: string | null;
  /** The mapping being edited; undefined: the integration's saved one (on Free, none). */
  mapping?: readonly PayloadFieldMappingEntry[];
  /** What is previewed under which mapping, said above the result. */
  description: ReactNode;
  /** Why there is nothing to preview when `payload` is null. */
  noPayload: string;
  /** The test alert's preview (developer+): under the saved mapping, through `POST .../test_alert/preview`. */
  testAlert?: boolean;
}

/**
 * What a payload would become as an alert (`POST .../preview`, or for a test alert
 * `POST .../test_alert/preview`: the processor's own normalisation,
 * nothing stored), asked again as the payload or the mapping changes. The API's refusals (a path
 * that is not in the payload, a payload that is no alert) are shown in place of the result.
 */
export function MappingPreview({ projectId, integrationId, payload, mapping, description, noPayload, testAlert }: MappingPreviewProps) {
  const headingId = useId();
  // Debounced as text: a new but equal request object on every render must not restart the wait.
  const wanted = integrationId !== null && payload !== null ? JSON.stringify({ integrationId, payload, mapping, testAlert } satisfies PreviewRequest) : null;
  const settled = useDebounced(wanted, PREVIEW_DEBOUNCE_MS);
  const request = useMemo(() => (settled === null ? null : (JSON.parse(settled) as PreviewRequest)), [settled]);
  const preview = usePreview(projectId, request);
  const updating = wanted !== null && (wanted !== settled || preview.isFetching);
  const alerts = request !== null && wanted !== null ? (preview.data?.alerts ?? null) : null;

  return (
    <section className="card preview" aria-labelledby={headingId}>
      <div className="card-title">
        <h3 id={headingId}>Preview</h3>
        <span className="muted small" role="status">
          {updating ? 'Updating…' : ''}
        </span>
      </div>
      <p className="hint">{description}</p>
      {integrationId === null ? (
        <p className="muted">The preview is available once the integration is saved.</p>
      ) : payload === null ? (
        <p className="muted">{noPayload}</p>
      ) : (
        <>
          <ErrorMessage error={wanted === settled ? preview.error : null} title="No preview" />
          {alerts && alerts.length === 0 && (
            <p className="muted">No alert: a payload with an end time only resolves a matching alert, and here there is none to resolve.</p>
          )}
          {alerts && alerts.length > 0 && (
            <ol className="preview-alerts">
              {alerts.slice(0, MAX_SHOWN).map((alert, index) => (
                <li key={index}>
                  {alerts.length > 1 && (
                    <h4>
                      Alert {index + 1} of {alerts.length}
                    </h4>
                  )}
                  <PreviewAlertFields alert={alert} />
                </li>
              ))}
            </ol>
          )}
          {alerts && alerts.length > MAX_SHOWN && <p className="muted">and {alerts.length - MAX_SHOWN} more.</p>}
        </>
      )}
    </section>
  );
}

/** One previewed alert: the fields the alert list and page show, and what grouping compares. */
export function PreviewAlertFields({ alert }: { alert: PreviewAlert }) {
  const fields: Array<[string, ReactNode]> = [
    ['Title', alert.title],
    ['Severity', <SeverityLabel severity={alert.severity} />],
    ['Start time', exactTime(alert.started_at)],
    ['End time', alert.ended_at === null ? <span className="muted">none</span> : exactTime(alert.ended_at)],
    ['Service', <TextOrNone value={alert.service} />],
    ['Monitoring tool', <TextOrNone value={alert.monitoring_tool} />],
    ['Hosts', alert.hosts.length > 0 ? alert.hosts.join(', ') : <span className="muted">none</span>],
    ['Environment', <TextOrNone value={alert.platform_environment_name} />],
    ['Fingerprint', alert.fingerprint === null ? <span className="muted">none</span> : <code>{alert.fingerprint}</code>],
    ['Grouping key', alert.grouping_key === null ? <span className="muted">none: never grouped</span> : <code>{alert.grouping_key}</code>],
  ];
  return <DetailsList fields={fields} className="preview-fields" />;
}
