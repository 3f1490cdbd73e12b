import { METRICS } from '@alert-ingestion/metrics';

/** Labels every scraped series gets from the ServiceMonitor's target (prometheus-operator). */
export const TARGET_LABELS: readonly string[] = ['namespace', 'service', 'pod', 'container', 'endpoint', 'instance', 'job'];

/**
 * The metric a series name belongs to, in the services' catalogue (@alert-ingestion/metrics
 * METRICS), and the labels the series may carry: a histogram is stored as `<name>_bucket` (with
 * `le`), `<name>_sum` and `<name>_count`.
 */
export function lookUpSeries(series: string): { metric: string; labels: readonly string[] } | undefined {
  const direct = METRICS[series];
  if (direct && direct.type !== 'histogram') return { metric: series, labels: direct.labels };
  for (const [suffix, extra] of [['_bucket', ['le']], ['_sum', []], ['_count', []]] as const) {
    if (!series.endsWith(suffix)) continue;
    const metric = series.slice(0, -suffix.length);
    const definition = METRICS[metric];
    if (definition?.type === 'histogram') return { metric, labels: [...definition.labels, ...extra] };
  }
  return undefined;
}
