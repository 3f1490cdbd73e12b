import { JsonSchema } from './json-schema';
import { describeIncompatibility, incompatibilities } from './schema-compatibility';

/** A small event in the shape the generator writes: a root object, a nested type in $defs, a nullable reference. */
function event(change: (schema: { root: JsonSchema; alert: JsonSchema }) => void = () => undefined): JsonSchema {
  const alert: JsonSchema = {
    type: 'object',
    properties: {
      iid: { type: 'integer' },
      title: { type: 'string' },
      ended_at: { type: ['string', 'null'], format: 'date-time' },
      hosts: { type: 'array', items: { type: 'string' } },
      assignees: { type: 'array', items: { $ref: '#/$defs/Assignee' } },
    },
    required: ['iid', 'title', 'ended_at', 'hosts', 'assignees'],
  };
  const root: JsonSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['alert.created', 'alert.resolved'] },
      alert: { $ref: '#/$defs/Alert' },
      cause: { anyOf: [{ $ref: '#/$defs/Cause' }, { type: 'null' }] },
    },
    required: ['type', 'alert'],
    $defs: {
      Alert: alert,
      Assignee: { type: 'object', properties: { id: { type: 'integer' }, username: { type: 'string' } }, required: ['id', 'username'] },
      Cause: { type: 'object', properties: { user_id: { type: 'integer' } } },
    },
  };
  change({ root, alert });
  return root;
}

const defs = (schema: JsonSchema) => schema.$defs as Record<string, JsonSchema>;
const props = (schema: JsonSchema) => schema.properties as Record<string, JsonSchema>;

describe('incompatibilities', () => {
  it('finds none between a schema and itself, nor when only descriptions change', () => {
    expect(incompatibilities(event(), event())).toEqual([]);
    expect(incompatibilities(event(), event(({ alert }) => (props(alert).title.description = 'The title.')))).toEqual([]);
  });

  it('passes an added optional field, at the root and nested, and an added value', () => {
    const grown = event(({ root, alert }) => {
      props(root).origin = { type: 'string' };
      props(alert).runbook_url = { type: ['string', 'null'] };
      props(defs(root).Assignee).name = { type: 'string' };
      props(root).type.enum = ['alert.created', 'alert.resolved', 'alert.escalated'];
    });
    expect(incompatibilities(event(), grown)).toEqual([]);
  });

  it('fails a removed field, naming it and the rule', () => {
    const found = incompatibilities(
      event(),
      event(({ alert }) => delete props(alert).title),
    );
    expect(found).toEqual([{ path: 'alert.title', rule: 'removed' }]);
    expect(describeIncompatibility(found[0])).toBe(
      'alert.title: removed (rule: a field is never removed: consumers read it; to break it, publish a new topic version)',
    );
  });

  it('fails a field removed from a type in $defs, wherever it is used', () => {
    const found = incompatibilities(
      event(),
      event(({ root }) => delete props(defs(root).Assignee).username),
    );
    expect(found).toEqual([{ path: 'alert.assignees[].username', rule: 'removed' }]);
  });

  it('fails a retyped field: another type, no longer null, another format, an enum opened to any string', () => {
    expect(incompatibilities(event(), event(({ alert }) => (props(alert).iid = { type: 'string' })))).toEqual([{ path: 'alert.iid', rule: 'retyped' }]);
    expect(incompatibilities(event(), event(({ alert }) => (props(alert).ended_at = { type: 'string', format: 'date-time' })))).toEqual([
      { path: 'alert.ended_at', rule: 'retyped' },
    ]);
    expect(incompatibilities(event(), event(({ alert }) => (props(alert).ended_at.format = 'date')))).toEqual([{ path: 'alert.ended_at', rule: 'retyped' }]);
    expect(incompatibilities(event(), event(({ root }) => (props(root).type = { type: 'string' })))).toEqual([{ path: 'type', rule: 'retyped' }]);
    expect(incompatibilities(event(), event(({ alert }) => (props(alert).hosts = { type: 'string' })))).toEqual([{ path: 'alert.hosts', rule: 'retyped' }]);
  });

  it('fails an optional field made required, and a new field that is required', () => {
    expect(incompatibilities(event(), event(({ root }) => (root.required = ['type', 'alert', 'cause'])))).toEqual([{ path: 'cause', rule: 'made-required' }]);
    expect(
      incompatibilities(
        event(),
        event(({ root }) => {
          props(root).origin = { type: 'string' };
          root.required = ['type', 'alert', 'origin'];
        }),
      ),
    ).toEqual([{ path: 'origin', rule: 'added-required' }]);
  });

  it('fails a required field made optional, and a value no longer allowed', () => {
    expect(incompatibilities(event(), event(({ alert }) => (alert.required = ['iid', 'ended_at', 'hosts', 'assignees'])))).toEqual([
      { path: 'alert.title', rule: 'made-optional' },
    ]);
    expect(incompatibilities(event(), event(({ root }) => (props(root).type.enum = ['alert.created'])))).toEqual([
      { path: 'type = "alert.resolved"', rule: 'value-removed' },
    ]);
  });

  it('follows a variant of a union: a field removed from the type a nullable reference names', () => {
    const found = incompatibilities(
      event(),
      event(({ root }) => delete props(defs(root).Cause).user_id),
    );
    expect(found).toEqual([{ path: 'cause.user_id', rule: 'removed' }]);
  });

  it('names every break of one change, each once', () => {
    const found = incompatibilities(
      event(),
      event(({ alert }) => {
        delete props(alert).title;
        props(alert).iid = { type: 'number' };
      }),
    );
    expect(found.map(describeIncompatibility)).toEqual([
      'alert.iid: retyped (rule: a field keeps its type: consumers parse it as it was; to break it, publish a new topic version)',
      'alert.title: removed (rule: a field is never removed: consumers read it; to break it, publish a new topic version)',
    ]);
  });
});
