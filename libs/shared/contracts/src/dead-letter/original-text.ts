/**
 * Most bytes of an original value a dead letter keeps, measured as UTF-8 JSON text (escaping can
 * make a value several times longer). The rest is cut off, and the dead letter says so.
 */
export const DEAD_LETTER_MAX_ORIGINAL_BYTES = 512 * 1024;

/** An original value as a dead letter keeps it. */
export interface DeadLetterText {
  text: string;
  /** Characters of the original kept; less than `length` when it was cut. */
  kept: number;
  length: number;
}

/** The longest prefix of `original` (halving until it fits) whose JSON string form fits `maxBytes`. */
export function deadLetterText(original: string, maxBytes = DEAD_LETTER_MAX_ORIGINAL_BYTES): DeadLetterText {
  const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));
  // Escaping makes a UTF-16 unit at most 6 bytes (\u001f), so short values need no measuring.
  if (original.length <= maxBytes / 6 || jsonBytes(original) <= maxBytes) return { text: original, kept: original.length, length: original.length };
  let kept = Math.min(original.length, maxBytes);
  let text = original.slice(0, kept);
  while (jsonBytes(text) > maxBytes) {
    kept = Math.floor(kept / 2);
    text = original.slice(0, kept);
  }
  return { text, kept, length: original.length };
}
