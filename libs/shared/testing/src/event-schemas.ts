import { ASYNCAPI_DOCUMENT_FILE, repositoryFile } from '@alert-ingestion/http';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

type Schema = { [keyword: string]: unknown };

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The schema closed: every object that lists its properties allows no other. The published schemas
 * are open, so that consumers keep working when a field is added; the specs that produce events
 * validate them closed, so that a field the code sends and its contract type does not declare (and
 * so the published schema does not either) fails a test.
 */
export function closedSchema(schema: Schema): Schema {
  const closed: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if ((keyword === 'properties' || keyword === '$defs') && isSchema(value)) closed[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? closedSchema(sub) : sub]));
    else if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value)) closed[keyword] = value.map((sub: unknown) => (isSchema(sub) ? closedSchema(sub) : sub));
    else if (SUBSCHEMAS.has(keyword) && isSchema(value)) closed[keyword] = closedSchema(value);
    else closed[keyword] = value;
  }
  if (isSchema(schema.properties) && !('additionalProperties' in schema)) closed.additionalProperties = false;
  return closed;
}

const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'not']);
const SUBSCHEMA_LISTS = new Set(['anyOf', 'allOf', 'oneOf']);

export interface RecordToValidate {
  /** The value as published (JSON text). */
  value: Buffer | string | null;
  headers?: Record<string, string>;
}

interface TopicValidators {
  value: ValidateFunction;
  headers: ValidateFunction | null;
}

/**
 * What the committed AsyncAPI document and schemas (docs/asyncapi, as a consumer outside the
 * repository would read them) say of a topic's records: every record's value against its message's
 * schema, closed (closedSchema), and on a public topic its headers against the message's headers.
 * Topics are named as the document names them (`alerts.events.v1`, without a test's prefix).
 */
export class EventSchemas {
  private constructor(private readonly topics: ReadonlyMap<string, TopicValidators>) {}

  /** Reads docs/asyncapi/asyncapi.json and the schema files beside it. */
  static load(documentFile: string = repositoryFile(ASYNCAPI_DOCUMENT_FILE)): EventSchemas {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const directory = join(dirname(documentFile), 'schemas');
    const byTitle = new Map<string, ValidateFunction>();
    for (const name of readdirSync(directory).filter((file) => file.endsWith('.json'))) {
      const schema = JSON.parse(readFileSync(join(directory, name), 'utf8')) as Schema;
      byTitle.set(String(schema.title), ajv.compile(closedSchema(schema)));
    }
    const document = JSON.parse(readFileSync(documentFile, 'utf8')) as { channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>; components: { messages: Record<string, Schema> } };
    const topics = new Map<string, TopicValidators>();
    for (const channel of Object.values(document.channels)) {
      const [reference] = Object.values(channel.messages);
      const message = document.components.messages[reference.$ref.split('/').pop()!];
      const payload = isSchema(message.payload) ? String(message.payload.$ref).split('/').pop()! : '';
      const value = byTitle.get(payload);
      if (!value) throw new Error(`${channel.address}: no schema file has the title ${payload}`);
      topics.set(channel.address, { value, headers: isSchema(message.headers) ? ajv.compile(message.headers) : null });
    }
    return new EventSchemas(topics);
  }

  /** Every way the record is not what the document says of `topic`: one line each, none when it is. */
  problems(topic: string, record: RecordToValidate): string[] {
    const validators = this.topics.get(topic);
    if (!validators) return [`${topic} is not in the AsyncAPI document`];
    const problems: string[] = [];
    const describe = (what: string, validate: ValidateFunction) =>
      (validate.errors ?? []).map((error) => `${what}${error.instancePath || ''}: ${error.message ?? error.keyword}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`);
    if (record.value !== null) {
      let value: unknown;
      try {
        value = JSON.parse(record.value.toString());
      } catch (error) {
        return [`the value is not JSON: ${(error as Error).message}`];
      }
      if (!validators.value(value)) problems.push(...describe('value', validators.value));
    }
    if (validators.headers && !validators.headers(record.headers ?? {})) problems.push(...describe('headers', validators.headers));
    return problems;
  }
}
