/**
 * Every metric the services expose on `GET /metrics`, by name, with its type and labels: the one
 * list. The services create their metrics from it (counter(), gauge(), histogram()), and the
 * PrometheusRule and Grafana dashboard in deploy/k8s may use these names and labels and nothing
 * else (tools/k8s/test/manifests.spec.ts). Labels never name an integration or a project: each
 * label value multiplies the series Prometheus stores.
 */
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricDefinition {
  type: MetricType;
  /** Labels the service sets (Prometheus adds the scrape target's own: namespace, service, pod...). */
  labels: readonly string[];
}

export interface ServiceMetricDefinition extends MetricDefinition {
  help: string;
  /** Upper bounds of a histogram's buckets, in the metric's unit. */
  buckets?: readonly number[];
}

/** Seconds, from a fast in-memory answer to a request that waited for a reply timeout (10 s by default). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

/**
 * The part of prom-client's default metrics (collectDefaultMetrics) the dashboards and rules may
 * use; the services expose a few more (heap spaces, event loop lag percentiles, Node.js version).
 */
export const DEFAULT_METRICS = {
  process_cpu_user_seconds_total: { type: 'counter', labels: [] },
  process_cpu_system_seconds_total: { type: 'counter', labels: [] },
  process_cpu_seconds_total: { type: 'counter', labels: [] },
  process_start_time_seconds: { type: 'gauge', labels: [] },
  process_resident_memory_bytes: { type: 'gauge', labels: [] },
  process_virtual_memory_bytes: { type: 'gauge', labels: [] },
  process_heap_bytes: { type: 'gauge', labels: [] },
  process_open_fds: { type: 'gauge', labels: [] },
  process_max_fds: { type: 'gauge', labels: [] },
  nodejs_eventloop_lag_seconds: { type: 'gauge', labels: [] },
  nodejs_eventloop_lag_p99_seconds: { type: 'gauge', labels: [] },
  nodejs_active_handles_total: { type: 'gauge', labels: [] },
  nodejs_active_requests_total: { type: 'gauge', labels: [] },
  nodejs_heap_size_total_bytes: { type: 'gauge', labels: [] },
  nodejs_heap_size_used_bytes: { type: 'gauge', labels: [] },
  nodejs_external_memory_bytes: { type: 'gauge', labels: [] },
  nodejs_gc_duration_seconds: { type: 'histogram', labels: ['kind'] },
} as const satisfies Record<string, MetricDefinition>;

/** The services' own metrics. */
export const SERVICE_METRICS = {
  // Every service.
  http_request_duration_seconds: {
    type: 'histogram',
    labels: ['method', 'route', 'status_code'],
    help: 'HTTP requests by method, route pattern and status code: time from the request to the end of the answer.',
    buckets: LATENCY_BUCKETS,
  },
  // gateway
  gateway_receive_requests_total: {
    type: 'counter',
    labels: ['status'],
    help: 'Receive requests (POST <integration url>) by the status code of their answer.',
  },
  gateway_reply_wait_seconds: {
    type: 'histogram',
    labels: [],
    help: "Time from a raw alert's publication on alerts.raw.v1 to the processor's reply, for the requests that got one in time.",
    buckets: LATENCY_BUCKETS,
  },
  gateway_publish_errors_total: {
    type: 'counter',
    labels: [],
    help: 'Produce requests to alerts.raw.v1 that failed (their receive requests were answered 503).',
  },
  gateway_replies_total: {
    type: 'counter',
    labels: ['outcome'],
    help: "Processor replies this instance's reply listener took: delivered (a request was waiting) or late (it had been answered 202, or is unknown).",
  },
  gateway_reply_requests_refused_total: {
    type: 'counter',
    labels: ['reason'],
    help: 'POSTs to the reply listener refused: unauthorized (wrong token), invalid (no reply batch), too_large, not_found (another path or method).',
  },
  // alert-processor
  alert_processor_alerts_total: {
    type: 'counter',
    labels: ['action'],
    help: 'Alert payloads stored, by what each did: created an alert, grouped into one, resolved one, or unmatched (a recovery alert with no open alert).',
  },
  alert_processor_batch_messages: {
    type: 'histogram',
    labels: [],
    help: 'Raw alert messages per batch stored in one transaction.',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
  },
  alert_processor_batch_duration_seconds: {
    type: 'histogram',
    labels: [],
    help: 'Time to process one batch of raw alert messages: decode, map, group and store in one transaction.',
    buckets: LATENCY_BUCKETS,
  },
  alert_processor_consumer_lag_messages: {
    type: 'gauge',
    labels: ['partition'],
    help: 'Messages of alerts.raw.v1 behind the last one this processor stored, per partition it consumes (high watermark - next offset).',
  },
  alert_processor_dead_letters_total: {
    type: 'counter',
    labels: [],
    help: 'Raw alert messages sent to alerts.raw.v1.dlq with the reason.',
  },
  alert_processor_replies_total: {
    type: 'counter',
    labels: ['outcome'],
    help: "Replies posted to the waiting gateways after the commit: delivered (a request was waiting), late (the gateway had answered 202) or failed (no answer within PROCESSOR_REPLY_TIMEOUT_MS, refused, unreachable; the caller gets 202).",
  },
  alert_processor_notifications_total: {
    type: 'counter',
    labels: ['status'],
    help: 'Alert email notifications the mailer handled, by what became of each: sent, failed (refused at its last attempt), suppressed (over the hourly cap) or pending (refused, retried later).',
  },
  alert_processor_workflow_consuming: {
    type: 'gauge',
    labels: ['consumer'],
    help: "1 while a consumer of the alert workflow (consumer=\"incident_automation\", \"alert_email_events\" or \"escalation_events\") reads alerts.events.v1 in this instance, 0 while it is idle because no project has its setting (or an escalation policy) on.",
  },
  alert_processor_escalation_steps_total: {
    type: 'counter',
    labels: ['outcome'],
    help: 'Escalation steps (a rule of a loop) the engine took: outcome="due" for every step taken, "late" for those taken more than ESCALATION_LATE_SECONDS after they were due (a processor down or behind).',
  },
  alert_processor_escalation_step_delay_seconds: {
    type: 'histogram',
    labels: [],
    help: 'How long after it was due each escalation step was taken.',
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
  },
  alert_processor_escalation_pages_total: {
    type: 'counter',
    labels: ['method', 'status'],
    help: 'Pages and notices the engine handled, by method (email, webhook) and what became of each: sent, failed (at its last attempt), retried (refused, tried again later) or cancelled (the alert was acknowledged or resolved before it went).',
  },
  // Outbox relays: outbox="alert_events" (alert-processor), "integration_snapshots" (integration-config).
  outbox_backlog_rows: {
    type: 'gauge',
    labels: ['outbox'],
    help: 'Unpublished rows of the outbox, as the relay leading it last measured them (only the replica that leads reports it).',
  },
  outbox_oldest_age_seconds: {
    type: 'gauge',
    labels: ['outbox'],
    help: 'Age of the oldest unpublished row of the outbox (only the replica that leads reports it).',
  },
  outbox_published_total: {
    type: 'counter',
    labels: ['outbox'],
    help: "Outbox rows this instance's relay published to the outbox's topic.",
  },
  outbox_dead_letters_total: {
    type: 'counter',
    labels: ['outbox'],
    help: "Outbox rows the broker refused for good, which this instance's relay sent to the topic's .dlq.",
  },
  // Sharded outbox relays (outbox="alert_events"): what each shard's relay in this instance does.
  outbox_shards_led: {
    type: 'gauge',
    labels: ['outbox'],
    help: 'Shards of the outbox whose relay this instance leads at the moment (a fair share of the shards among the live instances).',
  },
  outbox_shard_published_total: {
    type: 'counter',
    labels: ['outbox', 'shard'],
    help: "Outbox rows of one shard this instance's relay published to the outbox's topic.",
  },
  // integration-config
  integration_config_integration_changes_total: {
    type: 'counter',
    labels: ['change'],
    help: 'Alert integration changes committed: created, updated, deleted, key_reset (authorization key reset).',
  },
} as const satisfies Record<string, ServiceMetricDefinition>;

/** Everything a service exposes that rules and dashboards may use. */
export const METRICS: Readonly<Record<string, MetricDefinition>> = { ...DEFAULT_METRICS, ...SERVICE_METRICS };

export type ServiceMetricName = keyof typeof SERVICE_METRICS;
