/**
 * JSON values as payloads are made of (spec 2.2: custom fields of any JSON type), and the few
 * operations every domain needs on them. One home, used by the gateway, the processor and
 * integration-config alike.
 */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A step into a JSON value: an object key (string) or an array index (number). */
export type JsonPathStep = string | number;

/** Whether a value is a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value at a path, or undefined when the path does not exist. A number step indexes an array
 * and a string step names an object key, never the other way round: `["alerts", 0]` and
 * `["alerts", "0"]` are different paths, as the sample payload parser lists them.
 */
export function valueAtPath(root: JsonValue, path: ReadonlyArray<JsonPathStep>): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(current) || !Number.isInteger(step) || step < 0 || step >= current.length) return undefined;
      current = current[step];
    } else {
      if (!isJsonObject(current) || !Object.prototype.hasOwnProperty.call(current, step)) return undefined;
      current = current[step];
    }
  }
  return current;
}

/** A copy of `root` without the values at `paths` (missing paths are ignored; array items are removed). */
export function withoutPaths(root: JsonValue, paths: ReadonlyArray<ReadonlyArray<JsonPathStep>>): JsonValue {
  let result = root;
  for (const path of paths) result = withoutPath(result, path);
  return result;
}

function withoutPath(node: JsonValue, path: ReadonlyArray<JsonPathStep>): JsonValue {
  if (path.length === 0) return node;
  const [step, ...rest] = path;
  if (typeof step === 'number') {
    if (!Array.isArray(node) || !Number.isInteger(step) || step < 0 || step >= node.length) return node;
    if (rest.length === 0) return node.filter((_, index) => index !== step);
    return node.map((item, index) => (index === step ? withoutPath(item, rest) : item));
  }
  if (!isJsonObject(node) || !Object.prototype.hasOwnProperty.call(node, step)) return node;
  const copy: JsonObject = { ...node };
  if (rest.length === 0) delete copy[step];
  else copy[step] = withoutPath(node[step], rest);
  return copy;
}

/**
 * Canonical JSON text: object keys sorted, no whitespace, arrays in order. Two values that differ
 * only in key order give the same text, and JSON's own quoting and brackets keep arrays and strings
 * unambiguous (["a,b"] and ["a","b"] differ), which fingerprints rely on.
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
