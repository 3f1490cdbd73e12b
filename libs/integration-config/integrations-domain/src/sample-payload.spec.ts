import { violationOf } from './integration-rule-violation.testing';
import { isDateTimeString, jsonNestingDepth, listPayloadAlertFields, parseJsonText, parseSamplePayload } from './sample-payload';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonNestingDepth', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonNestingDepth('1')).toBe(0);
    expect(jsonNestingDepth('{}')).toBe(1);
    expect(jsonNestingDepth('{"a":[{"b":"[[[{"}]}')).toBe(3);
    expect(jsonNestingDepth('{"a":"x\\"[[["}')).toBe(1);
    expect(jsonNestingDepth(nested(5000))).toBe(5000);
  });
});

describe('parseJsonText', () => {
  it('parses valid JSON', () => {
    expect(parseJsonText('{"title":"x"}', 'test payload')).toEqual({ ok: true, value: { title: 'x' } });
  });

  it('says why a text is refused, naming what it is', () => {
    const invalid = parseJsonText('{"title":', 'test payload');
    expect(invalid).toMatchObject({ ok: false, problem: 'invalid_json' });
    expect(!invalid.ok && invalid.message).toMatch(/^The test payload is not valid JSON/);
    expect(parseJsonText(nested(101), 'sample payload')).toMatchObject({ ok: false, problem: 'too_deep' });
    expect(parseJsonText(nested(100), 'sample payload').ok).toBe(true);
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
    expect(parseJsonText(big, 'sample payload')).toMatchObject({ ok: false, problem: 'too_large' });
  });
});

describe('parseSamplePayload', () => {
  it('accepts a JSON object', () => {
    expect(parseSamplePayload('{"a":1}')).toEqual({ a: 1 });
  });

  it.each([['not json'], ['[{"a":1}]'], ['"text"'], ['null']])('refuses %s with a 400 violation', (text) => {
    const error = violationOf(() => parseSamplePayload(text));
    expect(error.kind).toBe('invalid');
    expect(error.code).toBe('invalid_sample_payload');
  });
});

describe('isDateTimeString', () => {
  it('recognises ISO 8601 dates and timestamps only', () => {
    expect(isDateTimeString('2026-11-21T10:00:00Z')).toBe(true);
    expect(isDateTimeString('2026-11-21T10:00:00.123+02:00')).toBe(true);
    expect(isDateTimeString('2026-11-21')).toBe(true);
    expect(isDateTimeString('2026-13-41T10:00:00Z')).toBe(false);
    expect(isDateTimeString('yesterday')).toBe(false);
    expect(isDateTimeString('12')).toBe(false);
  });
});

describe('listPayloadAlertFields ("Parse payload for custom mapping")', () => {
  it('lists every leaf and array in document order, with readable labels and types', () => {
    const sample = parseSamplePayload(
      JSON.stringify({
        title: 'Disk full',
        started: '2026-11-21T10:00:00Z',
        ended: null,
        count: 3,
        firing: true,
        labels: { host: 'db-1', tags: ['a', { zone: 'eu' }] },
        empty: {},
      }),
    );
    expect(listPayloadAlertFields(sample)).toEqual([
      { path: ['title'], label: 'title', type: 'string' },
      { path: ['started'], label: 'started', type: 'datetime' },
      { path: ['ended'], label: 'ended', type: 'string' },
      { path: ['count'], label: 'count', type: 'number' },
      { path: ['firing'], label: 'firing', type: 'boolean' },
      { path: ['labels', 'host'], label: 'labels.host', type: 'string' },
      { path: ['labels', 'tags'], label: 'labels.tags', type: 'array' },
      { path: ['labels', 'tags', 0], label: 'labels.tags[0]', type: 'string' },
      { path: ['labels', 'tags', 1, 'zone'], label: 'labels.tags[1].zone', type: 'string' },
    ]);
  });

  it('handles the deepest allowed sample without recursion', () => {
    let text = '"leaf"';
    for (let i = 0; i < 99; i++) text = `{"k":${text}}`;
    text = `{"root":${text}}`;
    const fields = listPayloadAlertFields(parseSamplePayload(text));
    expect(fields).toHaveLength(1);
    expect(fields[0].path).toHaveLength(100);
  });
});

