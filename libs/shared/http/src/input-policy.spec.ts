import { fieldPath, unstorableRequestText } from './input-policy';

const check = (request: { path?: string; query?: unknown; body?: unknown }) => {
  const error = unstorableRequestText({ path: '/api/v4/projects', query: {}, body: undefined, ...request });
  return error && { status: error.status, error: error.code, message: error.message };
};

describe('the input policy', () => {
  it('names a field as a client writes it', () => {
    expect(fieldPath(['name'])).toBe('name');
    expect(fieldPath(['payload_field_mapping', 0, 'path', 1])).toBe('payload_field_mapping[0].path[1]');
    expect(fieldPath([0, 'title'])).toBe('[0].title');
  });

  it('refuses NUL in a query parameter, naming it', () => {
    expect(check({ query: { page: '1', search: 'a\u0000b' } })).toEqual({
      status: 400,
      error: 'invalid_text',
      message: 'The query parameter search contains a NUL character (U+0000), which text may not contain.',
    });
    expect(check({ query: { status: ['open', '\u0000'] } })?.message).toBe('The query parameter status[1] contains a NUL character (U+0000), which text may not contain.');
  });

  it('refuses NUL and unpaired surrogates in a body field or key, naming it', () => {
    expect(check({ body: { name: 'n\uDC00x' } })?.message).toBe('The field name contains an unpaired UTF-16 surrogate (U+DC00), which text may not contain.');
    expect(check({ body: { mapping: [{ path: ['a', '\u0000'] }] } })?.message).toBe('The field mapping[0].path[1] contains a NUL character (U+0000), which text may not contain.');
    expect(check({ body: { 'na\u0000me': 'x' } })?.message).toBe('The name of a field contains a NUL character (U+0000), which text may not contain.');
    expect(check({ body: { outer: { 'k\uD800': 1 } } })?.message).toBe('A key of the field outer contains an unpaired UTF-16 surrogate (U+D800), which text may not contain.');
    expect(check({ body: 'stages:\u0000' })?.message).toBe('The request body contains a NUL character (U+0000), which text may not contain.');
  });

  it('refuses NUL in a path segment, and leaves invalid escapes to routing', () => {
    expect(check({ path: '/api/v4/deprecations%00' })?.message).toBe('The path contains a NUL character (U+0000), which text may not contain.');
    expect(check({ path: '/api/v4/%E0%A4%A' })).toBeNull();
  });

  it('accepts every other text: paired surrogates, U+FFFD, look-alike escapes, numbers and booleans', () => {
    expect(check({ path: '/api/v4/projects/%F0%9F%98%80', query: { search: '😀 \uFFFD \\u0000' }, body: { n: 1, b: true, z: null, list: ['ok'] } })).toBeNull();
  });
});
