import { violationOf } from './integration-rule-violation.testing';
import { validatePayloadFieldMapping } from './payload-field-mapping';
import { parseSamplePayload } from './sample-payload';

const sample = parseSamplePayload(
  JSON.stringify({
    summary: 'CPU high',
    startsAt: '2026-11-21T10:00:00Z',
    endsAt: null,
    labels: { instance: 'web-1', severity: 'High' },
    targets: ['web-1', 'web-2'],
    count: 4,
  }),
);

function problem(mapping: unknown, against: typeof sample | null = sample): string {
  const violation = violationOf(() => validatePayloadFieldMapping(mapping, against));
  expect(violation.kind).toBe('invalid');
  return violation.message;
}

describe('validatePayloadFieldMapping', () => {
  it('accepts a mapping whose paths exist in the sample payload with accepted types', () => {
    const mapping = [
      { field_name: 'title', path: ['summary'], type: 'string' },
      { field_name: 'start_time', path: ['startsAt'], type: 'datetime' },
      { field_name: 'end_time', path: ['endsAt'], type: 'datetime' },
      { field_name: 'hosts', path: ['targets'], type: 'array' },
      { field_name: 'fingerprint', path: ['labels', 'instance'], type: 'string' },
      { field_name: 'severity', path: ['labels', 'severity'], type: 'string' },
      { field_name: 'service', path: ['targets', 1], type: 'string' },
    ];
    expect(validatePayloadFieldMapping(mapping, sample)).toEqual(mapping);
  });

  it('accepts an empty mapping without a sample payload', () => {
    expect(validatePayloadFieldMapping([], null)).toEqual([]);
  });

  it('needs a sample payload for a non-empty mapping', () => {
    expect(problem([{ field_name: 'title', path: ['summary'], type: 'string' }], null)).toMatch(/needs a sample payload/);
  });

  it('refuses a path that does not exist, or that points at an object', () => {
    expect(problem([{ field_name: 'title', path: ['labels', 'missing'], type: 'string' }])).toMatch(/labels\.missing does not exist/);
    expect(problem([{ field_name: 'title', path: ['targets', 5], type: 'string' }])).toMatch(/does not exist/);
    expect(problem([{ field_name: 'title', path: ['labels'], type: 'string' }])).toMatch(/points at an object/);
    expect(problem([{ field_name: 'title', path: [], type: 'string' }])).toMatch(/non-empty array/);
    expect(problem([{ field_name: 'title', path: ['targets', -1], type: 'string' }])).toMatch(/non-empty array/);
  });

  it('refuses a type the platform alert key does not accept', () => {
    expect(problem([{ field_name: 'start_time', path: ['summary'], type: 'string' }])).toMatch(/start_time accepts datetime, not string/);
    expect(problem([{ field_name: 'title', path: ['targets'], type: 'array' }])).toMatch(/title accepts string, not array/);
    expect(problem([{ field_name: 'hosts', path: ['count'], type: 'number' }])).toMatch(/hosts accepts string or array/);
  });

  it("refuses a type the sample payload's value does not have", () => {
    expect(problem([{ field_name: 'start_time', path: ['summary'], type: 'datetime' }])).toMatch(/is not a datetime/);
    expect(problem([{ field_name: 'hosts', path: ['summary'], type: 'array' }])).toMatch(/is not a array/);
    expect(problem([{ field_name: 'title', path: ['count'], type: 'string' }])).toMatch(/is not a string/);
  });

  it('refuses unknown platform alert keys, unknown types, duplicates and malformed entries', () => {
    expect(problem([{ field_name: 'priority', path: ['summary'], type: 'string' }])).toMatch(/field_name must be one of/);
    expect(problem([{ field_name: 'title', path: ['summary'], type: 'text' }])).toMatch(/type must be one of/);
    expect(
      problem([
        { field_name: 'title', path: ['summary'], type: 'string' },
        { field_name: 'title', path: ['labels', 'instance'], type: 'string' },
      ]),
    ).toMatch(/title is mapped more than once/);
    expect(problem(['title'])).toMatch(/must be an object/);
    expect(problem([{ field_name: 'title', path: ['summary'], type: 'string', extra: 1 }])).toMatch(/unknown properties: extra/);
    expect(problem({ title: ['summary'] })).toMatch(/must be an array/);
  });
});
