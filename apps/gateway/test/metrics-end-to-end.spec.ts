import { RECEIVE_ROUTE } from '@alert-ingestion/gateway-feature';
import { eventually, PrometheusText, scrapeMetrics } from '@alert-ingestion/testing';
import { bearer, post } from './support/http-client';
import { Pipeline, Project } from './support/pipeline';

/** The metrics of the three services, each scraped before and after. */
interface Scrapes {
  gateway: PrometheusText;
  processor: PrometheusText;
  integrationConfig: PrometheusText;
}

/**
 * docs/operating.md "Metrics" end to end, every service a real process: what a platform team's Prometheus
 * scrapes moves by exactly what the requests did, on the service that did it.
 */
describe('end to end: the metrics of the three services move with the traffic', () => {
  let pipeline: Pipeline;

  const scrapeAll = async (): Promise<Scrapes> => {
    const [gateway, processor, integrationConfig] = await Promise.all([
      scrapeMetrics(pipeline.gateway.url),
      scrapeMetrics(pipeline.processor.url),
      scrapeMetrics(pipeline.integrationConfig.url),
    ]);
    return { gateway, processor, integrationConfig };
  };
  const grown = (before: Scrapes, after: Scrapes, service: keyof Scrapes, name: string, labels: Record<string, string> = {}) =>
    after[service].value(name, labels) - before[service].value(name, labels);

  beforeAll(async () => {
    pipeline = await Pipeline.start();
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  it('counts receive answers on the gateway and what each alert did on the processor', async () => {
    const project: Project = await pipeline.createProject('premium');
    const { url, authorization_key: key } = project.integration;
    const before = await scrapeAll();

    const send = async (body: unknown, authorization = bearer(key), target = url) => (await post(target, JSON.stringify(body), { headers: authorization })).status;
    const alert = { title: 'Metered end to end', fingerprint: 'metered-e2e' };
    expect(await send(alert)).toBe(200); // created
    expect(await send(alert)).toBe(200); // grouped
    expect(await send({ ...alert, end_time: new Date().toISOString() })).toBe(200); // resolved
    expect(await send(alert, bearer('not-the-key'))).toBe(401);
    expect(await send(alert, bearer(key), url.replace(/\/[^/]+\.json$/, '/no-such-token.json'))).toBe(404);

    // The relay publishes the alert events after the processor's commits: wait for all three.
    let after = before;
    await eventually(async () => {
      after = await scrapeAll();
      expect(grown(before, after, 'processor', 'outbox_published_total', { outbox: 'alert_events' })).toBe(3);
    }, 15_000, 200);

    const gateway = (status: string) => ({
      answers: grown(before, after, 'gateway', 'gateway_receive_requests_total', { status }),
      timed: grown(before, after, 'gateway', 'http_request_duration_seconds_count', { method: 'POST', route: RECEIVE_ROUTE, status_code: status }),
    });
    expect({ 200: gateway('200'), 401: gateway('401'), 404: gateway('404'), 202: gateway('202') }).toEqual({
      200: { answers: 3, timed: 3 },
      401: { answers: 1, timed: 1 },
      404: { answers: 1, timed: 1 },
      202: { answers: 0, timed: 0 },
    });
    expect(grown(before, after, 'gateway', 'gateway_reply_wait_seconds_count')).toBe(3);

    const action = (name: string) => grown(before, after, 'processor', 'alert_processor_alerts_total', { action: name });
    expect({ created: action('created'), grouped: action('grouped'), resolved: action('resolved'), unmatched: action('unmatched') }).toEqual({
      created: 1,
      grouped: 1,
      resolved: 1,
      unmatched: 0,
    });
    expect(grown(before, after, 'processor', 'alert_processor_batch_messages_sum')).toBe(3);
    expect(grown(before, after, 'processor', 'alert_processor_batch_messages_count')).toBeGreaterThanOrEqual(1);
    expect(grown(before, after, 'processor', 'alert_processor_batch_duration_seconds_count')).toBe(
      grown(before, after, 'processor', 'alert_processor_batch_messages_count'),
    );
    expect(grown(before, after, 'processor', 'alert_processor_dead_letters_total')).toBe(0);
    // The gateway's refusals never reached the processor; the stored alert says the same.
    const [stored] = await pipeline.alerts(project.id);
    expect(stored).toMatchObject({ title: 'Metered end to end', status: 'resolved', events: 2 });
  });

  it('counts integration changes on integration-config, and the snapshots its relay published', async () => {
    const before = await scrapeAll();
    const project = await pipeline.createProject('premium');
    const integration = `/projects/${project.id}/alert_integrations/${project.integration.id}`;
    await pipeline.management('PUT', integration, { name: 'Renamed endpoint' });
    await pipeline.management('POST', `${integration}/reset_authorization_key`);
    await pipeline.management('DELETE', integration);
    const after = await scrapeAll();

    const change = (name: string) => grown(before, after, 'integrationConfig', 'integration_config_integration_changes_total', { change: name });
    expect({ created: change('created'), updated: change('updated'), key_reset: change('key_reset'), deleted: change('deleted') }).toEqual({
      created: 1,
      updated: 1,
      key_reset: 1,
      deleted: 1,
    });
    // Each change is answered once its snapshot (the delete: a tombstone) is on the integrations topic.
    expect(grown(before, after, 'integrationConfig', 'outbox_published_total', { outbox: 'integration_snapshots' })).toBe(4);
  });
});
