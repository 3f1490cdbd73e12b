/** A value as JSON can express it: what a payload is made of (spec 2.2: custom fields of any JSON type). */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

/**
 * Canonical JSON text: object keys sorted, no whitespace, arrays in order. Two values that differ
 * only in key order give the same text, and JSON's own quoting and brackets keep arrays and strings
 * unambiguous (["a,b"] and ["a","b"] differ), which the fingerprint relies on.
 */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  // JSON.stringify turns -0 into "0" and non-finite numbers into "null", as JSON.parse would have.
  return JSON.stringify(value);
}

/** The value at a path of object keys and array indices, or undefined when the path does not exist. */
export function valueAtPath(root: JsonValue, path: ReadonlyArray<string | number>): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const step of path) {
    if (Array.isArray(current) && typeof step === 'number') {
      current = Number.isInteger(step) && step >= 0 && step < current.length ? current[step] : undefined;
    } else if (isJsonObject(current) && Object.prototype.hasOwnProperty.call(current, String(step))) {
      current = current[String(step)];
    } else {
      return undefined;
    }
  }
  return current;
}

/** A copy of `root` without the values at `paths` (missing paths are ignored; array items are removed). */
export function withoutPaths(root: JsonValue, paths: ReadonlyArray<ReadonlyArray<string | number>>): JsonValue {
  let result = root;
  for (const path of paths) result = withoutPath(result, path);
  return result;
}

function withoutPath(node: JsonValue, path: ReadonlyArray<string | number>): JsonValue {
  if (path.length === 0) return node;
  const [step, ...rest] = path;
  if (Array.isArray(node) && typeof step === 'number') {
    if (!Number.isInteger(step) || step < 0 || step >= node.length) return node;
    if (rest.length === 0) return node.filter((_, index) => index !== step);
    return node.map((item, index) => (index === step ? withoutPath(item, rest) : item));
  }
  const key = String(step);
  if (isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, key)) {
    const copy: JsonObject = { ...node };
    if (rest.length === 0) delete copy[key];
    else copy[key] = withoutPath(node[key], rest);
    return copy;
  }
  return node;
}
