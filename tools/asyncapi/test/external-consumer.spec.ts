import { ServiceStack, StackProject, testKafka } from '@alert-ingestion/testing';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Consumer, IHeaders, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// A consumer as another team would write it, in another repository: it knows the published files
// (docs/asyncapi, as committed) and the topics, nothing of this code base. The stack, driven through
// its HTTP API, is the producer.
const ASYNCAPI = join(__dirname, '..', '..', '..', 'docs', 'asyncapi');

interface PublicTopic {
  address: string;
  value: ValidateFunction;
  headers: ValidateFunction;
  /** The event types the document lists for `ce_type`. */
  types: string[];
}

interface Consumed {
  topic: string;
  key: string | null;
  headers: Record<string, string>;
  value: unknown;
  problems: string[];
}

/** The public topics of the document: each message's schema file (its payload's title) and its headers' schema. */
function publicTopics(): PublicTopic[] {
  const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  const files = readdirSync(join(ASYNCAPI, 'schemas')).map((file) => JSON.parse(readFileSync(join(ASYNCAPI, 'schemas', file), 'utf8')) as { title: string });
  const document = JSON.parse(readFileSync(join(ASYNCAPI, 'asyncapi.json'), 'utf8')) as {
    channels: Record<string, { address: string; tags: Array<{ name: string }>; messages: Record<string, { $ref: string }> }>;
    components: { messages: Record<string, { payload: { $ref: string }; headers: { properties: { ce_type: { enum: string[] } } } }> };
  };
  return Object.values(document.channels)
    .filter((channel) => channel.tags.some((tag) => tag.name === 'public'))
    .map((channel) => {
      const message = document.components.messages[Object.values(channel.messages)[0].$ref.split('/').pop()!];
      const schema = files.find((file) => file.title === message.payload.$ref.split('/').pop());
      if (!schema) throw new Error(`no schema file for ${channel.address}`);
      return { address: channel.address, value: ajv.compile(schema), headers: ajv.compile(message.headers), types: message.headers.properties.ce_type.enum };
    });
}

function headersOf(headers: IHeaders | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name, String(value)]));
}

describe('a consumer outside the repository, with only the published schemas and the topics', () => {
  const topics = publicTopics();
  let stack: ServiceStack;
  let consumer: Consumer;
  const consumed: Consumed[] = [];
  let project: StackProject;

  /** What reached the consumer for this project, once per ce_id (its deduplication). */
  const events = () => [...new Map(consumed.filter((record) => record.headers.ce_source === `/projects/${project.id}`).map((record) => [record.headers.ce_id, record])).values()];
  const typesSeen = () => new Set(events().map((record) => record.headers.ce_type));

  async function until(types: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!types.every((type) => typesSeen().has(type))) {
      if (Date.now() > deadline) throw new Error(`saw ${[...typesSeen()].join(', ')}; waited for ${types.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    stack = await ServiceStack.start({ processor: { ONCALL_HANDOFF_CHECK_MS: '200' } });
    const prefix = stack.topics.prefix;
    consumer = testKafka({ logLevel: logLevel.NOTHING }).consumer({ groupId: `${prefix}outside-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 50 });
    await consumer.connect();
    await consumer.subscribe({ topics: topics.map((topic) => `${prefix}${topic.address}`), fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic: name, message }) => {
        const topic = topics.find((candidate) => `${prefix}${candidate.address}` === name)!;
        const headers = headersOf(message.headers);
        const value: unknown = JSON.parse(message.value!.toString());
        const problems = [
          ...(topic.value(value) ? [] : (topic.value.errors ?? []).map((error) => `value${error.instancePath}: ${error.message}`)),
          ...(topic.headers(headers) ? [] : (topic.headers.errors ?? []).map((error) => `headers${error.instancePath}: ${error.message}`)),
          ...(headers.ce_type === (value as { type?: string }).type ? [] : [`ce_type ${headers.ce_type} is not the value's type`]),
        ];
        consumed.push({ topic: topic.address, key: message.key?.toString() ?? null, headers, value, problems });
      },
    });
    project = await stack.createProject('premium', { pathPrefix: 'outside-consumer' });
  }, 240_000);

  afterAll(async () => {
    await consumer?.disconnect();
    await stack?.stop();
  }, 60_000);

  it('reads every public event type a scenario through the real stack produces, each valid against its schema and headers', async () => {
    const api = <T>(method: string, path: string, body?: unknown) => stack.processorApi<T>(method, `/projects/${project.id}${path}`, body);
    const developer = await stack.management<{ id: number }>('POST', '/users', { username: `outside-${project.id}` });
    await stack.management('POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 'maintainer' });

    // Alerts: created, grouped, acknowledged, assigned, then resolved with their incident closed.
    const [iid] = await stack.notify(project.integration, { title: 'Disk full', fingerprint: 'outside-disk', hosts: ['db-1'] });
    await stack.notify(project.integration, { title: 'Disk full', fingerprint: 'outside-disk', hosts: ['db-1'] });
    await api('PUT', `/alerts/${iid}`, { status: 'acknowledged' });
    await api('PUT', `/alerts/${iid}/assignees`, { assignee_ids: [developer.id] });
    const incident = await api<{ iid: number }>('POST', '/incidents', { title: 'Storage' });
    await api('POST', `/incidents/${incident.iid}/alerts`, { alert_iid: iid });
    await api('PUT', `/incidents/${incident.iid}`, { status: 'closed' });
    await api('PUT', `/incidents/${incident.iid}`, { status: 'open' });
    // On call: a daily rotation that began yesterday comes into force.
    const schedule = await api<{ id: number }>('POST', '/oncall_schedules', { name: 'Outside', time_zone: 'UTC' });
    await api('POST', `/oncall_schedules/${schedule.id}/rotations`, {
      name: 'Days',
      starts_at: `${Temporal.Now.plainDateISO('UTC').subtract({ days: 1 })}T00:00`,
      shift_length: 1,
      shift_length_unit: 'days',
      participant_ids: [developer.id],
    });

    const everyType = topics.flatMap((topic) => topic.types);
    await until(everyType);
    expect([...typesSeen()].sort()).toEqual([...everyType].sort());
    expect(events().filter((record) => record.problems.length > 0).map((record) => [record.topic, record.headers.ce_type, record.problems])).toEqual([]);
    // Routed by their headers alone: each type on its topic, every id distinct, time and source from the event.
    for (const record of events()) {
      const value = record.value as { occurred_at: string; project_id: number };
      expect(topics.find((topic) => topic.address === record.topic)!.types).toContain(record.headers.ce_type);
      expect([record.headers.ce_time, record.headers.ce_source]).toEqual([value.occurred_at, `/projects/${value.project_id}`]);
    }
    expect(new Set(events().map((record) => record.headers.ce_id)).size).toBe(events().length);
  }, 120_000);
});
