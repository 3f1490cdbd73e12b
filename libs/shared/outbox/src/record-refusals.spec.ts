import { RecordRefusals } from './record-refusals';

describe('RecordRefusals', () => {
  it('isolates a refused batch row by row, then retries the refused row up to maxAttempts', () => {
    const refusals = new RecordRefusals(2);
    expect(refusals.batchSize(10n, 100)).toBe(100);
    expect(refusals.rejected('10', '14', 'MESSAGE_TOO_LARGE')).toEqual({ action: 'isolate' });
    expect(refusals.batchSize(10n, 100)).toBe(1);
    expect(refusals.batchSize(14n, 100)).toBe(1);
    expect(refusals.batchSize(15n, 100)).toBe(100);

    refusals.passed(12n);
    expect(refusals.rejected('12', '12', 'MESSAGE_TOO_LARGE')).toEqual({ action: 'retry', refusal: { id: '12', attempts: 1, reason: 'MESSAGE_TOO_LARGE' } });
    expect(refusals.exhausted(12n)).toBeUndefined();
    expect(refusals.rejected('12', '12', 'RECORD_LIST_TOO_LARGE')).toEqual({ action: 'retry', refusal: { id: '12', attempts: 2, reason: 'RECORD_LIST_TOO_LARGE' } });
    expect(refusals.exhausted(12n)).toEqual({ id: '12', attempts: 2, reason: 'RECORD_LIST_TOO_LARGE' });
    expect(refusals.exhausted(13n)).toBeUndefined();
  });

  it('forgets a refusal once the position passes it, and the isolation once the outbox is published to its end', () => {
    const refusals = new RecordRefusals(3);
    refusals.rejected('5', '9', 'INVALID_RECORD');
    refusals.rejected('7', '7', 'INVALID_RECORD');
    refusals.passed(8n);
    // A later refusal of the same id counts from the start again.
    expect(refusals.rejected('7', '7', 'INVALID_RECORD')).toEqual({ action: 'retry', refusal: { id: '7', attempts: 1, reason: 'INVALID_RECORD' } });
    refusals.caughtUp();
    expect(refusals.batchSize(8n, 50)).toBe(50);
  });
});
