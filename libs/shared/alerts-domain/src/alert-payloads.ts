import { PayloadFieldMappingEntry } from '@alert-ingestion/contracts';
import { isJsonObject, JsonObject, JsonValue } from '@alert-ingestion/json';
import { AlertSource } from './alert-source';
import { alertSourceFromAlertmanagerElement, isAlertmanagerBody } from './alertmanager';
import { alertSourceFromPayload } from './payload-field-mapping';

export type AlertPayloadsResult = { ok: true; sources: AlertSource[] } | { ok: false; reason: string };

/**
 * Splits a receive request body into alert payloads (CONTRACT.md "Receiving alerts"):
 * an Alertmanager webhook body gives one per element of `alerts`; an array gives one per element;
 * an object is one alert. A body or element that is not a JSON object can never become an alert:
 * the whole request is refused (its caller gets an error, nothing is stored).
 */
export function splitAlertPayloads(body: JsonValue, mapping: readonly PayloadFieldMappingEntry[]): AlertPayloadsResult {
  if (isAlertmanagerBody(body)) return sourcesOf(body.alerts, (index) => `alerts[${index}]`, alertSourceFromAlertmanagerElement);
  if (Array.isArray(body)) return sourcesOf(body, (index) => `element ${index} of the array`, (element) => alertSourceFromPayload(element, mapping));
  if (isJsonObject(body)) return { ok: true, sources: [alertSourceFromPayload(body, mapping)] };
  return { ok: false, reason: 'the payload is not a JSON object or array' };
}

/** One source per element, read by `read`; refused at the first element (`named`) that is not a JSON object. */
function sourcesOf(elements: readonly JsonValue[], named: (index: number) => string, read: (element: JsonObject) => AlertSource): AlertPayloadsResult {
  const sources: AlertSource[] = [];
  for (const [index, element] of elements.entries()) {
    if (!isJsonObject(element)) return { ok: false, reason: `${named(index)} is not a JSON object` };
    sources.push(read(element));
  }
  return { ok: true, sources };
}
