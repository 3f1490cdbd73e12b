import { DeliveryRecord } from '@alert-ingestion/contracts';
import { DeliveryRecorder } from './delivery-recorder';

const record = (integrationId: string, n: number): DeliveryRecord.DeliveryRecordValue => ({
  delivery_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  request_id: `request-${n}`,
  integration_id: integrationId,
  project_id: '1',
  received_at: '2026-11-22T12:00:00.000Z',
  status: 401,
  error: 'unauthorized',
  body: '',
  body_size: 0,
  body_truncated: false,
});

describe('DeliveryRecorder', () => {
  it('publishes records keyed by integration, at most N per integration per second', async () => {
    const published: Array<{ key: string; value: unknown }> = [];
    let now = 10_000;
    const recorder = new DeliveryRecorder(
      { publish: async (key, value) => void published.push({ key, value }) },
      { maxPerIntegrationPerSecond: 3, logger: { warn: () => undefined }, now: () => now },
    );
    for (let n = 0; n < 5; n++) recorder.record(record('7', n));
    recorder.record(record('8', 99));
    now += 1_000;
    recorder.record(record('7', 5));
    await new Promise((resolve) => setImmediate(resolve));
    expect(published.map((entry) => [entry.key, (entry.value as { request_id: string }).request_id])).toEqual([
      ['7', 'request-0'],
      ['7', 'request-1'],
      ['7', 'request-2'],
      ['8', 'request-99'],
      ['7', 'request-5'],
    ]);
  });

  it('logs a failing publisher once until it works again, and never throws to the caller', async () => {
    const warnings: string[] = [];
    let fail = true;
    const recorder = new DeliveryRecorder(
      { publish: async () => (fail ? Promise.reject(new Error('broker down')) : undefined) },
      { maxPerIntegrationPerSecond: 100, logger: { warn: (message) => warnings.push(message) } },
    );
    recorder.record(record('1', 1));
    recorder.record(record('1', 2));
    await new Promise((resolve) => setImmediate(resolve));
    fail = false;
    recorder.record(record('1', 3));
    await new Promise((resolve) => setImmediate(resolve));
    fail = true;
    recorder.record(record('1', 4));
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([expect.stringContaining('broker down'), expect.stringContaining('broker down')]);
  });
});
