import { validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { AlertReplyValue } from './alert-reply';
import { compileContract } from './compiled-contract';
import { DeliveryRecordValue } from './delivery-record';
import { IntegrationSnapshotValue } from './integration-snapshot';
import { RawAlertValue } from './raw-alert';

/** What class-validator itself says: the reference the compiled checks must agree with, exactly. */
function reference<T extends object>(contract: new () => T, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return validateSync(plainToInstance(contract, value) as object, { forbidUnknownValues: false }).length === 0;
}

function agree<T extends object>(contract: new () => T, variants: Array<[string, unknown]>): void {
  const check = compileContract(contract);
  it('compiles', () => expect(check).not.toBeNull());
  it.each(variants)('agrees with class-validator on %s', (_name, value) => {
    expect(check!(value)).toBe(reference(contract, value));
  });
}

const raw = {
  request_id: '0b6f1f9e-5d8a-4c56-9a0e-5b1c2f3d4e5f',
  integration_id: '12',
  project_id: '3',
  received_at: '2024-06-01T10:00:00.123Z',
  reply_to: 'gateway-1',
  payload: { title: 'x', nested: { deep: [1, 2] } },
};

describe('compileContract: RawAlertValue', () => {
  agree(RawAlertValue, [
    ['a valid message', raw],
    ['no reply_to', { ...raw, reply_to: undefined }],
    ['null reply_to', { ...raw, reply_to: null }],
    ['an array payload', { ...raw, payload: [{ a: 1 }] }],
    ['a scalar payload', { ...raw, payload: 'text' }],
    ['extra properties', { ...raw, extra: true }],
    ['a date without time', { ...raw, received_at: '2024-06-01' }],
    ['a bad uuid', { ...raw, request_id: 'not-a-uuid' }],
    ['a numeric integration id', { ...raw, integration_id: 12 }],
    ['an empty project id', { ...raw, project_id: '' }],
    ['a bad received_at', { ...raw, received_at: 'yesterday' }],
    ['a numeric reply_to', { ...raw, reply_to: 5 }],
    ['a reply endpoint', { ...raw, reply_endpoint: { url: 'http://10.1.2.3:8090/alert-replies', token: 't'.repeat(43) } }],
    ['a reply endpoint with a short token', { ...raw, reply_endpoint: { url: 'http://10.1.2.3:8090/alert-replies', token: 'short' } }],
    ['a reply endpoint that is no http URL', { ...raw, reply_endpoint: { url: 'file:///etc/passwd', token: 't'.repeat(43) } }],
    ['a reply endpoint without url', { ...raw, reply_endpoint: { token: 't'.repeat(43) } }],
    ['a reply endpoint that is text', { ...raw, reply_endpoint: 'http://10.1.2.3:8090' }],
    ['a null payload', { ...raw, payload: null }],
    ['no payload', { ...raw, payload: undefined }],
    ['a delivery id and an idempotency key', { ...raw, delivery_id: '6f1c2a7d-0e6b-4c1d-8a3e-5f7b9c0d2e4f', idempotency_key: 'k' }],
    ['a delivery id that is no UUID', { ...raw, delivery_id: 'x' }],
    ['an empty idempotency key', { ...raw, idempotency_key: '' }],
    ['an idempotency key of 256 characters', { ...raw, idempotency_key: 'k'.repeat(256) }],
    ["the caller's X-Request-Id", { ...raw, x_request_id: 'trace:1234/ABC' }],
    ['an X-Request-Id of 255 characters', { ...raw, x_request_id: 'x'.repeat(255) }],
    ['an X-Request-Id of 256 characters', { ...raw, x_request_id: 'x'.repeat(256) }],
    ['an empty X-Request-Id', { ...raw, x_request_id: '' }],
    ['a numeric X-Request-Id', { ...raw, x_request_id: 7 }],
    ['an array', [raw]],
    ['a string', 'text'],
    ['null', null],
  ]);
});

const reply = {
  request_id: '6f1c2a7d-0e6b-4c1d-8a3e-5f7b9c0d2e4f',
  reply_to: '0b7d4c0e-2a55-4a8f-9a0c-8d7a2e1b3c4d',
  status: 'processed',
  alerts: [{ iid: 1, title: 'Disk full' }],
};

describe('compileContract: AlertReplyValue (nested values)', () => {
  agree(AlertReplyValue, [
    ['a processed reply', reply],
    ['a rejected reply with its error', { ...reply, status: 'rejected', alerts: [], error: { error: 'invalid_alert', message: 'bad' } }],
    ['an empty alerts list', { ...reply, alerts: [] }],
    ['a null error', { ...reply, error: null }],
    ['a UUID of an unknown version', { ...reply, request_id: '6f1c2a7d-0e6b-9c1d-8a3e-5f7b9c0d2e4f' }],
    ['a missing reply_to', { ...reply, reply_to: undefined }],
    ['an unknown status', { ...reply, status: 'done' }],
    ['alerts that are no array', { ...reply, alerts: {} }],
    ['an alert without title', { ...reply, alerts: [{ iid: 1 }] }],
    ['an iid of 0', { ...reply, alerts: [{ iid: 0, title: 'x' }] }],
    ['a fractional iid', { ...reply, alerts: [{ iid: 1.5, title: 'x' }] }],
    ['an iid as text', { ...reply, alerts: [{ iid: '1', title: 'x' }] }],
    ['an alert that is null', { ...reply, alerts: [null] }],
    ['an error without message', { ...reply, error: { error: 'x' } }],
    ['an error that is text', { ...reply, error: 'x' }],
  ]);
});

const snapshot = {
  id: '1',
  project_id: '2',
  project_tier: 'premium',
  type: 'http',
  name: 'Prometheus',
  active: true,
  url_token: 'token',
  authorization_key_sha256: 'a'.repeat(64),
  payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }],
  version: 1,
  updated_at: '2026-11-22T10:00:00.000Z',
};

describe('compileContract: IntegrationSnapshotValue', () => {
  agree(IntegrationSnapshotValue, [
    ['a snapshot', snapshot],
    ['a rate limit', { ...snapshot, rate_limit_per_minute: 60 }],
    ['a rate limit of 0', { ...snapshot, rate_limit_per_minute: 0 }],
    ['an unknown tier', { ...snapshot, project_tier: 'gold' }],
    ['a key digest in upper case', { ...snapshot, authorization_key_sha256: 'A'.repeat(64) }],
    ['a mapping to an unknown field', { ...snapshot, payload_field_mapping: [{ field_name: 'colour', path: ['x'], type: 'string' }] }],
    ['a mapping with a path of 101 steps', { ...snapshot, payload_field_mapping: [{ field_name: 'title', path: Array(101).fill('x'), type: 'string' }] }],
    ['a negative version', { ...snapshot, version: -1 }],
  ]);
});

describe('compileContract: DeliveryRecordValue', () => {
  const record = {
    delivery_id: '6f1c2a7d-0e6b-4c1d-8a3e-5f7b9c0d2e4f',
    request_id: 'r-1',
    integration_id: '1',
    project_id: '2',
    received_at: '2026-11-22T10:00:00.000Z',
    status: 401,
    error: 'unauthorized',
    body: '',
    body_size: 0,
    body_truncated: false,
  };
  agree(DeliveryRecordValue, [
    ['a refusal', record],
    ['a 202 without error', { ...record, status: 202, error: null }],
    ['a status the gateway does not report', { ...record, status: 200 }],
    ['a negative size', { ...record, body_size: -1 }],
    ['a request id of 256 characters', { ...record, request_id: 'r'.repeat(256) }],
  ]);
});
