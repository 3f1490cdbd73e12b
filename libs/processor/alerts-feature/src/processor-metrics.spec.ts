import { Registry } from 'prom-client';
import { ProcessorMetrics } from './processor-metrics';
import { BatchOutcome } from './raw-alert-batch.processor';

async function values(registry: Registry, name: string) {
  return (await registry.getSingleMetric(name)!.get()).values.map(({ labels, value }) => ({ labels, value }));
}

function outcome(actions: Partial<BatchOutcome['actions']>): BatchOutcome {
  return { replies: [], deadLetters: [], stored: 0, actions: { created: 0, grouped: 0, resolved: 0, unmatched: 0, ...actions } };
}

describe('ProcessorMetrics', () => {
  it('counts the payloads of each stored batch by action, and the batch by its size and duration', async () => {
    const registry = new Registry();
    const metrics = new ProcessorMetrics(registry);
    metrics.batchStored(3, 0.02, outcome({ created: 2, unmatched: 1 }));
    metrics.batchStored(1, 0.01, outcome({ grouped: 1 }));
    expect(await values(registry, 'alert_processor_alerts_total')).toEqual([
      { labels: { action: 'created' }, value: 2 },
      { labels: { action: 'grouped' }, value: 1 },
      { labels: { action: 'resolved' }, value: 0 },
      { labels: { action: 'unmatched' }, value: 1 },
    ]);
    const sizes = (await registry.getSingleMetric('alert_processor_batch_messages')!.get()).values as Array<{ metricName?: string; value: number }>;
    expect(sizes.filter((value) => value.metricName?.endsWith('_sum') || value.metricName?.endsWith('_count')).map((value) => value.value)).toEqual([4, 2]);
  });

  it('reports lag per partition as high watermark minus next offset, and forgets partitions after a rebalance', async () => {
    const registry = new Registry();
    const metrics = new ProcessorMetrics(registry);
    metrics.lag(3, '120', '100');
    metrics.lag(5, '7', '7');
    expect(await values(registry, 'alert_processor_consumer_lag_messages')).toEqual([
      { labels: { partition: 3 }, value: 20 },
      { labels: { partition: 5 }, value: 0 },
    ]);
    metrics.partitionsReassigned();
    metrics.lag(5, '9', '8');
    expect(await values(registry, 'alert_processor_consumer_lag_messages')).toEqual([{ labels: { partition: 5 }, value: 1 }]);
  });
});
