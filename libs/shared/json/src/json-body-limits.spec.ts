import { JsonBodyLimits } from './json-body-limits';

// The receiver's limits (CONTRACT.md "Receiving alerts"; MAX_ALERT_BODY_BYTES and MAX_ALERT_NESTING_DEPTH of libs/shared/contracts).
const MAX_ALERT_BODY_BYTES = 1_048_576;
const MAX_ALERT_NESTING_DEPTH = 100;
const ALERT_LIMITS = { maxBytes: MAX_ALERT_BODY_BYTES, maxDepth: MAX_ALERT_NESTING_DEPTH };

function check(text: string, chunkSize = text.length || 1): ReturnType<JsonBodyLimits['end']> {
  const limits = new JsonBodyLimits(ALERT_LIMITS);
  const bytes = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    const violation = limits.write(bytes.subarray(offset, offset + chunkSize));
    if (violation) return violation;
  }
  return limits.end();
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JsonBodyLimits', () => {
  it('accepts objects and arrays, with leading whitespace', () => {
    expect(check('{"title":"x"}')).toBeNull();
    expect(check(' \r\n\t[{"a":1},{"b":[1,2,{"c":null}]}]')).toBeNull();
  });

  it('refuses a scalar, an empty body and a byte-order mark at the top level', () => {
    expect(check('"text"')).toEqual({ kind: 'not_object_or_array' });
    expect(check('42')).toEqual({ kind: 'not_object_or_array' });
    expect(check('null')).toEqual({ kind: 'not_object_or_array' });
    expect(check('')).toEqual({ kind: 'not_object_or_array' });
    expect(check('   \n')).toEqual({ kind: 'not_object_or_array' });
    expect(check('\ufeff{}')).toEqual({ kind: 'not_object_or_array' });
  });

  it('accepts exactly 100 levels and refuses 101', () => {
    expect(check(nested(MAX_ALERT_NESTING_DEPTH))).toBeNull();
    expect(check(nested(MAX_ALERT_NESTING_DEPTH + 1))).toEqual({ kind: 'too_deep', maxDepth: 100 });
    const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    expect(check(objects(100))).toBeNull();
    expect(check(objects(101))).toEqual({ kind: 'too_deep', maxDepth: 100 });
  });

  it('counts depth, not the number of containers', () => {
    const wide = '[' + Array.from({ length: 500 }, () => nested(50)).join(',') + ']';
    expect(check(wide)).toBeNull();
  });

  it('ignores brackets inside strings, including after escaped quotes and backslashes', () => {
    const text = JSON.stringify({ title: '['.repeat(500), note: 'a \\" [[[ \\\\', more: '\\"{{{{' });
    expect(check(text)).toBeNull();
    // Object + array + 98 = 100 levels; the escaped backslash must not swallow the closing quote.
    expect(check(`{"a":"\\\\","b":[${nested(98)}]}`)).toBeNull();
    expect(check(`{"a":"\\\\","b":[${nested(99)}]}`)).toEqual({ kind: 'too_deep', maxDepth: 100 });
  });

  it('gives the same answer whatever the chunking', () => {
    // The outer object is level 1.
    const deep = `{"x":"]]]\\"[[","n":${nested(100)}}`;
    expect(check(deep, 1)).toEqual({ kind: 'too_deep', maxDepth: 100 });
    expect(check(deep, 3)).toEqual({ kind: 'too_deep', maxDepth: 100 });
    const fine = `{"x":"]]]\\"[[","n":${nested(99)}}`;
    expect(check(fine, 1)).toBeNull();
    expect(check(fine, 7)).toBeNull();
  });

  it('accepts a body of exactly 1 MiB and refuses one byte more, as soon as it arrives', () => {
    const exactly = `{"p":"${'x'.repeat(MAX_ALERT_BODY_BYTES - 8)}"}`;
    expect(Buffer.byteLength(exactly)).toBe(MAX_ALERT_BODY_BYTES);
    expect(check(exactly, 64 * 1024)).toBeNull();

    const limits = new JsonBodyLimits(ALERT_LIMITS);
    expect(limits.write(Buffer.from(exactly))).toBeNull();
    expect(limits.write(Buffer.from(' '))).toEqual({ kind: 'too_large', maxBytes: MAX_ALERT_BODY_BYTES });
    // The violation sticks, so a caller that keeps writing cannot slip past it.
    expect(limits.write(Buffer.from(' '))).toEqual({ kind: 'too_large', maxBytes: MAX_ALERT_BODY_BYTES });
    expect(limits.end()).toEqual({ kind: 'too_large', maxBytes: MAX_ALERT_BODY_BYTES });
  });

  it('counts multi-byte characters by their UTF-8 bytes', () => {
    const text = '{"é":"€"}'; // 9 characters, 12 bytes
    expect(new JsonBodyLimits({ maxBytes: 12, maxDepth: 5 }).write(Buffer.from(text))).toBeNull();
    expect(new JsonBodyLimits({ maxBytes: 11, maxDepth: 5 }).write(Buffer.from(text))).toEqual({ kind: 'too_large', maxBytes: 11 });
  });

  it('honours custom limits', () => {
    const limits = new JsonBodyLimits({ maxBytes: 8, maxDepth: 2 });
    expect(limits.write(Buffer.from('[[1]]'))).toBeNull();
    expect(limits.write(Buffer.from('   '))).toBeNull();
    expect(limits.receivedBytes).toBe(8);
    expect(limits.write(Buffer.from(' '))).toEqual({ kind: 'too_large', maxBytes: 8 });
    expect(new JsonBodyLimits({ maxBytes: 100, maxDepth: 2 }).write(Buffer.from('[[[1]]]'))).toEqual({ kind: 'too_deep', maxDepth: 2 });
  });
});
