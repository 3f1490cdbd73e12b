import { MAX_ALERT_BODY_BYTES, MAX_RECORD_BATCH_VALUE_BYTES } from '../topics';
import { encodeRawAlert, idempotentRequestId, rawAlertBody, RawAlertEnvelope } from './value';

const envelope: RawAlertEnvelope = {
  request_id: '0c6f1d9e-4b8a-4f1e-9d3b-2a7c5e8f1b20',
  // The longest X-Request-Id the gateway takes, each character escaped in JSON.
  x_request_id: '"'.repeat(255),
  integration_id: '7',
  project_id: '3',
  received_at: '2026-11-22T10:00:00.000Z',
  reply_to: 'gateway-1',
};

describe('encodeRawAlert', () => {
  it('is the envelope with the body as payload, body bytes untouched', () => {
    const body = Buffer.from('{ "title" : "Disk full", "n": 1e9, "hosts": ["a"] }');
    const message = encodeRawAlert(envelope, body);
    expect(JSON.parse(message.toString())).toEqual({ ...envelope, payload: { title: 'Disk full', n: 1e9, hosts: ['a'] } });
    expect(message.includes(body)).toBe(true);
  });

  it('keeps the largest acceptable body within what a record batch of the topic holds', () => {
    const body = Buffer.from(`[${Array.from({ length: MAX_ALERT_BODY_BYTES / 4 - 1 }, () => '1e9').join(',')}]`);
    expect(body.length).toBeLessThanOrEqual(MAX_ALERT_BODY_BYTES);
    const message = encodeRawAlert(envelope, body);
    expect(message.length).toBeLessThan(MAX_ALERT_BODY_BYTES + 1_000);
    expect(message.length).toBeLessThan(MAX_RECORD_BATCH_VALUE_BYTES);
    // Printed again, the same body would be 2.5 times as long.
    expect(JSON.stringify(JSON.parse(body.toString())).length).toBeGreaterThan(2 * MAX_ALERT_BODY_BYTES);
  });
});

describe('idempotentRequestId', () => {
  it('is one UUID per integration and key, the same on every call', () => {
    const id = idempotentRequestId('7', 'notification-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotentRequestId('7', 'notification-1')).toBe(id);
    expect(idempotentRequestId('8', 'notification-1')).not.toBe(id);
    expect(idempotentRequestId('7', 'notification-2')).not.toBe(id);
    // The separator keeps ("7", "1\nx") and ("71", "x")... apart from ("7\n1", "x").
    expect(idempotentRequestId('71', 'x')).not.toBe(idempotentRequestId('7', '1x'));
  });
});

describe('rawAlertBody', () => {
  it('gives back the body encodeRawAlert spliced in, byte for byte', () => {
    const body = Buffer.from('{ "title" : "x", "payload": {"payload": 1} }');
    expect(rawAlertBody(encodeRawAlert(envelope, body))).toEqual(body);
  });

  it('is null for a message written some other way', () => {
    expect(rawAlertBody(Buffer.from(JSON.stringify({ payload: { a: ',"payload":' }, ...envelope })))).toBeNull();
    expect(rawAlertBody(Buffer.from('{"a":1}'))).toBeNull();
  });
});
