import { PayloadFieldMappingEntry } from '@alert-ingestion/contracts';
import { isJsonObject, JsonValue } from '@alert-ingestion/json';
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
  if (isAlertmanagerBody(body)) {
    const sources: AlertSource[] = [];
    for (const [index, element] of body.alerts.entries()) {
      if (!isJsonObject(element)) return { ok: false, reason: `alerts[${index}] is not a JSON object` };
      sources.push(alertSourceFromAlertmanagerElement(element));
    }
    return { ok: true, sources };
  }
  if (Array.isArray(body)) {
    const sources: AlertSource[] = [];
    for (const [index, element] of body.entries()) {
      if (!isJsonObject(element)) return { ok: false, reason: `element ${index} of the array is not a JSON object` };
      sources.push(alertSourceFromPayload(element, mapping));
    }
    return { ok: true, sources };
  }
  if (isJsonObject(body)) return { ok: true, sources: [alertSourceFromPayload(body, mapping)] };
  return { ok: false, reason: 'the payload is not a JSON object or array' };
}
