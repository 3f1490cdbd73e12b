import { AlertReply, ContractViolationError, validateMessage } from '@alert-ingestion/contracts';
import { decodeAlertReply, isValidAlertReply } from './alert-reply-decoder';

const valid = {
  request_id: '6f1c2a7d-0e6b-4c1d-8a3e-5f7b9c0d2e4f',
  reply_to: '0b7d4c0e-2a55-4a8f-9a0c-8d7a2e1b3c4d',
  status: 'processed',
  alerts: [{ iid: 1, title: 'Disk full' }],
};

/** What the contract class says about a value: the reference the fast path must never exceed. */
function contractAccepts(value: unknown): boolean {
  try {
    validateMessage(AlertReply.AlertReplyValue, value);
    return true;
  } catch {
    return false;
  }
}

const variants: Array<[string, unknown]> = [
  ['a processed reply', valid],
  ['a rejected reply with its error', { ...valid, status: 'rejected', alerts: [], error: { error: 'invalid_alert', message: 'bad' } }],
  ['an empty alerts list', { ...valid, alerts: [] }],
  ['an extra field', { ...valid, extra: 1 }],
  ['a null error', { ...valid, error: null }],
  ['a request_id that is no UUID', { ...valid, request_id: 'abc' }],
  ['a UUID of an unknown version', { ...valid, request_id: '6f1c2a7d-0e6b-9c1d-8a3e-5f7b9c0d2e4f' }],
  ['a missing reply_to', { ...valid, reply_to: undefined }],
  ['an unknown status', { ...valid, status: 'done' }],
  ['alerts that are no array', { ...valid, alerts: {} }],
  ['an alert without title', { ...valid, alerts: [{ iid: 1 }] }],
  ['an iid of 0', { ...valid, alerts: [{ iid: 0, title: 'x' }] }],
  ['a fractional iid', { ...valid, alerts: [{ iid: 1.5, title: 'x' }] }],
  ['an iid as text', { ...valid, alerts: [{ iid: '1', title: 'x' }] }],
  ['an alert that is null', { ...valid, alerts: [null] }],
  ['an error without message', { ...valid, error: { error: 'x' } }],
  ['an error that is text', { ...valid, error: 'x' }],
  ['an array', [valid]],
  ['null', null],
];

describe('isValidAlertReply', () => {
  it.each(variants)('agrees with the contract class on %s, or is stricter', (_name, value) => {
    if (isValidAlertReply(value)) expect(contractAccepts(value)).toBe(true);
  });

  it('accepts the replies the processor sends', () => {
    expect(isValidAlertReply(valid)).toBe(true);
    expect(isValidAlertReply(variants[1][1])).toBe(true);
  });
});

describe('decodeAlertReply', () => {
  it('returns a valid reply', () => {
    expect(decodeAlertReply(Buffer.from(JSON.stringify(valid)))).toEqual(valid);
  });

  it('names what is wrong with an invalid one, like decodeMessage', () => {
    expect(() => decodeAlertReply(Buffer.from(JSON.stringify({ ...valid, status: 'done' })))).toThrow(ContractViolationError);
    expect(() => decodeAlertReply(Buffer.from(JSON.stringify({ ...valid, status: 'done' })))).toThrow(/status/);
    expect(() => decodeAlertReply(Buffer.from('not json'))).toThrow(/not valid JSON/);
    expect(() => decodeAlertReply(null)).toThrow(/empty/);
  });
});
