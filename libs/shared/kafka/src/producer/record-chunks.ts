/**
 * Splits records, in order, into chunks whose keys and values together stay within `maxBytes`, so
 * that each produce request's record batch fits the topic's max.message.bytes. A record larger than
 * `maxBytes` goes alone (the broker decides about it).
 */
export function chunksByBytes<T extends { key?: string | Buffer | null; value: string | Buffer | null }>(records: readonly T[], maxBytes: number): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const record of records) {
    const size = (record.key == null ? 0 : Buffer.byteLength(record.key)) + (record.value === null ? 0 : Buffer.byteLength(record.value));
    if (chunk.length > 0 && bytes + size > maxBytes) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(record);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
