import { createTestDatabase, TestDatabase } from '@alert-ingestion/testing';
import { PrismaPg } from '@prisma/adapter-pg';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { $Enums, PrismaClient, withClient } from '../src';

/**
 * The generated client's own view of the schema. Prisma 7's `prisma-client` generator no longer
 * exports `Prisma.dmmf`; every client instance carries this runtime data model instead.
 */
interface RuntimeField {
  name: string;
  kind: 'scalar' | 'enum' | 'object' | 'unsupported';
  type: string;
  dbName?: string | null;
}
interface RuntimeModel {
  dbName: string | null;
  fields: RuntimeField[];
}
interface RuntimeDataModel {
  models: Record<string, RuntimeModel>;
}

/** Which fields are optional (`?`) or lists (`[]`), read from the schema the client was generated from. */
function fieldModifiers(schema: string): Map<string, { optional: boolean; list: boolean }> {
  const modifiers = new Map<string, { optional: boolean; list: boolean }>();
  let model: string | undefined;
  for (const line of schema.split('\n')) {
    const start = /^\s*model\s+(\w+)\s*\{/.exec(line);
    if (start) {
      model = start[1];
      continue;
    }
    if (/^\s*\}/.test(line)) {
      model = undefined;
      continue;
    }
    const field = model ? /^\s*(\w+)\s+(\w+)(\[\])?(\?)?/.exec(line) : null;
    if (model && field) modifiers.set(`${model}.${field[1]}`, { list: field[3] === '[]', optional: field[4] === '?' });
  }
  return modifiers;
}

/** PostgreSQL types (pg_type names) that hold each Prisma scalar type, whatever its @db attribute. */
const COMPATIBLE_TYPES: Record<string, string[]> = {
  String: ['text', 'varchar', 'bpchar', 'uuid', 'citext', 'xml', 'inet'],
  Boolean: ['bool'],
  Int: ['int4', 'int2', 'oid'],
  BigInt: ['int8'],
  Float: ['float8', 'float4'],
  Decimal: ['numeric', 'money'],
  DateTime: ['timestamptz', 'timestamp', 'date', 'time', 'timetz'],
  Json: ['jsonb', 'json'],
  Bytes: ['bytea'],
};

interface Column {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  is_identity: 'YES' | 'NO';
}

describe('the migrated database matches the Prisma schema (real PostgreSQL)', () => {
  let database: TestDatabase;
  let runtimeDataModel: RuntimeDataModel;
  let columns: Map<string, Column>;
  let enumLabels: Map<string, string[]>;
  const modifiers = fieldModifiers(readFileSync(resolve(__dirname, '..', '..', '..', '..', 'prisma', 'schema.prisma'), 'utf8'));

  beforeAll(async () => {
    database = await createTestDatabase();
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url }) });
    runtimeDataModel = (client as unknown as { _runtimeDataModel: RuntimeDataModel })._runtimeDataModel;
    await withClient(database.url, async (pg) => {
      const columnRows = await pg.query<Column>(
        `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, is_identity
           FROM information_schema.columns WHERE table_schema = 'public'`,
      );
      columns = new Map(columnRows.rows.map((column) => [`${column.table_name}.${column.column_name}`, column]));
      const labels = await pg.query<{ type: string; labels: string[] }>(
        `SELECT t.typname AS type, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS labels
           FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
      );
      enumLabels = new Map(labels.rows.map((row) => [row.type, row.labels]));
    });
  });

  afterAll(async () => {
    await database.drop();
  });

  it('knows the models the schema defines', () => {
    expect(Object.keys(runtimeDataModel.models).length).toBeGreaterThan(0);
    expect(modifiers.size).toBeGreaterThan(0);
  });

  it('has a table for every model and a column of a compatible type for every scalar and enum field', () => {
    const problems: string[] = [];
    for (const [modelName, model] of Object.entries(runtimeDataModel.models)) {
      const table = model.dbName ?? modelName;
      for (const field of model.fields.filter((candidate) => candidate.kind === 'scalar' || candidate.kind === 'enum')) {
        const columnName = field.dbName ?? field.name;
        const where = `${modelName}.${field.name} (${table}.${columnName})`;
        const column = columns.get(`${table}.${columnName}`);
        if (!column) {
          problems.push(`${where}: no such column`);
          continue;
        }
        const shape = modifiers.get(`${modelName}.${field.name}`);
        if (!shape) {
          problems.push(`${where}: not found in prisma/schema.prisma (regenerate the client)`);
          continue;
        }
        const isArray = column.data_type === 'ARRAY';
        if (shape.list !== isArray) problems.push(`${where}: the schema says ${shape.list ? 'a list' : 'a single value'}, the column is ${column.data_type}`);
        const udt = isArray ? column.udt_name.replace(/^_/, '') : column.udt_name;
        if (field.kind === 'enum') {
          const expected = Object.values(($Enums as unknown as Record<string, Record<string, string>>)[field.type] ?? {});
          const actual = enumLabels.get(udt);
          if (!actual) problems.push(`${where}: enum ${field.type} expected, the column is ${udt}`);
          else if (JSON.stringify(actual) !== JSON.stringify(expected)) {
            problems.push(`${where}: enum ${field.type} has ${expected.join(',')}, type ${udt} has ${actual.join(',')}`);
          }
        } else if (!(COMPATIBLE_TYPES[field.type] ?? []).includes(udt)) {
          problems.push(`${where}: ${field.type} expected, the column is ${udt}`);
        }
        // A list column is NOT NULL in Prisma's migrations; optional fields must be nullable and the others not.
        const nullable = column.is_nullable === 'YES';
        if (!shape.list && nullable !== shape.optional) {
          problems.push(`${where}: ${shape.optional ? 'optional' : 'required'} in the schema, ${nullable ? 'NULL' : 'NOT NULL'} in the database`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no NOT NULL column without a default that the client would never fill', () => {
    const known = new Set<string>();
    const tables = new Set<string>();
    for (const [modelName, model] of Object.entries(runtimeDataModel.models)) {
      const table = model.dbName ?? modelName;
      tables.add(table);
      for (const field of model.fields) known.add(`${table}.${field.dbName ?? field.name}`);
    }
    const unfillable = [...columns.values()]
      .filter((column) => tables.has(column.table_name) && !known.has(`${column.table_name}.${column.column_name}`))
      .filter((column) => column.is_nullable === 'NO' && column.column_default === null && column.is_identity === 'NO')
      .map((column) => `${column.table_name}.${column.column_name}`);
    expect(unfillable).toEqual([]);
  });
});
