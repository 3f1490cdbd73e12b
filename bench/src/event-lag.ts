import { percentile } from './load-generator';

/** An alert event as read back from alerts.events.v1. */
export interface PublishedEvent {
  /** The event's `occurred_at`: the processor batch's time, which is also the new alert's `created_at`. */
  occurredAtMs: number;
  /** The record's Kafka timestamp: when the relay's producer sent it. */
  publishedAtMs: number;
}

/** What the events topic shows of a measured window [startMs, endMs). */
export interface EventFigures {
  /** Records the relays published within the window. */
  published: number;
  perSecond: number;
  /** Events of changes made within the window, whose lag is measured. */
  lagged: number;
  /** Time from the change to its record, percentiles of the events of changes made within the window. */
  lagP50Ms: number;
  lagP99Ms: number;
}

/**
 * Events per second published within the window, and the lag (record timestamp minus occurred_at) of
 * the events of changes made within it: a change near the window's end whose event came after it
 * still counts, so a relay that falls behind shows as lag, not as fewer events.
 */
export function eventFigures(events: readonly PublishedEvent[], window: { startMs: number; endMs: number }): EventFigures {
  const within = (ms: number) => ms >= window.startMs && ms < window.endMs;
  const published = events.filter((event) => within(event.publishedAtMs)).length;
  const lags = events
    .filter((event) => within(event.occurredAtMs))
    .map((event) => event.publishedAtMs - event.occurredAtMs)
    .sort((a, b) => a - b);
  return {
    published,
    perSecond: published / ((window.endMs - window.startMs) / 1000),
    lagged: lags.length,
    lagP50Ms: percentile(lags, 50),
    lagP99Ms: percentile(lags, 99),
  };
}
