import { storableText } from './storable-text';

describe('storableText', () => {
  it('writes NUL and unpaired surrogates as their JSON escapes, never as U+FFFD', () => {
    expect(storableText('a\u0000b')).toBe('a\\u0000b');
    expect(storableText('x\uD800y')).toBe('x\\ud800y');
    expect(storableText('x\uDC00')).toBe('x\\udc00');
    expect(storableText('a\u0000b')).not.toBe(storableText('a\uFFFDb'));
  });

  it('keeps every other text as it is', () => {
    expect(storableText('😀 \uFFFD \\u0000 plain')).toBe('😀 \uFFFD \\u0000 plain');
  });
});
