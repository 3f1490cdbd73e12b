import { ContractViolationError, decodeMessage, RawAlert } from '@alert-ingestion/contracts';
import { decodeRawAlert } from './raw-alert-decoder';

const valid = {
  request_id: '0b6f1f9e-5d8a-4c56-9a0e-5b1c2f3d4e5f',
  integration_id: '12',
  project_id: '3',
  received_at: '2024-06-01T10:00:00.123Z',
  reply_to: 'gateway-1',
  payload: { title: 'x', nested: { deep: [1, 2] } },
};

const outcome = (decode: (value: Buffer | null) => RawAlert.RawAlertValue, value: Buffer | null) => {
  try {
    const decoded = decode(value);
    return { ok: true, value: { ...decoded }, instance: decoded instanceof RawAlert.RawAlertValue };
  } catch (error) {
    return { ok: false, error: error instanceof ContractViolationError ? error.message : String(error) };
  }
};

describe('decodeRawAlert', () => {
  it.each([
    ['a valid message', valid],
    ['no reply_to', { ...valid, reply_to: undefined }],
    ['null reply_to', { ...valid, reply_to: null }],
    ['an array payload', { ...valid, payload: [{ a: 1 }] }],
    ['a scalar payload', { ...valid, payload: 'text' }],
    ['extra properties', { ...valid, extra: true }],
    ['a date without time', { ...valid, received_at: '2024-06-01' }],
    ['a bad uuid', { ...valid, request_id: 'not-a-uuid' }],
    ['a numeric integration id', { ...valid, integration_id: 12 }],
    ['an empty project id', { ...valid, project_id: '' }],
    ['a bad received_at', { ...valid, received_at: 'yesterday' }],
    ['a numeric reply_to', { ...valid, reply_to: 5 }],
    ['a null payload', { ...valid, payload: null }],
    ['no payload', { ...valid, payload: undefined }],
    ['an array', [valid]],
    ['a string', 'text'],
  ])('decides like the contract for %s', (_, plain) => {
    const value = Buffer.from(JSON.stringify(plain));
    expect(outcome(decodeRawAlert, value)).toEqual(outcome((v) => decodeMessage(RawAlert.RawAlertValue, v), value));
  });

  it.each([[null], [Buffer.from('not json')]])('decides like the contract for %s', (value) => {
    expect(outcome(decodeRawAlert, value)).toEqual(outcome((v) => decodeMessage(RawAlert.RawAlertValue, v), value));
  });

  it('keeps the payload untouched', () => {
    expect(decodeRawAlert(Buffer.from(JSON.stringify(valid))).payload).toEqual(valid.payload);
  });
});
