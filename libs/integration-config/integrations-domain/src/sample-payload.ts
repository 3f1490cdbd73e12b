import { MAX_ALERT_BODY_BYTES, MAX_ALERT_NESTING_DEPTH, PayloadAlertField, PayloadFieldType, PayloadPath } from '@alert-ingestion/contracts';
import { IntegrationRuleViolation } from './integration-rule-violation';
import { isJsonObject, JsonObject, JsonValue } from '@alert-ingestion/json';

export type JsonTextProblem = 'too_large' | 'too_deep' | 'invalid_json';

export type JsonTextResult = { ok: true; value: JsonValue } | { ok: false; problem: JsonTextProblem; message: string };

/**
 * Deepest nesting of arrays and objects in a JSON text (`{}` is 1, a scalar 0), found by a scan
 * rather than recursion so that a hostile text cannot exhaust the stack.
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Parses a JSON text a user typed (a sample payload or a test alert payload). Spec 7: it must be
 * valid JSON; it must also stay within the receiver's size and depth limits, so that what is
 * accepted here would also be accepted by the gateway.
 */
export function parseJsonText(text: string, what: string): JsonTextResult {
  if (Buffer.byteLength(text, 'utf8') > MAX_ALERT_BODY_BYTES) {
    return { ok: false, problem: 'too_large', message: `The ${what} is larger than 1 MiB.` };
  }
  if (jsonNestingDepth(text) > MAX_ALERT_NESTING_DEPTH) {
    return { ok: false, problem: 'too_deep', message: `The ${what} is nested deeper than ${MAX_ALERT_NESTING_DEPTH} levels.` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unreadable';
    return { ok: false, problem: 'invalid_json', message: `The ${what} is not valid JSON: ${reason}.` };
  }
}

/**
 * Parses a sample payload (spec 2.1: "Valid JSON is required"). A sample payload is one alert as the
 * monitoring tool sends it, so it must be a JSON object; anything else is a 400.
 */
export function parseSamplePayload(text: string): JsonObject {
  const invalid = (message: string) => new IntegrationRuleViolation('invalid', 'invalid_sample_payload', message);
  const result = parseJsonText(text, 'sample payload');
  if (!result.ok) throw invalid(result.message);
  if (!isJsonObject(result.value)) throw invalid('The sample payload must be a JSON object (one alert as the monitoring tool sends it).');
  return result.value;
}

const ISO_8601_DATETIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Whether a string reads as an ISO 8601 date or timestamp (spec 2.2 start_time / end_time). */
export function isDateTimeString(value: string): boolean {
  return ISO_8601_DATETIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** The type parse reports for a value. A null leaf reads as a string: the usual value it stands for. */
export function payloadFieldTypeOf(value: JsonValue): PayloadFieldType | undefined {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'string';
  switch (typeof value) {
    case 'string':
      return isDateTimeString(value) ? 'datetime' : 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}

/** A readable label for a path: `labels.severity`, `alerts[0].hosts`. */
export function payloadPathLabel(path: PayloadPath): string {
  return path
    .map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}

/**
 * "Parse payload for custom mapping" (spec 2.1): every leaf (including null leaves: an end time is
 * typically null while an alert fires) and every array of the sample payload, in document order.
 * Arrays are listed themselves and descended into, so an element can be mapped too. Iterative, so
 * depth is bounded only by the 100-level limit already checked.
 */
export function listPayloadAlertFields(sample: JsonObject): PayloadAlertField[] {
  const fields: PayloadAlertField[] = [];
  const stack: Array<{ path: PayloadPath; value: JsonValue }> = Object.entries(sample)
    .map(([key, value]) => ({ path: [key] as PayloadPath, value }))
    .reverse();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { path, value } = next;
    const type = payloadFieldTypeOf(value);
    if (type !== undefined) fields.push({ path, label: payloadPathLabel(path), type });
    const children: Array<{ path: PayloadPath; value: JsonValue }> = Array.isArray(value)
      ? value.map((item, index) => ({ path: [...path, index], value: item }))
      : isJsonObject(value)
        ? Object.entries(value).map(([key, item]) => ({ path: [...path, key], value: item }))
        : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return fields;
}
