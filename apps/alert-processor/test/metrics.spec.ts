import { DEFAULT_METRICS, METRICS } from '@alert-ingestion/metrics';
import { eventually, PrometheusText, scrapeMetrics } from '@alert-ingestion/testing';
import { ProcessorHarness } from './processor-harness';

const PROCESSOR_METRICS = [
  ...Object.keys(DEFAULT_METRICS),
  'http_request_duration_seconds',
  'alert_processor_alerts_total',
  'alert_processor_batch_messages',
  'alert_processor_batch_duration_seconds',
  'alert_processor_consumer_lag_messages',
  'alert_processor_dead_letters_total',
  'alert_processor_replies_total',
  'alert_processor_notifications_total',
  'outbox_backlog_rows',
  'outbox_oldest_age_seconds',
  'outbox_published_total',
  'outbox_dead_letters_total',
  'outbox_shards_led',
  'outbox_shard_published_total',
];

/** CONTRACT.md "Across all services": GET /metrics, here with the processor's and its event relay's metrics. */
describe('alert processor: GET /metrics', () => {
  const harness = new ProcessorHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(async () => {
    await harness.stop();
  });

  it("answers the Prometheus text format with the default metrics, the processor's and the alert event relay's", async () => {
    const metrics = await scrapeMetrics(harness.baseUrl);
    expect(metrics.typesOf(PROCESSOR_METRICS)).toEqual(Object.fromEntries(PROCESSOR_METRICS.map((name) => [name, METRICS[name].type])));
    expect(metrics.select('alert_processor_alerts_total').map((sample) => sample.labels['action'])).toEqual(['created', 'grouped', 'resolved', 'unmatched']);
    expect(metrics.families.has('gateway_receive_requests_total')).toBe(false);
  });

  it('counts alert payloads by what they did, batches, dead letters, lag and published alert events', async () => {
    const before = await scrapeMetrics(harness.baseUrl);
    const grown = (after: PrometheusText, name: string, labels: Record<string, string> = {}) => after.value(name, labels) - before.value(name, labels);

    const integration = await harness.integration('premium');
    const created = await harness.receive(integration, { title: 'Metered', fingerprint: 'metered' });
    const grouped = await harness.receive(integration, { title: 'Metered', fingerprint: 'metered' });
    const resolved = await harness.receive(integration, { title: 'Metered', fingerprint: 'metered', end_time: new Date().toISOString() });
    const unmatched = await harness.receive(integration, { title: 'Never opened', fingerprint: 'never-opened', end_time: new Date().toISOString() });
    expect([created, grouped, resolved, unmatched].map((reply) => reply.alerts.length)).toEqual([1, 1, 1, 0]);
    const deadLettersBefore = harness.deadLetters.received.length;
    await harness.send({ key: integration.id, raw: '{"not": "a raw alert"' });
    await harness.deadLetters.waitFor(() => true, deadLettersBefore + 1);

    await eventually(async () => {
      const after = await scrapeMetrics(harness.baseUrl);
      // The relay publishes the three alert events (created, grouped, resolved) after the commits.
      expect(grown(after, 'outbox_published_total', { outbox: 'alert_events' })).toBe(3);
      expect(grown(after, 'alert_processor_dead_letters_total')).toBe(1);
      // The four replies reached the waiting gateway's listener (the harness's); the dead letter named none.
      expect({
        delivered: grown(after, 'alert_processor_replies_total', { outcome: 'delivered' }),
        late: grown(after, 'alert_processor_replies_total', { outcome: 'late' }),
        failed: grown(after, 'alert_processor_replies_total', { outcome: 'failed' }),
      }).toEqual({ delivered: 4, late: 0, failed: 0 });
    }, 10_000, 100);
    const after = await scrapeMetrics(harness.baseUrl);

    expect({
      created: grown(after, 'alert_processor_alerts_total', { action: 'created' }),
      grouped: grown(after, 'alert_processor_alerts_total', { action: 'grouped' }),
      resolved: grown(after, 'alert_processor_alerts_total', { action: 'resolved' }),
      unmatched: grown(after, 'alert_processor_alerts_total', { action: 'unmatched' }),
    }).toEqual({ created: 1, grouped: 1, resolved: 1, unmatched: 1 });
    // Five messages (one refused), each in a batch of its own or sharing one: the sum counts messages.
    expect(grown(after, 'alert_processor_batch_messages_sum')).toBe(5);
    const batches = grown(after, 'alert_processor_batch_messages_count');
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(grown(after, 'alert_processor_batch_duration_seconds_count')).toBe(batches);
    expect(grown(after, 'alert_processor_batch_duration_seconds_sum')).toBeGreaterThan(0);
    // Everything sent was consumed: the partitions this processor read report no lag.
    const lag = after.select('alert_processor_consumer_lag_messages');
    expect(lag.length).toBeGreaterThan(0);
    expect(lag.every((sample) => /^\d+$/.test(sample.labels['partition']) && sample.value === 0)).toBe(true);
    // This instance leads the relay: it reports the backlog, drained by now.
    expect(after.value('outbox_backlog_rows', { outbox: 'alert_events' })).toBeGreaterThanOrEqual(0);
    expect(after.select('outbox_oldest_age_seconds', { outbox: 'alert_events' })).toHaveLength(1);
  });

  it('times the alerts API under its route patterns, never with ids in the label', async () => {
    // The alerts API knows projects from integration-config's table.
    const { rows } = await harness.db.query<{ id: string }>(`INSERT INTO projects (path, tier, updated_at) VALUES ('metrics/api', 'free', now()) RETURNING id`);
    const integration = await harness.integration('free', [], rows[0].id);
    await harness.receive(integration, { title: 'Listed' });
    const before = await scrapeMetrics(harness.baseUrl);
    const headers = { Authorization: 'Bearer test-admin-token' };
    expect((await fetch(`${harness.baseUrl}/api/v4/projects/${integration.projectId}/alerts`, { headers })).status).toBe(200);
    expect((await fetch(`${harness.baseUrl}/api/v4/projects/${integration.projectId}/alerts/1`, { headers })).status).toBe(200);
    expect((await fetch(`${harness.baseUrl}/api/v4/projects/${integration.projectId}/alerts/999`, { headers })).status).toBe(404);
    const after = await scrapeMetrics(harness.baseUrl);
    const grown = (route: string, status: string) =>
      after.value('http_request_duration_seconds_count', { method: 'GET', route, status_code: status }) -
      before.value('http_request_duration_seconds_count', { method: 'GET', route, status_code: status });
    expect({
      list: grown('/api/v4/projects/:id/alerts', '200'),
      found: grown('/api/v4/projects/:id/alerts/:iid', '200'),
      missing: grown('/api/v4/projects/:id/alerts/:iid', '404'),
    }).toEqual({ list: 1, found: 1, missing: 1 });
    expect(after.samples.filter((sample) => (sample.labels['route'] ?? '').includes(integration.projectId))).toEqual([]);
  });
});
