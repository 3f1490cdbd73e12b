import { githubSlug } from '../../docs/src/markdown-links';
import { DocumentedTopic, schemaFileName } from './asyncapi-document';
import { DEFS_PREFIX, isSchema, JsonSchema } from './json-schema';

/** A table cell: one line, its pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** How a field's type reads: `integer`, `string (date-time) \| null`, `"a" \| "b"`, `AlertView`, `OncallUser[]`, `any JSON`. */
export function typeLabel(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') return schema.$ref.startsWith(DEFS_PREFIX) ? schema.$ref.slice(DEFS_PREFIX.length) : schema.$ref;
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (Array.isArray(schema.anyOf)) return schema.anyOf.filter(isSchema).map(typeLabel).join(' | ');
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
  if (types.length === 0) return 'any JSON';
  return types
    .map((type) => {
      if (type === 'array') return `${isSchema(schema.items) ? wrapped(typeLabel(schema.items)) : 'any JSON'}[]`;
      if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
      return type;
    })
    .join(' | ');
}

/** A union's label in parentheses, so that `[]` applies to all of it. */
function wrapped(label: string): string {
  return label.includes(' | ') ? `(${label})` : label;
}

/** The table of an object's fields, or null when the schema is not an object with properties. */
function fieldsTable(schema: JsonSchema): string | null {
  if (!isSchema(schema.properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows = Object.entries(schema.properties)
    .filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]))
    .map(([name, field]) => `| \`${name}\` | \`${cell(typeLabel(field))}\` | ${required.has(name) ? 'yes' : 'no'} | ${cell(typeof field.description === 'string' ? field.description : '')} |`);
  return ['| field | type | always there | description |', '|---|---|---|---|', ...rows].join('\n');
}

/** A type of `$defs`: its fields' table, or what it is in one line. */
function definition(name: string, schema: JsonSchema): string {
  const about = typeof schema.description === 'string' ? schema.description : '';
  const table = fieldsTable(schema);
  if (table) return `**\`${name}\`**${about ? `: ${about}` : ''}\n\n${table}`;
  return `**\`${name}\`**: \`${typeLabel(schema)}\`${about ? `. ${about}` : ''}`;
}

function headersTable(message: JsonSchema): string | null {
  const headers = isSchema(message.headers) && isSchema(message.headers.properties) ? message.headers.properties : null;
  if (!headers) return null;
  const rows = Object.entries(headers)
    .filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]))
    .map(([name, header]) => `| \`${name}\` | \`${cell(typeLabel(header))}\` | ${cell(typeof header.description === 'string' ? header.description : '')} |`);
  return ['| header | value | |', '|---|---|---|', ...rows].join('\n');
}

/** Who reads a topic: its consumers among the services, and other services for a public one. */
function readers(binding: DocumentedTopic['binding']): string {
  const readers = [...binding.consumers, ...(binding.audience === 'public' ? ['other services'] : [])];
  return readers.length > 0 ? readers.join(', ') : 'operators';
}

function retention(binding: DocumentedTopic['binding']): string {
  return binding.retentionMs === null ? 'compacted' : `${binding.retentionMs / 86_400_000} days`;
}

function section(topic: DocumentedTopic, schema: JsonSchema, message: JsonSchema): string {
  const { binding } = topic;
  const file = schemaFileName(topic.schemaName);
  const examples = Array.isArray(message.examples) ? message.examples.filter(isSchema) : [];
  const defs = isSchema(schema.$defs) ? Object.entries(schema.$defs).filter((entry): entry is [string, JsonSchema] => isSchema(entry[1])) : [];
  const headers = headersTable(message);
  return [
    `### ${binding.topic}`,
    binding.summary,
    [
      `- **Key:** ${binding.key ?? 'none.'}`,
      `- **Value:** \`${topic.schemaName}\`, JSON ([schema](asyncapi/schemas/${file}), draft 2020-12).`,
      `- **Written by** ${binding.producer}; **read by** ${readers(binding)}.`,
    ].join('\n'),
    ...(headers ? ['Headers of every record (CloudEvents 1.0, binary content mode):', headers] : []),
    `Fields of the value${typeof schema.description === 'string' ? `: ${schema.description}` : ''}`,
    fieldsTable(schema) ?? `\`${typeLabel(schema)}\``,
    ...(defs.length > 0 ? ['Its types:', ...defs.map(([name, def]) => definition(name, def))] : []),
    ...examples.map(
      (example) =>
        `<details><summary>Example: ${cell(String(example.name))}. ${cell(String(example.summary ?? ''))}</summary>\n\n${
          isSchema(example.headers) ? `Headers: \`${cell(JSON.stringify(example.headers))}\`\n\n` : ''
        }\`\`\`json\n${JSON.stringify(example.payload, null, 2)}\n\`\`\`\n\n</details>`,
    ),
  ].join('\n\n');
}

const AUDIENCES = [
  ['public', 'Public topics', 'For other services: CloudEvents headers on every record; the schemas only grow (a new optional field, a new event type); a breaking change is a new topic version.'],
  ['internal', 'Internal topics', 'The services\' own traffic: shown for operators and contributors, no contract for anyone else.'],
  ['dead-letter', 'Dead-letter topics', 'What could not be published or processed, with the reason, so that it never holds back what follows.'],
] as const;

/**
 * docs/events.md: the AsyncAPI document as a page to read, generated with it: every topic with its
 * key, layout, producer and consumers, headers, the fields of its value and of every type in it,
 * and its examples.
 */
export function eventsPage(topics: readonly DocumentedTopic[], schemas: ReadonlyMap<string, JsonSchema>, document: JsonSchema): string {
  const components = isSchema(document.components) ? document.components : {};
  const messages = isSchema(components.messages) ? components.messages : {};
  const messageOf = (topic: DocumentedTopic) => (isSchema(messages[topic.id]) ? (messages[topic.id] as JsonSchema) : {});
  const summary = [
    '| topic | for | key | partitions | retention | written by | read by |',
    '|---|---|---|---|---|---|---|',
    ...topics.map(({ binding }) =>
      `| [\`${binding.topic}\`](#${githubSlug(binding.topic)}) | ${binding.audience} | ${cell(binding.key ?? 'none')} | ${binding.partitions} | ${retention(binding)} | ${binding.producer} | ${readers(binding)} |`,
    ),
  ].join('\n');
  return [
    '# Events',
    '<!-- Generated by tools/asyncapi from TOPIC_REGISTRY and the contract types (`npm run asyncapi`); do not edit. -->',
    [
      'Every Kafka topic of the services, what its records carry and who writes and reads them. The same as a',
      'document for tools: [asyncapi.json](asyncapi/asyncapi.json) (AsyncAPI 3.1), with one JSON Schema (draft 2020-12)',
      'per message in [asyncapi/schemas](asyncapi/schemas/); alert-processor and integration-config serve it at',
      '`GET /api/v4/asyncapi.json`. How to consume the public topics (ordering, delivery, deduplication, replay, dead',
      'letters, types in another language): [Consuming events](consuming-events.md).',
    ].join('\n'),
    summary,
    ...AUDIENCES.flatMap(([audience, title, about]) => {
      const inAudience = topics.filter((topic) => topic.binding.audience === audience);
      return inAudience.length === 0 ? [] : [`## ${title}`, about, ...inAudience.map((topic) => section(topic, schemas.get(topic.schemaName) ?? {}, messageOf(topic)))];
    }),
  ].join('\n\n') + '\n';
}
