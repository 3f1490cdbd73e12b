import { Registry } from 'prom-client';
import { DEFAULT_METRICS, METRICS, SERVICE_METRICS } from './metric-catalogue';
import { createMetricsRegistry } from './metrics-registry';
import { counter, gauge, histogram } from './service-metrics';

/** prom-client's names for the types of the catalogue. */
const PROM_TYPES = { counter: 'counter', gauge: 'gauge', histogram: 'histogram' } as const;

describe('the metric catalogue', () => {
  it('lists default metrics that prom-client really collects, with their types', async () => {
    const registry = createMetricsRegistry();
    const collected = new Map((await registry.getMetricsAsJSON()).map((metric) => [metric.name, String(metric.type)]));
    for (const [name, definition] of Object.entries(DEFAULT_METRICS)) {
      expect({ name, type: collected.get(name) }).toEqual({ name, type: PROM_TYPES[definition.type] });
    }
  });

  it('creates every service metric with its catalogued type, labels and help', async () => {
    const registry = new Registry();
    for (const [name, definition] of Object.entries(SERVICE_METRICS)) {
      // Each factory accepts only the names of its type; the cast stands for that dispatch.
      if (definition.type === 'counter') counter(registry, name as 'gateway_publish_errors_total');
      if (definition.type === 'gauge') gauge(registry, name as 'outbox_backlog_rows');
      if (definition.type === 'histogram') histogram(registry, name as 'gateway_reply_wait_seconds');
    }
    const created = await registry.getMetricsAsJSON();
    expect(created.map((metric) => metric.name).sort()).toEqual(Object.keys(SERVICE_METRICS).sort());
    for (const metric of created) {
      const definition = SERVICE_METRICS[metric.name as keyof typeof SERVICE_METRICS];
      expect({ name: metric.name, type: String(metric.type), help: metric.help.length > 0 }).toEqual({
        name: metric.name,
        type: PROM_TYPES[definition.type],
        help: true,
      });
    }
  });

  it("names the services' metrics by the Prometheus conventions: snake case, base units, _total only on counters", () => {
    // prom-client's own names are what they are (nodejs_active_handles_total is a gauge).
    for (const [name, definition] of Object.entries(SERVICE_METRICS)) {
      expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect({ name, total: name.endsWith('_total') }).toEqual({ name, total: definition.type === 'counter' });
      expect(name).not.toMatch(/_(milliseconds|ms|minutes|kilobytes|megabytes)(_|$)/);
      for (const label of definition.labels) expect(label).toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });

  it('is the union of the default and the service metrics', () => {
    expect(Object.keys(METRICS).sort()).toEqual([...Object.keys(DEFAULT_METRICS), ...Object.keys(SERVICE_METRICS)].sort());
  });
});
