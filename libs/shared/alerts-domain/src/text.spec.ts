import { truncateText } from './text';

describe('truncateText', () => {
  it('keeps short text', () => {
    expect(truncateText('hello', 5)).toBe('hello');
  });

  it('cuts to the limit in code points', () => {
    expect(truncateText('abcdef', 3)).toBe('abc');
  });

  it('never splits a surrogate pair', () => {
    const text = '😀😀😀';
    expect(text.length).toBe(6);
    expect(truncateText(text, 2)).toBe('😀😀');
    expect(truncateText(`a${text}`, 2)).toBe('a😀');
  });

  it('makes the result storable, escapes included in the count and never cut in half', () => {
    expect(truncateText('a\u0000b', 10)).toBe('a\\u0000b');
    expect(truncateText('a\u0000b', 7)).toBe('a\\u0000');
    expect(truncateText('a\u0000b', 6)).toBe('a');
    expect(truncateText('\uD800😀x', 7)).toBe('\\ud800😀');
  });
});
