import { Registry } from 'prom-client';
import { registerOutboxMetrics } from './outbox-metrics';
import { OutboxRelayStatus } from './outbox-relay';

function status(overrides: Partial<OutboxRelayStatus>): OutboxRelayStatus {
  return { state: 'publishing', behind: false, backlogRows: 0, oldestAgeSeconds: 0, published: 0, deadLettered: 0, failure: null, ...overrides };
}

/** The metric's values by their `outbox` label, as a scrape would see them now. */
async function scrape(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(name)!.get();
  return Object.fromEntries(metric.values.map((value) => [String(value.labels['outbox']), value.value]));
}

describe('registerOutboxMetrics', () => {
  it("reads every relay's status at each scrape: backlog gauges of the leader, counters that only grow", async () => {
    const registry = new Registry();
    let events = status({ backlogRows: 12, oldestAgeSeconds: 3.5, published: 40, deadLettered: 1 });
    const snapshots = status({ state: 'standby', backlogRows: null, oldestAgeSeconds: null, published: 7 });
    registerOutboxMetrics(registry, { alert_events: { status: () => events }, integration_snapshots: { status: () => snapshots } });

    // A standby relay measures no backlog: it reports none rather than a stale or zero one.
    expect(await scrape(registry, 'outbox_backlog_rows')).toEqual({ alert_events: 12 });
    expect(await scrape(registry, 'outbox_oldest_age_seconds')).toEqual({ alert_events: 3.5 });
    expect(await scrape(registry, 'outbox_published_total')).toEqual({ alert_events: 40, integration_snapshots: 7 });
    expect(await scrape(registry, 'outbox_dead_letters_total')).toEqual({ alert_events: 1, integration_snapshots: 0 });

    events = status({ state: 'standby', backlogRows: null, oldestAgeSeconds: null, published: 55, deadLettered: 1 });
    expect(await scrape(registry, 'outbox_published_total')).toEqual({ alert_events: 55, integration_snapshots: 7 });
    expect(await scrape(registry, 'outbox_backlog_rows')).toEqual({});
    expect(await scrape(registry, 'outbox_dead_letters_total')).toEqual({ alert_events: 1, integration_snapshots: 0 });
  });
});
