import { isJsonObject, JsonObject, JsonValue } from '@alert-ingestion/json';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Makes text storable in PostgreSQL: `text` and `jsonb` reject U+0000 and lone UTF-16 surrogates,
 * and one such character must not make a whole batch fail. Both become U+FFFD, deterministically.
 */
export function storableText(text: string): string {
  return text.replace(/\u0000/g, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

/** `storableText` applied to every string and object key of a JSON value. */
export function storableJson(value: JsonValue): JsonValue {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (isJsonObject(value)) {
    const result: JsonObject = {};
    for (const [key, item] of Object.entries(value)) result[storableText(key)] = storableJson(item);
    return result;
  }
  return value;
}
