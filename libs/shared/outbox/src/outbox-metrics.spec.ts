import { Registry } from 'prom-client';
import { registerOutboxMetrics, registerOutboxShardMetrics } from './outbox-metrics';
import { OutboxShardStatus } from './sharded-outbox-relay';
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

  it('reads the relays of every provider of a process that registers some, each label once', async () => {
    const registry = new Registry();
    registerOutboxMetrics(registry, { alert_events: { status: () => status({ published: 3 }) } });
    registerOutboxMetrics(registry, { oncall_events: { status: () => status({ published: 2, backlogRows: 1 }) } });

    expect(await scrape(registry, 'outbox_published_total')).toEqual({ alert_events: 3, oncall_events: 2 });
    expect(await scrape(registry, 'outbox_backlog_rows')).toEqual({ alert_events: 0, oncall_events: 1 });
    expect(() => registerOutboxMetrics(registry, { oncall_events: { status: () => status({}) } })).toThrow(/already read a relay labelled oncall_events/);
  });
});

describe('registerOutboxShardMetrics', () => {
  it('counts the shards this instance leads and what it published per shard, counters that only grow across handovers', async () => {
    const registry = new Registry();
    let shards: OutboxShardStatus[] = [
      { shard: 0, leading: true, published: 10, lingerMs: 100 },
      { shard: 1, leading: false, published: 0, lingerMs: 100 },
      { shard: 2, leading: true, published: 4, lingerMs: 100 },
    ];
    registerOutboxShardMetrics(registry, 'alert_events', { shardStatuses: () => shards });
    const perShard = async () => {
      const metric = await registry.getSingleMetric('outbox_shard_published_total')!.get();
      return Object.fromEntries(metric.values.map((value) => [`${value.labels['outbox']}/${value.labels['shard']}`, value.value]));
    };

    expect(await scrape(registry, 'outbox_shards_led')).toEqual({ alert_events: 2 });
    expect(await perShard()).toEqual({ 'alert_events/0': 10, 'alert_events/1': 0, 'alert_events/2': 4 });

    // Shard 0 handed over, shard 1 taken: what shard 0 published stays counted.
    shards = [
      { shard: 0, leading: false, published: 12, lingerMs: 100 },
      { shard: 1, leading: true, published: 3, lingerMs: 100 },
      { shard: 2, leading: true, published: 9, lingerMs: 100 },
    ];
    expect(await scrape(registry, 'outbox_shards_led')).toEqual({ alert_events: 2 });
    expect(await perShard()).toEqual({ 'alert_events/0': 12, 'alert_events/1': 3, 'alert_events/2': 9 });
  });
});
