import { isSchema, JsonSchema, resolve, typesOf } from './json-schema';

/**
 * What a topic's schema may not do from one version of the code to the next. Consumers read
 * records written by every earlier version (a replay from an old offset) and keep running while the
 * producer is upgraded, so a published schema may only grow: a new optional field, a new allowed
 * value (consumers skip event types they do not know). Anything else needs a new topic version.
 */
export const COMPATIBILITY_RULES = {
  removed: 'a field is never removed: consumers read it',
  retyped: 'a field keeps its type: consumers parse it as it was',
  'made-required': 'an optional field stays optional: records written before lack it',
  'added-required': 'a new field is optional: records written before lack it',
  'made-optional': 'a required field stays required: consumers rely on it',
  'value-removed': 'an allowed value stays allowed: records written before carry it',
} as const;

export type CompatibilityRule = keyof typeof COMPATIBILITY_RULES;

export interface Incompatibility {
  /** The field, as a path from the message's root (`alert.assignees[].id`). */
  path: string;
  rule: CompatibilityRule;
}

/** One line naming the field and the rule it breaks. */
export function describeIncompatibility({ path, rule }: Incompatibility): string {
  return `${path || '(the message)'}: ${rule} (rule: ${COMPATIBILITY_RULES[rule]}; to break it, publish a new topic version)`;
}

interface Side {
  root: JsonSchema;
  schema: JsonSchema;
}

const field = (path: string, name: string) => (path ? `${path}.${name}` : name);

function properties(schema: JsonSchema): Record<string, unknown> {
  return isSchema(schema.properties) ? schema.properties : {};
}

function required(schema: JsonSchema): Set<string> {
  return new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
}

function sameTypes(before: JsonSchema, after: JsonSchema): boolean {
  const [a, b] = [typesOf(before), typesOf(after)];
  if (JSON.stringify(a) !== JSON.stringify(b)) return false;
  if (before.format !== after.format) return false;
  if ('const' in before && JSON.stringify(before.const) !== JSON.stringify(after.const)) return false;
  // From a closed list of values to any value of the type: consumers' enums would not parse it.
  if (Array.isArray(before.enum) && !Array.isArray(after.enum)) return false;
  return Array.isArray(before.anyOf) === Array.isArray(after.anyOf);
}

function compare(before: Side, after: Side, path: string, found: Incompatibility[]): void {
  const b = resolve(before.root, before.schema);
  const a = resolve(after.root, after.schema);
  if (!sameTypes(b, a)) {
    found.push({ path, rule: 'retyped' });
    return;
  }
  if (Array.isArray(b.enum) && Array.isArray(a.enum)) {
    const allowed = new Set((a.enum as unknown[]).map((value) => JSON.stringify(value)));
    for (const value of b.enum as unknown[]) if (!allowed.has(JSON.stringify(value))) found.push({ path: `${path} = ${JSON.stringify(value)}`, rule: 'value-removed' });
  }
  if (Array.isArray(b.anyOf) && Array.isArray(a.anyOf)) {
    const variants = a.anyOf as unknown[];
    (b.anyOf as unknown[]).forEach((variant, index) => {
      const other = variants[index];
      if (!isSchema(variant) || !isSchema(other)) found.push({ path: `${path} (variant ${index + 1})`, rule: 'removed' });
      else compare({ root: before.root, schema: variant }, { root: after.root, schema: other }, path, found);
    });
  }
  if (isSchema(b.items) && isSchema(a.items)) compare({ root: before.root, schema: b.items }, { root: after.root, schema: a.items }, `${path}[]`, found);
  else if (isSchema(b.items) !== isSchema(a.items)) found.push({ path: `${path}[]`, rule: 'retyped' });

  const [beforeProperties, afterProperties] = [properties(b), properties(a)];
  const [beforeRequired, afterRequired] = [required(b), required(a)];
  for (const [name, schema] of Object.entries(beforeProperties)) {
    const other = afterProperties[name];
    if (!isSchema(other) || !isSchema(schema)) {
      found.push({ path: field(path, name), rule: 'removed' });
      continue;
    }
    if (beforeRequired.has(name) && !afterRequired.has(name)) found.push({ path: field(path, name), rule: 'made-optional' });
    if (!beforeRequired.has(name) && afterRequired.has(name)) found.push({ path: field(path, name), rule: 'made-required' });
    compare({ root: before.root, schema }, { root: after.root, schema: other }, field(path, name), found);
  }
  for (const name of Object.keys(afterProperties)) {
    if (!(name in beforeProperties) && afterRequired.has(name)) found.push({ path: field(path, name), rule: 'added-required' });
  }
}

/**
 * How `generated`, the schema the code now has, breaks `committed`, the one published: every field
 * removed, retyped, made required or optional, every new required field and every value no longer
 * allowed, each once with its path. Empty when the change is compatible (new optional fields, new
 * values, descriptions).
 */
export function incompatibilities(committed: JsonSchema, generated: JsonSchema): Incompatibility[] {
  const found: Incompatibility[] = [];
  compare({ root: committed, schema: committed }, { root: generated, schema: generated }, '', found);
  return found;
}
