import { DEAD_LETTER_MAX_ORIGINAL_BYTES, deadLetterOriginal } from './raw-alert-batch.processor';

describe('deadLetterOriginal', () => {
  it('keeps a small value whole', () => {
    expect(deadLetterOriginal(Buffer.from('{"a":1}'))).toEqual({ text: '{"a":1}', note: '' });
    expect(deadLetterOriginal(null)).toEqual({ text: null, note: '' });
  });

  it('cuts a ~1 MiB value of escaped characters so that the dead letter stays far below the broker limit', () => {
    const value = Buffer.from('"\n\u0001'.repeat(350_000));
    const { text, note } = deadLetterOriginal(value);
    expect(Buffer.byteLength(JSON.stringify(text))).toBeLessThanOrEqual(DEAD_LETTER_MAX_ORIGINAL_BYTES);
    expect(note).toMatch(/original_value truncated to its first \d+ of 1050000 characters/);
    expect(value.toString().startsWith(text ?? 'x')).toBe(true);
  });

  it('measures multi-byte characters in bytes', () => {
    const { text } = deadLetterOriginal(Buffer.from('警'.repeat(300_000)));
    expect(Buffer.byteLength(JSON.stringify(text))).toBeLessThanOrEqual(DEAD_LETTER_MAX_ORIGINAL_BYTES);
  });
});
