/** A JSON Schema, or a part of one, as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

/** The dialect of every schema the tool writes. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Where a schema's own definitions are (`$defs`), and how a reference to one reads. */
export const DEFS_PREFIX = '#/$defs/';

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `schema` with every `$ref` starting with `from` starting with `to` instead. */
export function rebaseRefs<T>(schema: T, from: string, to: string): T {
  if (Array.isArray(schema)) return schema.map((item) => rebaseRefs(item, from, to)) as T;
  if (!isSchema(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith(from) ? to + value.slice(from.length) : rebaseRefs(value, from, to)]),
  ) as T;
}

/** The schema a `$ref` of `root` (`#/$defs/Name`) names, following references until a schema that is not one. */
export function resolve(root: JsonSchema, schema: JsonSchema, seen: ReadonlySet<string> = new Set()): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (!ref.startsWith(DEFS_PREFIX)) throw new Error(`Only references to $defs are followed, not ${ref}`);
  if (seen.has(ref)) throw new Error(`The schema refers to itself through ${ref}`);
  const defs = isSchema(root.$defs) ? root.$defs : {};
  const target = defs[ref.slice(DEFS_PREFIX.length)];
  if (!isSchema(target)) throw new Error(`${ref} names no definition`);
  return resolve(root, target, new Set([...seen, ref]));
}

/** The JSON types a schema allows (`type`, or `const`'s, or `enum`'s), or null when it does not say (any, or a union). */
export function typesOf(schema: JsonSchema): string[] | null {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return [...(schema.type as string[])].sort();
  return null;
}
