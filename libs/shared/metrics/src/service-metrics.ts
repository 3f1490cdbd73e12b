import { Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, Registry } from 'prom-client';
import { SERVICE_METRICS, ServiceMetricName } from './metric-catalogue';

type Catalogue = typeof SERVICE_METRICS;
type NamesOfType<T extends string> = { [N in ServiceMetricName]: Catalogue[N]['type'] extends T ? N : never }[ServiceMetricName];
/** The label names of a catalogued metric, as a union of string literals. */
export type LabelsOf<N extends ServiceMetricName> = Catalogue[N]['labels'][number];

/**
 * A counter of the catalogue (SERVICE_METRICS), registered in `registry` with its catalogued help
 * and labels. `collect` runs at every scrape, for a counter read from somewhere else.
 */
export function counter<N extends NamesOfType<'counter'>>(registry: Registry, name: N, collect?: CounterConfiguration<LabelsOf<N>>['collect']): Counter<LabelsOf<N>> {
  const { help, labels } = SERVICE_METRICS[name];
  return new Counter<LabelsOf<N>>({ name, help, labelNames: labels as readonly LabelsOf<N>[], registers: [registry], ...(collect ? { collect } : {}) });
}

/** A gauge of the catalogue; `collect` runs at every scrape, for a value read at that moment. */
export function gauge<N extends NamesOfType<'gauge'>>(registry: Registry, name: N, collect?: GaugeConfiguration<LabelsOf<N>>['collect']): Gauge<LabelsOf<N>> {
  const { help, labels } = SERVICE_METRICS[name];
  return new Gauge<LabelsOf<N>>({ name, help, labelNames: labels as readonly LabelsOf<N>[], registers: [registry], ...(collect ? { collect } : {}) });
}

/** A histogram of the catalogue, with its catalogued buckets. */
export function histogram<N extends NamesOfType<'histogram'>>(registry: Registry, name: N): Histogram<LabelsOf<N>> {
  const { help, labels, buckets } = SERVICE_METRICS[name];
  return new Histogram<LabelsOf<N>>({ name, help, labelNames: labels as readonly LabelsOf<N>[], buckets: [...buckets], registers: [registry] });
}

/**
 * Seconds elapsed since `start`, a performance.now() reading: the unit of every duration metric
 * (Prometheus conventions: base units).
 */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
