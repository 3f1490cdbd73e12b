import { isJsonObject } from '@alert-ingestion/json';

/**
 * The body forms a receive request may take (CONTRACT.md "Receiving alerts"): one JSON object (one
 * alert or an Alertmanager webhook body) or a JSON array of objects (one alert each). Returns why a
 * parsed body has none of these forms, or null when it is acceptable. The processor interprets the
 * contents; the gateway only refuses what can never become alerts.
 */
export function alertBodyShapeViolation(body: unknown): string | null {
  if (isJsonObject(body)) return null;
  if (Array.isArray(body)) {
    const index = body.findIndex((element) => !isJsonObject(element));
    return index === -1 ? null : `element ${index} of the array is not a JSON object; every element must be an alert object`;
  }
  return 'the body must be a JSON object or an array of JSON objects';
}
