import { AlertBatchRepository, AlertBatchTransaction } from '@alert-ingestion/alerts-data';
import { BatchWrites } from '@alert-ingestion/alerts-domain';
import { IntegrationSnapshot, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { IntegrationLookup } from './integration-lookup';
import { RawAlertBatchProcessor } from './raw-alert-batch.processor';

const now = new Date('2026-11-21T10:00:00.000Z');
const integration = {
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
} satisfies IntegrationSnapshot.IntegrationSnapshotValue;
const lookup: IntegrationLookup = { findById: (id) => (id === '9' ? integration : undefined), findFresh: async (find) => find() };

const endpoint = { url: 'http://10.0.0.7:8090/alert-replies', token: 'a-random-token-of-gateway-1' };

const message = (n: number, title: string, replyEndpoint: typeof endpoint | null = endpoint) => ({
  offset: String(n),
  value: TOPIC_REGISTRY[Topic.RawAlerts].encode({
    envelope: {
      request_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      integration_id: '9',
      project_id: '1',
      received_at: now.toISOString(),
      reply_to: 'gateway-1',
      ...(replyEndpoint ? { reply_endpoint: replyEndpoint } : {}),
    },
    body: Buffer.from(JSON.stringify({ title })),
  }),
});

/**
 * The database as the processor sees it: empty state, and a data error (SQLSTATE 22) for any write
 * that inserts an alert titled "refused". Records what was committed.
 */
function database() {
  const committed: BatchWrites[] = [];
  const transaction = {
    readState: async () => ({ lastIids: new Map(), answers: new Map(), openAlerts: [], silences: [] }),
    write: async (writes: BatchWrites) => {
      if (writes.alertInserts.some((alert) => alert.title === 'refused')) throw Object.assign(new Error('value refused'), { code: '22021' });
      committed.push(writes);
    },
  } as unknown as AlertBatchTransaction;
  const repository = { transaction: <T>(work: (transaction: AlertBatchTransaction) => Promise<T>) => work(transaction) } as unknown as AlertBatchRepository;
  return { committed, repository };
}

describe('RawAlertBatchProcessor', () => {
  const options = { integrationLookupTimeoutMs: 0, sourceTopic: 'alerts.raw.v1', recordDeliveries: true };

  it('stores a batch in one transaction and answers each message', async () => {
    const { committed, repository } = database();
    const processor = new RawAlertBatchProcessor(repository, lookup, options);
    const outcome = await processor.process(0, [message(1, 'a'), message(2, 'b')], now);
    expect(committed).toHaveLength(1);
    expect(outcome.replies.map((reply) => [reply.value.status, reply.value.alerts])).toEqual([
      ['processed', [{ iid: 1, title: 'a' }]],
      ['processed', [{ iid: 2, title: 'b' }]],
    ]);
    expect(outcome.replies.map((reply) => reply.endpoint)).toEqual([endpoint, endpoint]);
    expect(outcome).toMatchObject({ deadLetters: [], stored: 2, actions: { created: 2 } });
  });

  it('stores a message that names no reply endpoint and replies to nobody', async () => {
    const { committed, repository } = database();
    const processor = new RawAlertBatchProcessor(repository, lookup, options);
    const outcome = await processor.process(0, [message(1, 'a', null)], now);
    expect(committed).toHaveLength(1);
    expect(outcome).toMatchObject({ replies: [], stored: 1, actions: { created: 1 } });
  });

  it('on a data error stores the messages one by one and dead-letters only the one the database refuses', async () => {
    const { committed, repository } = database();
    const processor = new RawAlertBatchProcessor(repository, lookup, options);
    const outcome = await processor.process(3, [message(1, 'a'), message(2, 'refused'), message(3, 'c')], now);
    expect(outcome.deadLetters.map(({ value }) => [value.source_partition, value.source_offset, value.reason])).toEqual([
      [3, '2', 'the alert cannot be stored: value refused'],
    ]);
    expect(outcome.replies.map((reply) => [reply.value.status, reply.value.alerts.map((alert) => alert.title)])).toEqual([
      ['processed', ['a']],
      ['rejected', []],
      ['processed', ['c']],
    ]);
    expect(outcome).toMatchObject({ stored: 2, actions: { created: 2 } });
    // Each stored alone; the refused message's delivery is recorded with the error.
    expect(committed.map((writes) => writes.deliveries.map((delivery) => [delivery.delivery_id.slice(-1), delivery.status]))).toEqual([
      [['1', 200]],
      [['2', 422]],
      [['3', 200]],
    ]);
  });
});
