import { counter, gauge } from '@alert-ingestion/metrics';
import { Registry } from 'prom-client';
import { OutboxRelayStatus } from './outbox-relay';
import { OutboxShardStatus } from './sharded-outbox-relay';

/** A relay as the metrics see it (OutboxRelay fits). */
export interface OutboxRelayStatusSource {
  status(): OutboxRelayStatus;
}

/** The relays each registry's outbox metrics read, by outbox label. */
const relaysOf = new WeakMap<Registry, Map<string, OutboxRelayStatusSource>>();

/**
 * `outbox_backlog_rows`, `outbox_oldest_age_seconds`, `outbox_published_total` and
 * `outbox_dead_letters_total` of the relays of one process, labelled `outbox` (e.g. alert_events).
 * Read from each relay's status() at every scrape, so publishing costs nothing extra. The gauges are
 * reported only by the instance that leads the relay (the others do not measure the backlog), and
 * the counters count what this instance published since it started. Providers of one process may
 * each register their own relays: the metrics are made once per registry and read them all.
 */
export function registerOutboxMetrics(registry: Registry, relays: Readonly<Record<string, OutboxRelayStatusSource>>): void {
  const known = relaysOf.get(registry);
  if (known) {
    for (const [outbox, relay] of Object.entries(relays)) {
      if (known.has(outbox)) throw new Error(`The outbox metrics already read a relay labelled ${outbox}`);
      known.set(outbox, relay);
    }
    return;
  }
  const entries = new Map(Object.entries(relays));
  relaysOf.set(registry, entries);
  const gauges = [
    ['outbox_backlog_rows', (status: OutboxRelayStatus) => status.backlogRows],
    ['outbox_oldest_age_seconds', (status: OutboxRelayStatus) => status.oldestAgeSeconds],
  ] as const;
  for (const [name, read] of gauges) {
    gauge(registry, name, function () {
      this.reset();
      for (const [outbox, relay] of entries) {
        const value = read(relay.status());
        if (value !== null) this.set({ outbox }, value);
      }
    });
  }
  const counters = [
    ['outbox_published_total', (status: OutboxRelayStatus) => status.published],
    ['outbox_dead_letters_total', (status: OutboxRelayStatus) => status.deadLettered],
  ] as const;
  for (const [name, read] of counters) {
    // A relay's counts only grow: each scrape adds what it counted since the previous one.
    const counted = new Map<string, number>();
    counter(registry, name, function () {
      for (const [outbox, relay] of entries) {
        const total = read(relay.status());
        this.inc({ outbox }, total - (counted.get(outbox) ?? 0));
        counted.set(outbox, total);
      }
    });
  }
}

/** A sharded relay as the metrics see it (ShardedOutboxRelay fits). */
export interface OutboxShardStatusSource {
  shardStatuses(): OutboxShardStatus[];
}

/**
 * `outbox_shards_led` (how many shards this instance leads) and `outbox_shard_published_total`
 * (per shard) of a sharded relay, labelled `outbox`; its totals are registerOutboxMetrics'.
 */
export function registerOutboxShardMetrics(registry: Registry, outbox: string, relay: OutboxShardStatusSource): void {
  gauge(registry, 'outbox_shards_led', function () {
    this.set({ outbox }, relay.shardStatuses().filter((shard) => shard.leading).length);
  });
  const counted = new Map<number, number>();
  counter(registry, 'outbox_shard_published_total', function () {
    for (const { shard, published } of relay.shardStatuses()) {
      this.inc({ outbox, shard: String(shard) }, published - (counted.get(shard) ?? 0));
      counted.set(shard, published);
    }
  });
}
