import { BaseEnv, BooleanSetting, HEARTBEAT_MINUTE_MS_DEFAULT, HeartbeatMinuteSetting, IntegerSetting, LOCAL_ADMIN_TOKEN } from '@alert-ingestion/config';
import { MAX_MESSAGE_BYTES } from '@alert-ingestion/contracts';
import { PROCESSOR_ROLES, ProcessorRole } from '@alert-ingestion/alerts-feature';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsIn, IsOptional, IsString, Matches } from 'class-validator';

/** The alert processor's environment (CONTRACT.md "Processes and defaults"), validated once at start-up. */
export class AlertProcessorEnv extends BaseEnv {
  override PORT = 8082;

  /** Bootstrap administrator token; may read every project's alerts. */
  @IsString()
  ADMIN_TOKEN = LOCAL_ADMIN_TOKEN;

  /**
   * What this instance runs besides the alerts API, comma-separated: `intake` (raw alerts, delivery
   * records, the event relays) and `workflow` (incidents opened and closed by alerts, alert emails).
   * Both by default; processors of the workflow role alone keep an alert storm's incidents and emails
   * off intake's cores (docs/operating.md "The alert workflow apart from intake").
   */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((role) => role.trim()) : value), { toClassOnly: true })
  @ArrayNotEmpty({ message: 'must name at least one of intake, workflow' })
  @IsIn(PROCESSOR_ROLES, { each: true, message: 'may only name intake and workflow' })
  PROCESSOR_ROLES: ProcessorRole[] = [...PROCESSOR_ROLES];

  /**
   * The process's CPU niceness (0 to 19, as `nice` takes it): a processor of the workflow role alone
   * on the machines of intake gives way to it with 10. In Kubernetes, give it pods of its own instead.
   */
  @IntegerSetting({ min: 0, max: 19 })
  PROCESSOR_NICENESS = 0;

  /** Most raw alert messages stored in one database transaction. */
  @IntegerSetting({ min: 1, max: 10_000 })
  PROCESSOR_MAX_BATCH_MESSAGES = 1000;

  /**
   * Longest a raw-alert fetch waits on the broker when there is nothing to read. The broker answers
   * as soon as one message arrives, so this is not added to the receive latency; a short wait only
   * makes an idle processor poll: 5 ms kept the broker and the processor busy at rest (measured:
   * broker ~24% and processor ~18% of a core with no traffic, ~6% and ~7% at 500 ms, same
   * throughput and unloaded latency under the benchmark).
   */
  @IntegerSetting({ min: 0, max: 10_000 })
  PROCESSOR_MAX_WAIT_MS = 500;

  /** Partitions of alerts.raw.v1 processed at the same time by one instance (one transaction each). */
  @IntegerSetting({ min: 1, max: 64 })
  PROCESSOR_PARTITIONS_CONCURRENTLY = 4;

  /**
   * Bytes a fetch asks for per partition: by default what one record of alerts.raw.v1 may be
   * (MAX_MESSAGE_BYTES). The broker returns a larger record anyway, alone.
   */
  @IntegerSetting({ min: 1024 })
  PROCESSOR_MAX_BYTES_PER_PARTITION = MAX_MESSAGE_BYTES;

  @IntegerSetting({ min: 1024 })
  PROCESSOR_MAX_BYTES = 10_485_760;

  /**
   * Least time between two offset commits of raw alerts. Offsets only ever cover stored and answered
   * messages; committing less often costs nothing but a few more redeliveries after a crash (which
   * processed_raw_alerts turns into repeated answers), and saves the broker an OffsetCommit per batch.
   */
  @IntegerSetting({ min: 0, max: 60_000 })
  PROCESSOR_COMMIT_INTERVAL_MS = 200;

  /**
   * How long posting a batch's replies to a waiting gateway instance may take (the reply hop). A
   * gateway that does not answer in time costs its callers a 202, never an alert, and never holds up
   * the partition. Short: a reply is only worth anything while its request still waits.
   */
  @IntegerSetting({ min: 50, max: 60_000 })
  PROCESSOR_REPLY_TIMEOUT_MS = 2_000;

  @IntegerSetting({ min: 1000 })
  PROCESSOR_SESSION_TIMEOUT_MS = 10_000;

  @IntegerSetting({ min: 100 })
  PROCESSOR_HEARTBEAT_INTERVAL_MS = 1_000;

  /** How long a raw alert waits for its integration to appear in the integrations view before it is dead-lettered. */
  @IntegerSetting({ min: 0 })
  INTEGRATION_LOOKUP_TIMEOUT_MS = 5_000;

  /**
   * How long the idempotency record of a processed raw alert (processed_raw_alerts) is kept. It
   * must cover alerts.raw.v1's retention (Kafka's default: 168 hours), the longest a message can
   * still be redelivered; older records are removed.
   */
  @IntegerSetting({ min: 1 })
  PROCESSED_REQUEST_RETENTION_HOURS = 168;

  /** How often old idempotency records are swept. */
  @IntegerSetting({ min: 1 })
  PROCESSED_REQUEST_SWEEP_MINUTES = 60;

  /**
   * Deliveries kept per integration (CONTRACT.md: at least the last 100 of 7 days); 0 records none.
   * Older ones, and ones beyond DELIVERIES_RETENTION_HOURS, are swept every DELIVERIES_SWEEP_MINUTES.
   */
  @IntegerSetting({ min: 0 })
  DELIVERIES_KEEP_PER_INTEGRATION = 1_000;

  @IntegerSetting({ min: 1 })
  DELIVERIES_RETENTION_HOURS = 168;

  @IntegerSetting({ min: 1 })
  DELIVERIES_SWEEP_MINUTES = 10;

  @IntegerSetting({ min: 2, max: 200 })
  DATABASE_POOL_SIZE = 10;

  /** How often the heartbeat checker looks for integrations that received no request within their interval. */
  @IntegerSetting({ min: 100 })
  HEARTBEAT_CHECK_INTERVAL_MS = 15_000;

  @HeartbeatMinuteSetting()
  HEARTBEAT_MINUTE_MS = HEARTBEAT_MINUTE_MS_DEFAULT;

  /**
   * Shards of the alert event outbox: each is published by one processor at a time, and the shards
   * are spread evenly over the live processors, so the events rate grows with the processors. Every
   * processor must use the same value; changing it needs all processors stopped first (docs/operating.md).
   */
  @IntegerSetting({ min: 1, max: 256 })
  EVENT_RELAY_SHARDS = 8;

  /** How often a processor checks which processors are live and takes or hands over event relay shards. */
  @IntegerSetting({ min: 10 })
  EVENT_RELAY_REBALANCE_MS = 1_000;

  /** Outbox rows published per Kafka transaction. */
  @IntegerSetting({ min: 1, max: 10_000 })
  EVENT_RELAY_BATCH_SIZE = 1000;

  /**
   * After a batch that did not fill EVENT_RELAY_BATCH_SIZE, wait this long before the next, so that
   * a steady stream of alerts is published in few Kafka transactions (each costs about eight broker
   * requests, whatever its size) instead of one per processed batch. The event relay shards one
   * processor leads share this budget: each waits this times their number, so events are at most
   * that much later.
   */
  @IntegerSetting({ min: 0, max: 10_000 })
  EVENT_RELAY_LINGER_MS = 100;

  /**
   * Fallback poll of the outbox when no notification arrives. Every committed write notifies the
   * relay that leads (LISTEN), so the poll only covers a notification missed; each shard's relay
   * polls, so a short one is what an idle processor's relays cost.
   */
  @IntegerSetting({ min: 10 })
  EVENT_RELAY_POLL_MS = 5_000;

  /** Pause before another attempt to become the relay (another instance leads), and the first wait after a failure. */
  @IntegerSetting({ min: 10 })
  EVENT_RELAY_RETRY_MS = 1_000;

  /** Longest wait between attempts while publishing keeps failing (the wait doubles from EVENT_RELAY_RETRY_MS). */
  @IntegerSetting({ min: 10 })
  EVENT_RELAY_MAX_RETRY_MS = 30_000;

  /** Attempts at an event the broker refuses (too large, malformed) before it goes to alerts.events.v1.dlq. */
  @IntegerSetting({ min: 1, max: 100 })
  EVENT_RELAY_MAX_ATTEMPTS = 3;

  /** The relay counts as behind (logged, and /healthz answers 503) while an event waits longer than this. */
  @IntegerSetting({ min: 1 })
  EVENT_RELAY_STALL_SECONDS = 60;

  /**
   * The SMTP server alert emails are sent through (`smtp://user:pass@host:587`, `smtps://...`), as
   * nodemailer takes it. Unset: no email is sent, and the alert settings say email is not configured.
   */
  @IsOptional()
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** The sender of alert emails (an address, or `Name <address>`). */
  @IsString()
  EMAIL_FROM = 'Alert ingestion <alerts@localhost>';

  /** The console's address (`https://alerts.example.com`): alert emails link to the alert's page under it. Unset: no link. */
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'must be an http:// or https:// URL' })
  CONSOLE_URL?: string;

  /** A recipient's alert emails within this many seconds of the first go out as one message (a storm is one email). */
  @IntegerSetting({ min: 0, max: 3_600 })
  EMAIL_BUNDLE_SECONDS = 30;

  /** Alert emails one recipient gets per rolling hour; what is due beyond it is recorded `suppressed`, never sent. */
  @IntegerSetting({ min: 1 })
  EMAIL_HOURLY_CAP = 20;

  /** Attempts at an email the server refuses or cannot be reached for, before it is recorded `failed`. */
  @IntegerSetting({ min: 1, max: 100 })
  EMAIL_MAX_ATTEMPTS = 8;

  /** Wait after the first refused attempt; it doubles with each further one, up to EMAIL_MAX_RETRY_MS. */
  @IntegerSetting({ min: 10 })
  EMAIL_RETRY_MS = 30_000;

  @IntegerSetting({ min: 10 })
  EMAIL_MAX_RETRY_MS = 1_800_000;

  /** How often the mailer looks for due emails. */
  @IntegerSetting({ min: 10 })
  EMAIL_POLL_MS = 1_000;

  /** Longest wait for the SMTP server's connection, greeting and each answer. */
  @IntegerSetting({ min: 100 })
  EMAIL_SMTP_TIMEOUT_MS = 10_000;

  /**
   * How long the mailer's claim of due emails is its own: it sends only while the claim has room for
   * a whole SMTP exchange (four EMAIL_SMTP_TIMEOUT_MS), and a mailer that stops mid-send leaves its
   * emails to be sent again (with the same Message-ID) once the claim runs out. Keep it well above
   * four EMAIL_SMTP_TIMEOUT_MS.
   */
  @IntegerSetting({ min: 1 })
  EMAIL_CLAIM_LEASE_SECONDS = 300;

  /** Alert events older than this mail nobody (a consumer catching up after an outage sends no stale news). */
  @IntegerSetting({ min: 1 })
  EMAIL_EVENT_MAX_AGE_MINUTES = 60;

  /**
   * How often the handoff publisher (on the processor of the workflow role that leads it) looks for
   * schedules whose on-call changes and for members who left their project: an `oncall.shift_started`
   * event is at most about this late.
   */
  @IntegerSetting({ min: 100, max: 600_000 })
  ONCALL_HANDOFF_CHECK_MS = 5_000;

  /**
   * **For tests only**: the length of an escalation policy's minute, so that rules of minutes page
   * in a test's seconds. Leave it at 60000 (the default) in any real deployment.
   */
  @IntegerSetting({ min: 1 })
  ESCALATION_MINUTE_MS = 60_000;

  /** How often the escalation engine (on processors of the workflow role) looks for due steps and pages: a page is at most about this late. */
  @IntegerSetting({ min: 10, max: 60_000 })
  ESCALATION_POLL_MS = 1_000;

  /**
   * How long the engine's claim of pages is its own: it sends only while the claim has room for a
   * whole attempt, and an engine that stops mid-send leaves its pages to be sent again (with the
   * same idempotency key and Message-ID) once the claim runs out.
   */
  @IntegerSetting({ min: 1 })
  ESCALATION_CLAIM_LEASE_SECONDS = 120;

  /** A step taken this long after it was due counts as late (alert_processor_escalation_steps_total{outcome="late"}). */
  @IntegerSetting({ min: 1 })
  ESCALATION_LATE_SECONDS = 30;

  /** Attempts at a page the server refuses, times out or cannot be reached for, before it is recorded `failed`. */
  @IntegerSetting({ min: 1, max: 100 })
  ESCALATION_PAGE_MAX_ATTEMPTS = 5;

  /** Wait after a page's first failed attempt; it doubles with each further one, up to ESCALATION_PAGE_MAX_RETRY_MS. */
  @IntegerSetting({ min: 10 })
  ESCALATION_PAGE_RETRY_MS = 10_000;

  @IntegerSetting({ min: 10 })
  ESCALATION_PAGE_MAX_RETRY_MS = 300_000;

  /** The longest a webhook page's POST may take (connection and answer). */
  @IntegerSetting({ min: 100, max: 60_000 })
  ESCALATION_WEBHOOK_TIMEOUT_MS = 5_000;

  /**
   * Whether webhook pages may go to private, loopback and link-local addresses (a URL is a member's or
   * a maintainer's: by default it must not reach into the service's own network). Tests set it: their
   * receiver listens on 127.0.0.1.
   */
  @BooleanSetting()
  ESCALATION_WEBHOOK_ALLOW_PRIVATE = false;
}
