import { randomUUID } from 'node:crypto';
import { ContractViolationError, decodeMessage, encodeMessage } from './decode-message';
import { AlertReplyValue } from './alert-reply';
import { RawAlertValue } from './raw-alert';

describe('decodeMessage', () => {
  const valid = {
    request_id: randomUUID(),
    integration_id: '7',
    project_id: '3',
    received_at: '2026-11-21T05:00:00.000Z',
    payload: { title: 'Disk full' },
  };

  it('round-trips a valid raw alert', () => {
    const decoded = decodeMessage(RawAlertValue, encodeMessage(valid));
    expect(decoded).toBeInstanceOf(RawAlertValue);
    expect(decoded.payload).toEqual({ title: 'Disk full' });
  });

  it('names every failing field', () => {
    const bad = { ...valid, request_id: 'nope', received_at: 'yesterday' };
    expect(() => decodeMessage(RawAlertValue, encodeMessage(bad))).toThrow(/request_id.*received_at|received_at.*request_id/);
  });

  it('rejects values that are not JSON objects', () => {
    expect(() => decodeMessage(RawAlertValue, Buffer.from('not json'))).toThrow(ContractViolationError);
    expect(() => decodeMessage(RawAlertValue, Buffer.from('[1]'))).toThrow('value is not a JSON object');
    expect(() => decodeMessage(RawAlertValue, null)).toThrow('value is empty');
  });

  it('validates nested values', () => {
    const reply = { request_id: randomUUID(), reply_to: 'g1', status: 'processed', alerts: [{ iid: 0, title: 'x' }] };
    expect(() => decodeMessage(AlertReplyValue, encodeMessage(reply))).toThrow(/alerts\.0\.iid/);
  });
});
