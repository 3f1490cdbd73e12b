import type { FetchedRecord } from 'kafkajs/src/protocol/requests/fetch/v11/response';
import { abortedRecords } from './kafkajs-aborted-records';

/** A record of `producer` at `offset`: data in a transaction, unless said otherwise. */
function record(offset: number, producer: string, kind: 'data' | 'abort marker' | 'commit marker' | 'not transactional' = 'data'): FetchedRecord {
  const marker = kind === 'abort marker' || kind === 'commit marker';
  return {
    offset: String(offset),
    key: marker ? Buffer.from([0, 0, 0, kind === 'abort marker' ? 0 : 1]) : Buffer.from('key'),
    isControlRecord: marker,
    batchContext: { producerId: producer, inTransaction: kind !== 'not transactional' },
  };
}

const offsetsOf = (found: Set<FetchedRecord>) => [...found].map((found) => Number(found.offset));

describe('abortedRecords (what a read_committed consumer skips)', () => {
  it('finds every record of transactions that interleaved and were aborted in another order than they began', () => {
    const records = [
      record(0, 'p1'),
      record(1, 'p2'),
      record(2, 'p1'),
      record(3, 'p2'),
      record(4, 'p2', 'abort marker'),
      record(5, 'p1', 'abort marker'),
      record(6, 'p3'),
      record(7, 'p3', 'commit marker'),
    ];
    // The broker lists them as they ended: p2's first. kafkajs itself hands out the record at 0.
    const aborted = [
      { producerId: 'p2', firstOffset: '1' },
      { producerId: 'p1', firstOffset: '0' },
    ];
    expect(offsetsOf(abortedRecords(records, aborted))).toEqual([0, 1, 2, 3]);
  });

  it('finds the records of transactions that began before the first record fetched, all of them at once', () => {
    // A fetch that resumes in the middle of two aborted transactions.
    const records = [record(10, 'p2'), record(11, 'p1'), record(12, 'p1', 'abort marker'), record(13, 'p2', 'abort marker'), record(14, 'p3')];
    const aborted = [
      { producerId: 'p1', firstOffset: '8' },
      { producerId: 'p2', firstOffset: '9' },
    ];
    expect(offsetsOf(abortedRecords(records, aborted))).toEqual([10, 11]);
  });

  it("keeps a producer's committed transactions before and after its aborted one, and records outside transactions", () => {
    const records = [
      record(0, 'p1'),
      record(1, 'p1', 'commit marker'),
      record(2, 'p1'),
      record(3, '-1', 'not transactional'),
      record(4, 'p1', 'abort marker'),
      record(5, 'p1'),
      record(6, 'p1', 'commit marker'),
    ];
    expect(offsetsOf(abortedRecords(records, [{ producerId: 'p1', firstOffset: '2' }]))).toEqual([2]);
  });

  it('finds nothing when no transaction was aborted', () => {
    expect(abortedRecords([record(0, 'p1'), record(1, 'p1', 'commit marker')], []).size).toBe(0);
  });
});
