export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type JsonTextCheck = { ok: true; value: JsonValue } | { ok: false; message: string };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a JSON text as the user types it (spec 2.1 and 4.2: valid JSON is required). `object`
 * also requires a JSON object, as a sample payload is one alert.
 */
export function checkJsonText(text: string, options: { object?: boolean } = {}): JsonTextCheck {
  if (text.trim() === '') return { ok: false, message: 'Enter a JSON payload.' };
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    return { ok: false, message: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (options.object && !isJsonObject(value)) {
    return { ok: false, message: 'The payload must be a JSON object ({ ... }): one alert as the monitoring tool sends it.' };
  }
  return { ok: true, value };
}
