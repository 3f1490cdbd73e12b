import { AlertEvent, ContractViolationError, IntegrationSnapshot, MAX_RECORD_BATCH_VALUE_BYTES, RawAlert, Topic } from '@alert-ingestion/contracts';
import { CompressionTypes, KafkaMessage, Message } from 'kafkajs';
import { topicDecoder } from './batch-consumer';
import { BatchingProducer, BatchingProducerTarget } from './batching-producer';
import { BatchedTopicProducer } from './producer/topic-producer';
import { bindingOf, encodeMessages } from './topic-message';

const envelope: RawAlert.RawAlertEnvelope = {
  request_id: '0c6f1d9e-4b8a-4f1e-9d3b-2a7c5e8f1b20',
  integration_id: '7',
  project_id: '3',
  received_at: '2026-11-22T10:00:00.000Z',
  reply_to: 'gateway-1',
};

const snapshot: IntegrationSnapshot.IntegrationSnapshotValue = {
  id: '7',
  project_id: '3',
  project_tier: 'premium',
  type: 'http',
  name: 'HTTP endpoint',
  active: true,
  url_token: 'token',
  authorization_key_sha256: 'a'.repeat(64),
  payload_field_mapping: [],
  version: 1,
  updated_at: '2026-11-22T10:00:00.000Z',
};

const event = (payload: unknown): AlertEvent.AlertEventValue => ({
  type: 'alert.created',
  occurred_at: '2026-11-22T10:00:00.000Z',
  project_id: 3,
  alert: { iid: 1, title: 'Disk full', payload } as unknown as AlertEvent.AlertEventValue['alert'],
});

const consumed = (message: Message): KafkaMessage =>
  ({ key: message.key === null || message.key === undefined ? null : Buffer.from(message.key), value: message.value === null ? null : Buffer.from(message.value), offset: '0' }) as KafkaMessage;

describe('encodeMessages (the registry encodes every produced message)', () => {
  it('splices a raw alert body in verbatim, bytes as received', () => {
    // Whitespace and number spelling a parse and print would change.
    const body = Buffer.from('{ "title":"Disk full", "value": 1e9 }');
    const [message] = encodeMessages(Topic.RawAlerts, [{ key: '7', value: { envelope, body } }]);
    expect(message.key).toBe('7');
    expect(RawAlert.rawAlertBody(message.value as Buffer)?.equals(body)).toBe(true);
    const decoded = topicDecoder(Topic.RawAlerts).decode(consumed(message));
    expect(decoded).toMatchObject({ ...envelope, payload: { title: 'Disk full', value: 1e9 } });
  });

  it('leaves out an alert payload that would not fit the topic', () => {
    const [small, large] = encodeMessages(Topic.AlertEvents, [
      { key: '3:1', value: event({ a: 1 }) },
      { key: '3:1', value: event({ a: 'x'.repeat(MAX_RECORD_BATCH_VALUE_BYTES) }) },
    ]);
    expect(JSON.parse(String(small.value)).alert).toEqual({ iid: 1, title: 'Disk full', payload: { a: 1 } });
    expect(JSON.parse(String(large.value)).alert).toEqual({ iid: 1, title: 'Disk full', payload_truncated: true });
  });

  it('checks an integration snapshot against its contract, and writes a tombstone as a null value', () => {
    const [written, tombstone] = encodeMessages(Topic.Integrations, [
      { key: '7', value: snapshot, headers: { 'outbox-id': '12' } },
      { key: '8', value: null },
    ]);
    expect(topicDecoder(Topic.Integrations).decode(consumed(written))).toEqual(snapshot);
    expect(written.headers).toEqual({ 'outbox-id': '12' });
    expect(tombstone).toEqual({ key: '8', value: null });
    expect(() => encodeMessages(Topic.Integrations, [{ key: '7', value: { ...snapshot, version: -1 } }])).toThrow(ContractViolationError);
  });
});

describe('topicDecoder (the registry decodes every consumed message)', () => {
  it('names the failing fields and keeps what parsed, so a consumer can still read where to reply', () => {
    const decoder = topicDecoder(Topic.RawAlerts);
    const message = consumed({ key: '7', value: JSON.stringify({ ...envelope, received_at: 'yesterday', payload: {} }) });
    expect(decoder.key(message)).toBe('7');
    let refused: unknown;
    try {
      decoder.decode(message);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ContractViolationError);
    expect((refused as ContractViolationError).reason).toMatch(/received_at/);
    expect((refused as ContractViolationError).parsed).toMatchObject({ request_id: envelope.request_id, reply_to: 'gateway-1' });
  });
});

describe('BatchedTopicProducer', () => {
  it('publishes encoded messages through its batches', async () => {
    const sent: Array<{ topic: string; messages: Message[]; compression?: CompressionTypes }> = [];
    const target: BatchingProducerTarget = { send: async (record) => void sent.push(record) };
    const options = { topic: 't.alerts.deliveries.v1', lingerMs: 0, maxMessages: 10, maxBytes: 10_000, maxInFlight: 1, compressAboveBytes: 5_000 };
    const publisher = new BatchedTopicProducer(bindingOf(Topic.RawAlerts), new BatchingProducer(target, options));
    const body = Buffer.from('[{"title":"a"}]');
    await Promise.all([publisher.publish('7', { envelope, body }), publisher.publish('8', { envelope, body })]);
    expect(sent).toHaveLength(1);
    expect(sent[0].messages.map((message) => message.key)).toEqual(['7', '8']);
    expect(sent[0].messages.every((message) => RawAlert.rawAlertBody(message.value as Buffer)?.equals(body))).toBe(true);
    expect(publisher.outstanding).toBe(0);
  });
});
