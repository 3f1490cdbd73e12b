import { JsonObject, JsonValue, isJsonObject } from '@alert-ingestion/json';
import { AlertFieldValues, AlertSource } from './alert-source';
import { alertmanagerSeverity } from './severity';

/** What Alertmanager alerts are attributed to (spec 2.2 `monitoring_tool`). */
export const ALERTMANAGER_MONITORING_TOOL = 'Prometheus';

/** An Alertmanager webhook body (`version` "4", `groupKey`, `alerts`): one alert per element (CONTRACT.md). */
export interface AlertmanagerBody extends JsonObject {
  version: '4';
  groupKey: string;
  alerts: JsonValue[];
}

export function isAlertmanagerBody(body: JsonValue): body is AlertmanagerBody {
  return isJsonObject(body) && body['version'] === '4' && typeof body['groupKey'] === 'string' && Array.isArray(body['alerts']);
}

function nonEmptyText(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function objectAt(element: JsonObject, key: string): JsonObject {
  const value = element[key];
  return isJsonObject(value) ? value : {};
}

/**
 * Reads one Alertmanager alert:
 * - title: `annotations.title`, else `annotations.summary`, else `labels.alertname`;
 * - description: `annotations.description`, else `annotations.summary` when the title did not use it;
 * - severity: `labels.severity` through ALERTMANAGER_SEVERITY_WORDS;
 * - fingerprint: the element's own `fingerprint`; an element without one is identified by its label
 *   set, which is what Alertmanager itself hashes, so both count as an explicit fingerprint;
 * - start time `startsAt`; end time `endsAt` only when the element's `status` is "resolved" (a firing
 *   alert carries a future or zero `endsAt` that must not resolve anything);
 * - service `labels.service`, else `labels.job`; hosts `labels.instance`;
 *   platform environment `labels.platform_environment_name`, else `labels.environment`.
 * The element itself is kept as the payload. A payload field mapping does not apply: its paths
 * describe plain payloads, and an Alertmanager element always has this shape.
 */
export function alertSourceFromAlertmanagerElement(element: JsonObject): AlertSource {
  const labels = objectAt(element, 'labels');
  const annotations = objectAt(element, 'annotations');
  const title = nonEmptyText(annotations['title']) ?? nonEmptyText(annotations['summary']) ?? nonEmptyText(labels['alertname']);
  const summaryIsTitle = title !== undefined && title === nonEmptyText(annotations['summary']) && !nonEmptyText(annotations['title']);
  const description = nonEmptyText(annotations['description']) ?? (summaryIsTitle ? undefined : nonEmptyText(annotations['summary']));
  const ownFingerprint = nonEmptyText(element['fingerprint']);
  const fields: AlertFieldValues = {
    severity: alertmanagerSeverity(labels['severity']),
    monitoring_tool: ALERTMANAGER_MONITORING_TOOL,
  };
  if (title !== undefined) fields.title = title;
  if (description !== undefined) fields.description = description;
  if (ownFingerprint !== undefined) fields.fingerprint = ownFingerprint;
  else if (Object.keys(labels).length > 0) fields.fingerprint = labels;
  if (element['startsAt'] !== undefined) fields.start_time = element['startsAt'];
  if (element['status'] === 'resolved' && element['endsAt'] !== undefined) fields.end_time = element['endsAt'];
  const service = nonEmptyText(labels['service']) ?? nonEmptyText(labels['job']);
  if (service !== undefined) fields.service = service;
  if (labels['instance'] !== undefined) fields.hosts = labels['instance'];
  const environment = nonEmptyText(labels['platform_environment_name']) ?? nonEmptyText(labels['environment']);
  if (environment !== undefined) fields.platform_environment_name = environment;
  return {
    payload: element,
    fields,
    fingerprintExclusions: [['startsAt'], ['endsAt'], ['status'], ['labels', 'instance']],
  };
}
