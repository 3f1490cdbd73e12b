import { DEAD_LETTER_MAX_ORIGINAL_BYTES, deadLetterText } from './original-text';

describe('deadLetterText', () => {
  it('keeps a small value whole', () => {
    expect(deadLetterText('{"a":1}')).toEqual({ text: '{"a":1}', kept: 7, length: 7 });
  });

  it('cuts a ~1 MiB value of escaped characters so that the dead letter stays far below the broker limit', () => {
    const original = '"\n\u0001'.repeat(350_000);
    const { text, kept, length } = deadLetterText(original);
    expect(Buffer.byteLength(JSON.stringify(text))).toBeLessThanOrEqual(DEAD_LETTER_MAX_ORIGINAL_BYTES);
    expect(length).toBe(1_050_000);
    expect(kept).toBe(text.length);
    expect(original.startsWith(text)).toBe(true);
  });

  it('measures multi-byte characters in bytes', () => {
    const { text } = deadLetterText('警'.repeat(300_000));
    expect(Buffer.byteLength(JSON.stringify(text))).toBeLessThanOrEqual(DEAD_LETTER_MAX_ORIGINAL_BYTES);
  });
});
