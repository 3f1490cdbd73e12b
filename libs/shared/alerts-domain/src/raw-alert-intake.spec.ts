import { IntegrationSnapshot, RawAlert, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { admitRawAlert, AdmittedRawAlert, decodeRawAlert, deliveryOf, RawAlertMessage, rejectAdmitted } from './raw-alert-intake';

const now = new Date('2026-11-21T10:00:00.000Z');
const requestId = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890';
const deliveryId = '0b1c2d3e-4a5b-4c6d-8e7f-901234567890';

const envelope: RawAlert.RawAlertEnvelope = {
  request_id: requestId,
  integration_id: '9',
  project_id: '1',
  received_at: '2026-11-21T09:59:00.000Z',
  reply_to: 'gateway-1',
  delivery_id: deliveryId,
  x_request_id: 'caller-id',
};

const message = (body: string, head: RawAlert.RawAlertEnvelope = envelope): RawAlertMessage => ({
  offset: '42',
  value: TOPIC_REGISTRY[Topic.RawAlerts].encode({ envelope: head, body: Buffer.from(body) }),
});

const integration = (overrides: Partial<IntegrationSnapshot.IntegrationSnapshotValue> = {}): IntegrationSnapshot.IntegrationSnapshotValue => ({
  id: '9',
  project_id: '1',
  project_tier: 'premium',
  type: 'http',
  name: 'HTTP endpoint',
  active: true,
  url_token: 't',
  authorization_key_sha256: 'k',
  payload_field_mapping: [],
  version: 1,
  updated_at: now.toISOString(),
  ...overrides,
});

function decoded(value: RawAlertMessage) {
  const result = decodeRawAlert(value);
  if (!result.ok) throw new Error(result.rejected.reason);
  return result;
}

function admit(body: string, found = integration(), recordDeliveries = true) {
  const { message: read, raw } = decoded(message(body));
  return admitRawAlert(read, raw, found, { now, recordDeliveries });
}

describe('decodeRawAlert', () => {
  it('decodes a message that keeps its contract', () => {
    const result = decoded(message('{"title":"Disk full"}'));
    expect(result.raw).toMatchObject({ request_id: requestId, project_id: '1', payload: { title: 'Disk full' } });
  });

  it('rejects a message that is not JSON with the reason, and no address to answer', () => {
    const result = decodeRawAlert({ offset: '1', value: Buffer.from('not json') });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejected).toMatchObject({ admitted: false, address: undefined, delivery: null });
    expect(result.rejected.reason).toMatch(/JSON/);
  });

  it('rejects a contract violation naming the field, keeping the address when its request_id can be read', () => {
    const result = decodeRawAlert({ offset: '1', value: Buffer.from(JSON.stringify({ request_id: requestId, reply_to: 'gateway-1', payload: {} })) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejected.reason).toContain('integration_id');
    expect(result.rejected.address).toEqual({ request_id: requestId, reply_to: 'gateway-1', delivery_id: undefined, x_request_id: undefined, reply_endpoint: undefined });
  });

  it("keeps the reply endpoint of a contract violation, so the waiting gateway still hears of it; a partial one is no endpoint", () => {
    const reply_endpoint = { url: 'http://10.0.0.7:8090/alert-replies', token: 'token-of-gateway-1-0123456789' };
    const violation = (endpoint: unknown) =>
      decodeRawAlert({ offset: '1', value: Buffer.from(JSON.stringify({ request_id: requestId, reply_to: 'gateway-1', reply_endpoint: endpoint, payload: {} })) });
    const complete = violation(reply_endpoint);
    const partial = violation({ url: reply_endpoint.url });
    if (complete.ok || partial.ok) throw new Error('expected both to be refused');
    expect(complete.rejected.address?.reply_endpoint).toEqual(reply_endpoint);
    expect(partial.rejected.address?.reply_endpoint).toBeUndefined();
  });
});

describe('admitRawAlert', () => {
  it('admits a message of its integration: candidates in request order, received_at standing for now', () => {
    const result = admit('[{"title":"a"},{"title":"b","fingerprint":"x"}]');
    expect(result.admitted).toBe(true);
    const { candidates } = result as AdmittedRawAlert;
    expect(candidates.map((candidate) => candidate.title)).toEqual(['a', 'b']);
    expect(candidates[0].startedAt).toEqual(new Date(envelope.received_at));
  });

  it('rejects a message of an unknown integration without recording a delivery', () => {
    const { message: read, raw } = decoded(message('{}'));
    expect(admitRawAlert(read, raw, undefined, { now, recordDeliveries: true })).toMatchObject({
      admitted: false,
      reason: 'integration 9 is unknown',
      delivery: null,
    });
  });

  it("rejects a message whose integration belongs to another project, and records nothing on that project's integration", () => {
    expect(admit('{}', integration({ project_id: '2' }))).toMatchObject({
      admitted: false,
      reason: 'integration 9 does not belong to project 1',
      address: { request_id: requestId, reply_to: 'gateway-1' },
      delivery: null,
    });
  });

  it('rejects a body whose element is not an object, recording the delivery as an invalid payload', () => {
    const result = admit('[{"title":"a"},1]');
    expect(result).toMatchObject({ admitted: false, reason: 'element 1 of the array is not a JSON object' });
    expect(!result.admitted && result.delivery).toMatchObject({ project_id: '1', integration_id: '9', status: 422, error: 'invalid_payload', alerts: [] });
  });

  it('records no delivery when deliveries are not recorded', () => {
    expect(admit('{}', integration(), false)).toMatchObject({ admitted: true, delivery: null });
    expect(admit('1', integration(), false)).toMatchObject({ admitted: false, delivery: null });
  });
});

describe('deliveryOf and rejectAdmitted', () => {
  it('names the delivery by its delivery id and X-Request-Id, with the body exactly as received', () => {
    const body = '{ "title" : 1e9 }';
    const { message: read, raw } = decoded(message(body));
    expect(deliveryOf(read, raw)).toEqual({
      delivery_id: deliveryId,
      request_id: 'caller-id',
      project_id: '1',
      integration_id: '9',
      received_at: envelope.received_at,
      body,
      body_size: body.length,
      body_truncated: false,
      authorization_key: null,
      authorization_key_expires_at: null,
    });
  });

  it('says which authorization key the gateway matched, as the raw alert names it', () => {
    const { message: read, raw } = decoded(message('{}', { ...envelope, authorization_key: 'previous', authorization_key_expires_at: '2026-11-26T18:00:00.000Z' }));
    expect(deliveryOf(read, raw)).toMatchObject({ authorization_key: 'previous', authorization_key_expires_at: '2026-11-26T18:00:00.000Z' });
  });

  it('rejects an admitted message the database refuses, with the reason and its delivery as an invalid payload', () => {
    const admitted = admit('{}') as AdmittedRawAlert;
    expect(rejectAdmitted(admitted, 'the alert cannot be stored: x')).toMatchObject({
      admitted: false,
      message: admitted.message,
      reason: 'the alert cannot be stored: x',
      address: { request_id: requestId },
      delivery: { ...admitted.delivery, status: 422, error: 'invalid_payload', alerts: [] },
    });
  });
});
