import { chunksByBytes } from './record-chunks';

const record = (key: string, bytes: number) => ({ key, value: 'x'.repeat(bytes) });

describe('chunksByBytes', () => {
  it('keeps order and fills each chunk up to the limit', () => {
    const records = [record('a', 40), record('b', 40), record('c', 40), record('d', 10)];
    expect(chunksByBytes(records, 100).map((chunk) => chunk.map((r) => r.key))).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('sends a record larger than the limit alone', () => {
    const records = [record('a', 10), record('b', 500), record('c', 10)];
    expect(chunksByBytes(records, 100).map((chunk) => chunk.map((r) => r.key))).toEqual([['a'], ['b'], ['c']]);
  });

  it('counts UTF-8 bytes and tombstones', () => {
    const records = [{ key: 'a', value: 'é'.repeat(30) }, { key: 'b', value: null }, { key: 'c', value: 'é'.repeat(30) }];
    expect(chunksByBytes(records, 64).map((chunk) => chunk.map((r) => r.key))).toEqual([['a', 'b'], ['c']]);
    expect(chunksByBytes([], 10)).toEqual([]);
  });
});
