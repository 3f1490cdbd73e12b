import { counter, gauge } from '@alert-ingestion/metrics';
import { Registry } from 'prom-client';
import { OutboxRelayStatus } from './outbox-relay';

/** A relay as the metrics see it (OutboxRelay fits). */
export interface OutboxRelayStatusSource {
  status(): OutboxRelayStatus;
}

/**
 * `outbox_backlog_rows`, `outbox_oldest_age_seconds`, `outbox_published_total` and
 * `outbox_dead_letters_total` of the relays of one process, labelled `outbox` (e.g. alert_events).
 * Read from each relay's status() at every scrape, so publishing costs nothing extra. The gauges are
 * reported only by the instance that leads the relay (the others do not measure the backlog), and
 * the counters count what this instance published since it started.
 */
export function registerOutboxMetrics(registry: Registry, relays: Readonly<Record<string, OutboxRelayStatusSource>>): void {
  const entries = Object.entries(relays);
  gauge(registry, 'outbox_backlog_rows', function () {
    this.reset();
    for (const [outbox, relay] of entries) {
      const rows = relay.status().backlogRows;
      if (rows !== null) this.set({ outbox }, rows);
    }
  });
  gauge(registry, 'outbox_oldest_age_seconds', function () {
    this.reset();
    for (const [outbox, relay] of entries) {
      const age = relay.status().oldestAgeSeconds;
      if (age !== null) this.set({ outbox }, age);
    }
  });
  // A relay's counts only grow: each scrape adds what it counted since the previous one.
  const published = new Map(entries.map(([outbox]) => [outbox, 0]));
  counter(registry, 'outbox_published_total', function () {
    for (const [outbox, relay] of entries) {
      const total = relay.status().published;
      this.inc({ outbox }, total - (published.get(outbox) ?? 0));
      published.set(outbox, total);
    }
  });
  const deadLettered = new Map(entries.map(([outbox]) => [outbox, 0]));
  counter(registry, 'outbox_dead_letters_total', function () {
    for (const [outbox, relay] of entries) {
      const total = relay.status().deadLettered;
      this.inc({ outbox }, total - (deadLettered.get(outbox) ?? 0));
      deadLettered.set(outbox, total);
    }
  });
}
