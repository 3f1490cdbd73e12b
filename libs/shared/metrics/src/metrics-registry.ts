import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The registry of one service process: prom-client's default metrics (CPU, memory, event loop lag,
 * garbage collection, file descriptors) plus whatever the service registers. One per Nest app
 * rather than prom-client's global registry, so that a test process can build several apps.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
