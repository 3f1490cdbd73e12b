import { describe, expect, it } from 'vitest';
import { checkJsonText, checkTestPayload, findJsonSyntaxError } from './json-text';

const problemAt = (text: string) => {
  const error = findJsonSyntaxError(text);
  return error && { at: `${error.line}:${error.column}`, problem: error.problem };
};

describe('checkJsonText', () => {
  it('accepts JSON and says where invalid JSON breaks, in words, without the engine\'s text', () => {
    expect(checkJsonText('{"title": "x"}')).toEqual({ ok: true, value: { title: 'x' } });
    const broken = checkJsonText('{\n  "title": "x",\n}');
    expect(broken).toEqual({ ok: false, message: 'Invalid JSON: a comma is followed by no property: remove the comma before } (line 3, column 1).' });
    for (const text of ['{"a": }', '{"title": ', "{'a': 1}", '[1, 2', '{"a" 1}', 'nul', '{"a": 01}']) {
      const check = checkJsonText(text);
      expect(check.ok).toBe(false);
      if (check.ok) continue;
      expect(check.message).toMatch(/^Invalid JSON: .+ \(line \d+, column \d+\)\.$/);
      // Nothing of V8's, Firefox's or Safari's own wording ("Unexpected token", "position", "JSON.parse").
      expect(check.message).not.toMatch(/unexpected token|position|JSON\.parse|SyntaxError/i);
    }
    expect(checkJsonText('  ')).toEqual({ ok: false, message: 'Enter a JSON payload.' });
  });

  it('requires an object for a sample payload, naming what was given', () => {
    expect(checkJsonText('[1, 2]', { object: true })).toEqual({
      ok: false,
      message: 'The payload must be a JSON object ({ ... }): one alert as the monitoring tool sends it, not an array.',
    });
  });
});

describe('findJsonSyntaxError', () => {
  it('names the line and column where the text breaks, and why', () => {
    expect(problemAt('{"a": 1}')).toBeNull();
    expect(problemAt('[{"a": [1, {"b": null}]}, true, false, -1.5e3, "\\u00e9\\n"]')).toBeNull();
    expect(problemAt('{"a": }')).toEqual({ at: '1:7', problem: 'a value is missing before “}” (an object, an array, a "string", a number, true, false or null)' });
    expect(problemAt('{"a": 1\n "b": 2}')).toEqual({ at: '2:2', problem: 'a comma or } is missing after the value, before “"”' });
    expect(problemAt('[1 2]')).toEqual({ at: '1:4', problem: 'a comma or ] is missing after the element, before “2”' });
    expect(problemAt('[1,]')).toEqual({ at: '1:4', problem: 'a comma is followed by no element: remove the comma before ]' });
    expect(problemAt('{"a" 1}')).toEqual({ at: '1:6', problem: 'a colon (:) is missing after the property name, before “1”' });
    expect(problemAt('{a: 1}')).toEqual({ at: '1:2', problem: 'a property name must be in double quotes, but “a” is found' });
    expect(problemAt("{'a': 1}")).toEqual({ at: '1:2', problem: 'property names take double quotes ("), not single quotes' });
    expect(problemAt('{"a": \'x\'}')).toEqual({ at: '1:7', problem: 'strings take double quotes ("), not single quotes' });
    expect(problemAt('{"a": 1]')).toEqual({ at: '1:8', problem: '] does not match the object it closes (a } is expected)' });
    expect(problemAt('{"a": True}')).toEqual({ at: '1:7', problem: 'True is not a JSON value: write text in double quotes, or use true, false or null' });
    expect(problemAt('{"a": 01}')).toEqual({ at: '1:7', problem: '01 is not a JSON number (as 12, -3.5 or 1e6, without leading zeros or a + sign)' });
    expect(problemAt('{"a": 1} x')).toEqual({ at: '1:10', problem: 'there is more text after the end of the JSON value' });
    expect(problemAt('{"a": "x\\q"}')).toMatchObject({ at: '1:9', problem: expect.stringMatching(/^\\q is not an escape JSON knows/) });
    expect(problemAt('{"a": "two\nlines"}')).toMatchObject({ at: '1:11', problem: expect.stringMatching(/^a string holds a line break or tab/) });
  });

  it('says what is missing when the text ends too early, where it ends', () => {
    expect(problemAt('{"title": ')).toEqual({ at: '1:11', problem: 'the text ends where a value should be; still to close: }' });
    expect(problemAt('{\n  "a": [1, 2\n')).toEqual({ at: '3:1', problem: 'the text ends before the JSON is complete; still to close: ] }' });
    expect(problemAt('{"a": 1,')).toEqual({ at: '1:9', problem: 'the text ends after a comma, where another property should follow; still to close: }' });
    expect(problemAt('{"a": "x')).toEqual({ at: '1:9', problem: 'the string that starts at line 1, column 7 is not closed: its closing " is missing' });
  });

  it('counts lines across \\n, \\r\\n and \\r, and handles deep nesting without recursion', () => {
    expect(problemAt('{\r\n"a": 1\r\n,}')).toEqual({ at: '3:2', problem: 'a comma is followed by no property: remove the comma before }' });
    expect(problemAt('[\r1,]')).toEqual({ at: '2:3', problem: 'a comma is followed by no element: remove the comma before ]' });
    expect(problemAt(`${'['.repeat(100_000)}1${']'.repeat(99_999)}`)).toEqual({ at: '1:200001', problem: 'the text ends before the JSON is complete; still to close: ]' });
  });
});

describe('checkTestPayload', () => {
  it('takes an alert object, an array of them or an Alertmanager body, and says how many alerts it holds', () => {
    expect(checkTestPayload('{"title": "x"}')).toMatchObject({ ok: true, valid: 'Valid JSON: one alert.' });
    expect(checkTestPayload('[{"title": "a"}, {"title": "b"}]')).toMatchObject({ ok: true, valid: 'Valid JSON: 2 alerts.' });
    expect(checkTestPayload('{"version": "4", "groupKey": "g", "alerts": [{"labels": {}}]}')).toMatchObject({
      ok: true,
      valid: 'Valid JSON: an Alertmanager body of one alert.',
    });
  });

  it('refuses what holds no alert or is not one, saying so before anything is sent', () => {
    expect(checkTestPayload('[]')).toEqual({ ok: false, message: 'An empty array holds no alert: put one or more alert objects in it, as [{"title": "Disk full"}].' });
    expect(checkTestPayload('"Disk full"')).toEqual({
      ok: false,
      message: 'A JSON string is not an alert: the test payload must be a JSON object (one alert) or an array of objects.',
    });
    expect(checkTestPayload('42')).toEqual({ ok: false, message: 'A number is not an alert: the test payload must be a JSON object (one alert) or an array of objects.' });
    expect(checkTestPayload('null')).toMatchObject({ ok: false, message: expect.stringMatching(/^Null is not an alert/) });
    expect(checkTestPayload('[{"title": "a"}, "b"]')).toEqual({
      ok: false,
      message: 'Element 2 of the array is a JSON string, not an alert: each element must be a JSON object.',
    });
    expect(checkTestPayload('{"version": "4", "groupKey": "g", "alerts": []}')).toEqual({
      ok: false,
      message: 'This Alertmanager body holds no alert: its "alerts" list is empty.',
    });
    expect(checkTestPayload('{"title": ')).toMatchObject({ ok: false, message: expect.stringMatching(/^Invalid JSON: /) });
  });
});
