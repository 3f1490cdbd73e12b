import { CLOUD_EVENT_HEADER_NAMES, projectEventHeaders, ProjectEventAttributes, Topic, TOPIC_REGISTRY, TopicAudience } from '@alert-ingestion/contracts';
import { DEFS_PREFIX, isSchema, JSON_SCHEMA_DIALECT, JsonSchema, rebaseRefs, resolve } from './json-schema';

/** How the document names the schema format of its payloads (AsyncAPI's Multi Format Schema Object). */
export const SCHEMA_FORMAT = 'application/schema+json;version=draft-2020-12';

/** The Kafka bindings' version the document follows. */
const KAFKA_BINDING_VERSION = '0.5.0';

/** The header every relayed record carries besides its own (libs/shared/outbox OUTBOX_ID_HEADER). */
const OUTBOX_ID_HEADER = 'outbox-id';

type Binding = (typeof TOPIC_REGISTRY)[Topic];

/** A topic as the document shows it. */
export interface DocumentedTopic {
  /** The Topic enum's name for it (`AlertEvents`): the channel's id. */
  id: string;
  binding: Binding;
  /** The name of its value's class (`AlertEventValue`): its schema's. */
  schemaName: string;
}

/** Every topic of TOPIC_REGISTRY: public ones first, then internal ones, then dead letters, each in registry order. */
export function documentedTopics(): DocumentedTopic[] {
  const order: TopicAudience[] = ['public', 'internal', 'dead-letter'];
  const ids = new Map(Object.entries(Topic).map(([id, topic]) => [topic as Topic, id]));
  return Object.values(TOPIC_REGISTRY)
    .map((binding: Binding) => ({ id: ids.get(binding.topic) ?? binding.topic, binding, schemaName: binding.value.name }))
    .sort((a, b) => order.indexOf(a.binding.audience) - order.indexOf(b.binding.audience));
}

/** The message of a topic's value class: `AlertEventValue` -> `AlertEvent`. */
export function messageName(schemaName: string): string {
  return schemaName.replace(/Value$/, '');
}

/** The file of a schema under docs/asyncapi/schemas: `AlertEventValue` -> `alert-event.json`. */
export function schemaFileName(schemaName: string): string {
  return `${messageName(schemaName)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()}.json`;
}

/** The schema of a public topic's headers: its CloudEvents attributes, `ce_type` one of the event's types. */
function cloudEventHeadersSchema(eventTypes: readonly string[]): JsonSchema {
  const descriptions: Record<(typeof CLOUD_EVENT_HEADER_NAMES)[number], JsonSchema> = {
    ce_specversion: { const: '1.0', description: 'CloudEvents 1.0.' },
    ce_id: { type: 'string', format: 'uuid', description: 'The event\'s id: the same on every copy of the event (a re-publish after a fault included), so a consumer deduplicates on it.' },
    ce_source: { type: 'string', pattern: '^/projects/[0-9]+$', description: 'The project the event is about: `/projects/<project_id>`.' },
    ce_type: { enum: [...eventTypes], description: 'The event\'s `type`: what to route on without reading the value.' },
    ce_time: { type: 'string', format: 'date-time', description: 'The event\'s `occurred_at`.' },
    'content-type': { const: 'application/json', description: 'The value is the event as JSON (binary content mode).' },
  };
  return {
    type: 'object',
    description: 'CloudEvents attributes in Kafka\'s binary content mode: each a header, the value the event itself.',
    properties: { ...descriptions, [OUTBOX_ID_HEADER]: { type: 'string', description: 'The outbox row the record was published from.' } },
    required: [...CLOUD_EVENT_HEADER_NAMES],
  };
}

/** The values of a schema's `type` property (an event's types). */
function eventTypes(schema: JsonSchema, name: string): string[] {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const type = isSchema(properties.type) ? resolve(schema, properties.type) : undefined;
  if (!type || !Array.isArray(type.enum)) throw new Error(`${name}: a public topic's value needs a \`type\` of a few strings, its CloudEvents type`);
  return type.enum as string[];
}

/** The document's own copy of a message's schema: the standalone one with its `$defs` references made absolute within the document. */
function embedded(schema: JsonSchema, name: string): JsonSchema {
  const { $schema: _dialect, ...rest } = rebaseRefs(schema, DEFS_PREFIX, `#/components/schemas/${name}/schema/$defs/`);
  return { schemaFormat: SCHEMA_FORMAT, schema: { $schema: JSON_SCHEMA_DIALECT, ...rest } };
}

/** A fixed id for an example's headers, so the document is the same on every run. */
function exampleId(topic: string, index: number): string {
  const hex = Buffer.from(`${topic}#${index}`).toString('hex').padEnd(32, '0').slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function message(topic: DocumentedTopic, schema: JsonSchema): JsonSchema {
  const { binding, schemaName } = topic;
  const isPublic = binding.audience === 'public';
  return {
    name: messageName(schemaName),
    title: `A record of ${binding.topic}`,
    ...(typeof schema.description === 'string' ? { summary: schema.description } : {}),
    contentType: 'application/json',
    ...(isPublic ? { headers: cloudEventHeadersSchema(eventTypes(schema, schemaName)) } : {}),
    payload: { $ref: `#/components/schemas/${schemaName}` },
    bindings: { kafka: { ...(binding.key === null ? {} : { key: { type: 'string', description: binding.key } }), bindingVersion: KAFKA_BINDING_VERSION } },
    examples: binding.examples.map((example, index) => ({
      name: example.name,
      summary: example.summary,
      ...(isPublic ? { headers: { ...projectEventHeaders(example.value as ProjectEventAttributes, exampleId(binding.topic, index)), [OUTBOX_ID_HEADER]: String(1001 + index) } } : {}),
      payload: example.value,
    })),
  };
}

function channel(topic: DocumentedTopic): JsonSchema {
  const { binding } = topic;
  const who = binding.consumers.length > 0 ? ` Read by ${binding.consumers.join(' and ')}.` : '';
  return {
    address: binding.topic,
    title: binding.topic,
    summary: binding.summary,
    description: `${binding.audience === 'public' ? 'Public: other services may subscribe.' : binding.audience === 'internal' ? 'Internal: the services\' own traffic, no contract for anyone else.' : 'Dead letters.'} Written by ${binding.producer}.${who}${binding.key === null ? ' No key.' : ` Key: ${binding.key}`}`,
    messages: { [topic.id]: { $ref: `#/components/messages/${topic.id}` } },
    tags: [{ name: binding.audience }],
    bindings: {
      kafka: {
        topic: binding.topic,
        partitions: binding.partitions,
        topicConfiguration: {
          'cleanup.policy': [binding.compacted ? 'compact' : 'delete'],
          ...(binding.retentionMs === null ? {} : { 'retention.ms': binding.retentionMs }),
          'max.message.bytes': binding.maxMessageBytes,
        },
        bindingVersion: KAFKA_BINDING_VERSION,
      },
    },
  };
}

function operations(topic: DocumentedTopic): Record<string, JsonSchema> {
  const { binding } = topic;
  const messages = [{ $ref: `#/channels/${topic.id}/messages/${topic.id}` }];
  const send = { action: 'send', channel: { $ref: `#/channels/${topic.id}` }, summary: `${binding.producer} publishes to ${binding.topic}.`, messages };
  const receive = { action: 'receive', channel: { $ref: `#/channels/${topic.id}` }, summary: `${binding.consumers.join(' and ')} read ${binding.topic}.`, messages };
  return { [`send${topic.id}`]: send, ...(binding.consumers.length > 0 ? { [`receive${topic.id}`]: receive } : {}) };
}

export interface AsyncApiOptions {
  /** The document's version: the project's. */
  version: string;
}

/**
 * The AsyncAPI 3 document of every topic: one channel per topic (its Kafka layout as bindings) with
 * its message (key, CloudEvents headers on a public topic, examples), whose payload is its value
 * class's schema (draft 2020-12, one per class); the operations say who publishes and who reads. `schemas` are the message
 * schemas by class name (messageSchemas).
 */
export function asyncApiDocument(topics: readonly DocumentedTopic[], schemas: ReadonlyMap<string, JsonSchema>, options: AsyncApiOptions): JsonSchema {
  const schemaOf = (topic: DocumentedTopic) => {
    const schema = schemas.get(topic.schemaName);
    if (!schema) throw new Error(`No schema for ${topic.schemaName} (${topic.binding.topic})`);
    return schema;
  };
  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Alert ingestion events',
      version: options.version,
      description: [
        'The Kafka topics of the alert ingestion services. **Public** topics (`alerts.events.v1`, `incidents.events.v1`, `oncall.events.v1`) are',
        'for other services: every record carries CloudEvents headers (binary content mode), and their schemas change only compatibly (a field',
        'is added, optional; an event type is added): a breaking change is a new topic version. How to consume them: docs/consuming-events.md.',
        '**Internal** topics are the services\' own traffic, shown for operators. **Dead-letter** topics keep what could not be published or processed.',
      ].join(' '),
    },
    defaultContentType: 'application/json',
    servers: {
      local: { host: '127.0.0.1:9092', protocol: 'kafka', description: 'The broker `npm start` runs; a deployment\'s brokers are its KAFKA_BROKERS.' },
    },
    channels: Object.fromEntries(topics.map((topic) => [topic.id, channel(topic)])),
    operations: Object.fromEntries(topics.flatMap((topic) => Object.entries(operations(topic)))),
    components: {
      schemas: Object.fromEntries(topics.map((topic) => [topic.schemaName, embedded(schemaOf(topic), topic.schemaName)])),
      messages: Object.fromEntries(topics.map((topic) => [topic.id, message(topic, schemaOf(topic))])),
    },
  };
}
