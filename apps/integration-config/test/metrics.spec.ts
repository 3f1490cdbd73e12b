import { DEFAULT_METRICS, METRICS } from '@alert-ingestion/metrics';
import { eventually, PrometheusText, scrapeMetrics } from '@alert-ingestion/testing';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

const INTEGRATION_CONFIG_METRICS = [
  ...Object.keys(DEFAULT_METRICS),
  'http_request_duration_seconds',
  'integration_config_integration_changes_total',
  'outbox_backlog_rows',
  'outbox_oldest_age_seconds',
  'outbox_published_total',
  'outbox_dead_letters_total',
];

/** CONTRACT.md "Across all services": GET /metrics, here with integration-config's and its snapshot relay's metrics. */
describe('integration-config: GET /metrics', () => {
  let api: ManagementApi;

  beforeAll(async () => {
    api = await ManagementApi.start();
  });

  afterAll(async () => {
    await api?.stop();
  });

  it("answers the Prometheus text format with the default metrics, integration-config's and the snapshot relay's", async () => {
    const metrics = await scrapeMetrics(api.url);
    expect(metrics.typesOf(INTEGRATION_CONFIG_METRICS)).toEqual(Object.fromEntries(INTEGRATION_CONFIG_METRICS.map((name) => [name, METRICS[name].type])));
    expect(metrics.select('integration_config_integration_changes_total').map((sample) => sample.labels['change'])).toEqual(['created', 'updated', 'deleted', 'key_reset']);
    expect(metrics.families.has('alert_processor_alerts_total')).toBe(false);
  });

  it('counts integration changes once committed, and the snapshots the relay published', async () => {
    const before = await scrapeMetrics(api.url);
    const grown = (after: PrometheusText, name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    const project = await api.createProject('metrics/changes', 'premium');
    const base = `/projects/${project}/alert_integrations`;
    const created = await api.request<{ id: number }>('POST', base, { token: ADMIN_TOKEN, body: { name: 'Metered', active: true } });
    expect(created.status).toBe(201);
    const integration = `${base}/${created.body.id}`;
    expect((await api.request('PUT', integration, { token: ADMIN_TOKEN, body: { active: false } })).status).toBe(200);
    expect((await api.request('POST', `${integration}/reset_authorization_key`, { token: ADMIN_TOKEN })).status).toBe(200);
    // Refused changes count nothing: a second integration with a taken name is a 409.
    expect((await api.request('POST', base, { token: ADMIN_TOKEN, body: { name: 'Metered', active: true } })).status).toBe(409);
    expect((await api.request('DELETE', integration, { token: ADMIN_TOKEN })).status).toBe(204);
    expect((await api.request('DELETE', integration, { token: ADMIN_TOKEN })).status).toBe(404);

    const after = await scrapeMetrics(api.url);
    const change = (name: string) => grown(after, 'integration_config_integration_changes_total', { change: name });
    expect({ created: change('created'), updated: change('updated'), key_reset: change('key_reset'), deleted: change('deleted') }).toEqual({
      created: 1,
      updated: 1,
      key_reset: 1,
      deleted: 1,
    });
    // A change is answered once its snapshot (or tombstone) is on the integrations topic.
    expect(grown(after, 'outbox_published_total', { outbox: 'integration_snapshots' })).toBe(4);
    await eventually(async () => {
      const latest = await scrapeMetrics(api.url);
      expect(latest.value('outbox_backlog_rows', { outbox: 'integration_snapshots' })).toBe(0);
    }, 10_000, 200);
  });

  it('times the management API under its route patterns, a body the JSON parser refuses included', async () => {
    const project = await api.createProject('metrics/routes', 'free');
    const before = await scrapeMetrics(api.url);
    expect((await api.request('GET', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await api.request('GET', `/projects/${project}/alert_integrations/424242`, { token: ADMIN_TOKEN })).status).toBe(404);
    expect((await api.request('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: '{"name":' })).status).toBe(400);
    const after = await scrapeMetrics(api.url);
    const grown = (labels: Record<string, string>) => after.value('http_request_duration_seconds_count', labels) - before.value('http_request_duration_seconds_count', labels);
    expect({
      list: grown({ method: 'GET', route: '/api/v4/projects/:id/alert_integrations', status_code: '200' }),
      missing: grown({ method: 'GET', route: '/api/v4/projects/:id/alert_integrations/:iid', status_code: '404' }),
      // The body parser answers before any route is matched.
      malformed: grown({ method: 'POST', route: 'unmatched', status_code: '400' }),
    }).toEqual({ list: 1, missing: 1, malformed: 1 });
    // No id in a route label: a path segment of digits would be one.
    expect(after.samples.filter((sample) => /\/\d+(\/|$)/.test(sample.labels['route'] ?? ''))).toEqual([]);
  });
});
