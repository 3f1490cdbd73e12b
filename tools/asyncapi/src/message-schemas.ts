import { join } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import { DEFS_PREFIX, isSchema, JSON_SCHEMA_DIALECT, JsonSchema, rebaseRefs } from './json-schema';

/**
 * The JSON Schema (draft 2020-12) of each message type, made from its TypeScript type in
 * libs/shared/contracts by ts-json-schema-generator, so a schema says what the code compiles
 * against: properties, which are optional, null, unions, string enums and constants; the JSDoc of a
 * property is its description, and the contracts' `Integer` and `Timestamp` say `integer` and
 * `date-time`.
 *
 * Objects are open (no `additionalProperties: false`): a consumer built from the schema must keep
 * working when a field is added (docs/consuming-events.md), which is the one change a topic version
 * allows. The specs that produce events validate them closed (libs/shared/testing's event schemas),
 * so a field the code sends and the type does not declare fails there.
 */
export function messageSchemas(root: string, typeNames: readonly string[]): Map<string, JsonSchema> {
  const generator = createGenerator({
    path: join(root, 'libs', 'shared', 'contracts', 'src', 'index.ts'),
    tsconfig: join(root, 'tsconfig.base.json'),
    // `npm run typecheck` checks the types; this only reads them.
    skipTypeCheck: true,
    jsDoc: 'extended',
    additionalProperties: true,
    expose: 'export',
    topRef: true,
    sortProps: false,
  });
  return new Map(typeNames.map((name) => [name, draft2020(generator.createSchema(name) as JsonSchema, name)]));
}

/**
 * ts-json-schema-generator's draft-07 output (`{$ref, definitions}`) as a draft 2020-12 schema whose
 * root is the type itself and whose other types are `$defs`.
 */
export function draft2020(generated: JsonSchema, name: string): JsonSchema {
  const definitions = isSchema(generated.definitions) ? generated.definitions : {};
  const rebased = rebaseRefs(definitions, '#/definitions/', DEFS_PREFIX);
  const { [name]: rootSchema, ...defs } = rebaseRefs(rebased, `${DEFS_PREFIX}${name}`, '#');
  if (!isSchema(rootSchema)) throw new Error(`No schema was generated for ${name}`);
  assertNoTuples(rebased, name);
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: name,
    ...rootSchema,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

/** Draft-07 tuples (`items: [...]`) are `prefixItems` in 2020-12: no contract has one, and none should slip through unconverted. */
function assertNoTuples(schema: unknown, name: string): void {
  if (Array.isArray(schema)) return schema.forEach((item) => assertNoTuples(item, name));
  if (!isSchema(schema)) return;
  if (Array.isArray(schema.items)) throw new Error(`${name} has a tuple; its schema would need prefixItems`);
  Object.values(schema).forEach((value) => assertNoTuples(value, name));
}
