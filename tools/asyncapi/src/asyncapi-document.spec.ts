import { AlertEvent, IncidentEvent, OncallEvent } from '@alert-ingestion/contracts';
import { ASYNCAPI_DOCUMENT_FILE, repositoryFile } from '@alert-ingestion/http';
import { EventSchemas } from '@alert-ingestion/testing';
import { Parser } from '@asyncapi/parser';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { breakingChanges, committedFiles, SCHEMAS_DIRECTORY } from './asyncapi-files';

// The committed files, as a consumer outside the repository reads them (`npm run asyncapi:check`,
// part of `npm test`, keeps them equal to what the code generates).
const documentFile = repositoryFile(ASYNCAPI_DOCUMENT_FILE, __dirname);
const root = dirname(dirname(dirname(documentFile)));
const document = JSON.parse(readFileSync(documentFile, 'utf8')) as {
  channels: Record<string, { address: string; tags: Array<{ name: string }>; messages: Record<string, { $ref: string }> }>;
  components: { messages: Record<string, { headers?: unknown; examples: Array<{ name: string; headers?: Record<string, string>; payload: { type?: string } }> }> };
};

type Example = { name: string; headers?: Record<string, string>; payload: { type?: string } };

/** Every channel with its message's examples. */
function channels(): Array<{ address: string; audience: string; examples: Example[] }> {
  return Object.values(document.channels).map((channel) => {
    const message = document.components.messages[Object.values(channel.messages)[0].$ref.split('/').pop()!];
    return { address: channel.address, audience: channel.tags[0].name, examples: message.examples };
  });
}

describe('the AsyncAPI document (docs/asyncapi)', () => {
  it('is valid for the AsyncAPI parser: no error, and every channel, operation and message resolved', async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(readFileSync(documentFile, 'utf8'));
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0).map((diagnostic) => `${diagnostic.path.join('.')}: ${diagnostic.message}`)).toEqual([]);
    expect(parsed?.channels().all().map((channel) => channel.address())).toEqual(Object.values(document.channels).map((channel) => channel.address));
    expect(parsed?.messages().all().every((message) => message.payload()?.schemaFormat() === 'application/schema+json;version=draft-2020-12')).toBe(true);
  });

  it('is refused by the parser when it is broken (a channel of an operation that is not there)', async () => {
    const broken = JSON.parse(readFileSync(documentFile, 'utf8')) as { asyncapi: string; operations: Record<string, { channel: { $ref: string } }> };
    Object.values(broken.operations)[0].channel.$ref = '#/channels/NoSuchTopic';
    const { diagnostics } = await new Parser().parse(broken);
    expect(diagnostics.some((diagnostic) => diagnostic.severity === 0)).toBe(true);
  });

  it('has every topic of the registry, public ones with the topics the contract promises', () => {
    expect(channels().filter((channel) => channel.audience === 'public').map((channel) => channel.address)).toEqual(['alerts.events.v1', 'incidents.events.v1', 'oncall.events.v1']);
    expect(channels().map((channel) => channel.address)).toEqual(expect.arrayContaining(['alerts.raw.v1', 'integrations.v1', 'alerts.events.v1.dlq', 'alerts.raw.v1.dlq']));
  });

  it('has an example of every public event type', () => {
    const typesOf = (address: string) => channels().find((channel) => channel.address === address)!.examples.map((example) => example.payload.type);
    expect(typesOf('alerts.events.v1').sort()).toEqual([...AlertEvent.ALERT_EVENT_TYPES].sort());
    expect(typesOf('incidents.events.v1').sort()).toEqual([...IncidentEvent.INCIDENT_EVENT_TYPES].sort());
    expect(typesOf('oncall.events.v1').sort()).toEqual([...OncallEvent.ONCALL_EVENT_TYPES].sort());
  });

  describe('every example', () => {
    const schemas = EventSchemas.load(documentFile);
    const examples = channels().flatMap((channel) => channel.examples.map((example) => [channel.address, example.name, example] as const));

    it.each(examples)('%s %s validates against its schema (closed) and, on a public topic, its headers against theirs', (address, _name, example) => {
      expect(schemas.problems(address, { value: JSON.stringify(example.payload), headers: example.headers })).toEqual([]);
    });

    it('fails validation with a field its schema lacks, a required field left out, or no CloudEvents headers', () => {
      const created = channels().find((channel) => channel.address === 'alerts.events.v1')!.examples[0];
      const withExtra = { ...created.payload, origin: 'monitoring' };
      expect(schemas.problems('alerts.events.v1', { value: JSON.stringify(withExtra), headers: created.headers })).toEqual(['value: must NOT have additional properties (origin)']);
      const { type: _type, ...withoutType } = created.payload;
      expect(schemas.problems('alerts.events.v1', { value: JSON.stringify(withoutType), headers: created.headers })).toEqual(["value: must have required property 'type'"]);
      expect(schemas.problems('alerts.events.v1', { value: JSON.stringify(created.payload), headers: {} })).toContain("headers: must have required property 'ce_id'");
    });
  });
});

describe('the compatibility check against the committed schemas', () => {
  const committed = committedFiles(root);
  const alertEventFile = join(SCHEMAS_DIRECTORY, 'alert-event.json');
  const changed = (change: (schema: { $defs: Record<string, { properties: Record<string, unknown>; required: string[] }> }) => void) => {
    const schema = JSON.parse(committed.get(alertEventFile)!);
    change(schema);
    return new Map([...committed, [alertEventFile, JSON.stringify(schema)]]);
  };

  it('passes the committed schemas themselves', () => {
    expect(breakingChanges(committed, committed)).toEqual([]);
  });

  it("fails a field removed from alerts.events.v1's alert, naming the file, the field and the rule", () => {
    const generated = changed((schema) => delete schema.$defs.AlertView.properties.title);
    expect(breakingChanges(committed, generated)).toEqual([
      `${alertEventFile}: alert.title: removed (rule: a field is never removed: consumers read it; to break it, publish a new topic version)`,
    ]);
  });

  it('passes a field added as optional', () => {
    const generated = changed((schema) => (schema.$defs.AlertView.properties.runbook_url = { type: ['string', 'null'] }));
    expect(breakingChanges(committed, generated)).toEqual([]);
  });
});
