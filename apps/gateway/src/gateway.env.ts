import { BooleanSetting, IntegerSetting, IntegrationKeyEnv } from '@alert-ingestion/config';
import { IsOptional, IsString, Matches } from 'class-validator';
import { MAX_RECORD_BATCH_VALUE_BYTES } from '@alert-ingestion/contracts';

/**
 * The gateway's environment. Defaults suit `npm start` and the benchmark on one machine; see
 * README.md for the meaning of each variable.
 */
export class GatewayEnv extends IntegrationKeyEnv {
  override PORT = 8080;

  /** How long a receive request waits for the processor's answer before it gets 202 {request_id}. */
  @IntegerSetting({ min: 1, max: 300_000 })
  GATEWAY_REPLY_TIMEOUT_MS = 10_000;

  /**
   * Default requests per minute per integration (an integration's own rate_limit_per_minute
   * overrides it), counted in fixed one-minute windows. 600,000 (10,000/s) lets one integration use
   * the whole pipeline during a benchmark run while still capping a runaway sender; lower it where
   * many tenants share the pipeline.
   */
  @IntegerSetting({ min: 1 })
  GATEWAY_RATE_LIMIT_PER_MINUTE = 600_000;

  /**
   * Redis (`redis://host:6379/0`) shared by every gateway instance for the rate limits; unset: each
   * instance counts alone (an integration may then reach its limit once per instance).
   */
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Prefix of every Redis key the gateway writes (tests use a per-run prefix). */
  @IsString()
  @Matches(/^[a-zA-Z0-9._:-]*$/, { message: 'may only hold letters, digits, ".", "_", ":" and "-"' })
  REDIS_KEY_PREFIX = 'alert-ingestion:';

  /** Most delivery records per integration per second one instance reports for refusals and 202s. */
  @IntegerSetting({ min: 1, max: 10_000 })
  GATEWAY_DELIVERY_RECORDS_PER_SECOND = 20;

  /**
   * How long the raw-alert publisher waits to collect more messages into one produce request.
   * 0 = only what arrives in the same event-loop turn; under load, messages that arrive while a
   * produce request is in flight are batched anyway, so latency stays low when idle.
   */
  @IntegerSetting({ min: 0, max: 1_000 })
  GATEWAY_BATCH_LINGER_MS = 0;

  /** Most messages in one produce request. */
  @IntegerSetting({ min: 1, max: 100_000 })
  GATEWAY_BATCH_MAX_MESSAGES = 1_000;

  /**
   * Most bytes (keys + values) in one produce request. A batch becomes one record batch per
   * partition, and a broker refuses a record batch above max.message.bytes (1 MB by default).
   * A single larger message (a body near the 1 MiB limit) is still sent, alone. At most what a
   * record batch of alerts.raw.v1 takes.
   */
  @IntegerSetting({ min: 1_024, max: MAX_RECORD_BATCH_VALUE_BYTES })
  GATEWAY_BATCH_MAX_BYTES = 900_000;

  /** Messages above this many bytes are produced alone, gzip-compressed (see BatchingProducer). */
  @IntegerSetting({ min: 1_024 })
  GATEWAY_COMPRESS_ABOVE_BYTES = 256 * 1024;

  /** Produce requests in flight at once; later messages accumulate into the next batch. */
  @IntegerSetting({ min: 1, max: 64 })
  GATEWAY_BATCH_MAX_IN_FLIGHT = 2;

  /**
   * Retries of a failed produce request before the receive request gets 503. Few and quick, so a
   * caller learns within about a second that Kafka is unavailable instead of hanging.
   */
  @IntegerSetting({ min: 0, max: 20 })
  GATEWAY_PRODUCE_RETRIES = 2;

  /** Retry-After (seconds) sent with 503 when Kafka is unavailable. */
  @IntegerSetting({ min: 1 })
  GATEWAY_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

  /**
   * The port of this instance's reply listener, where the processors post the replies it waits
   * for (never routed from outside; in Kubernetes a NetworkPolicy lets only the processors reach
   * it). 0: an ephemeral port (tests run several gateways on one machine).
   */
  @IntegerSetting({ min: 0, max: 65_535 })
  GATEWAY_REPLY_PORT = 8090;

  /**
   * The host of the reply listener's URL, which the raw alerts carry: where the processors reach
   * this instance (in Kubernetes the pod IP, from the downward API; in Docker Compose the service
   * name). 127.0.0.1 suits `npm start`, all on one machine.
   */
  @IsString()
  @Matches(/^[A-Za-z0-9.:_-]+$/, { message: 'must be a host name or an IP address' })
  GATEWAY_REPLY_HOST = '127.0.0.1';

  /**
   * The address the reply listener binds to; unset: GATEWAY_REPLY_HOST itself. Set it where the
   * name processors use is not an address of this host (0.0.0.0 behind a NAT or a proxy name).
   */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9.:_-]+$/, { message: 'must be a host name or an IP address' })
  GATEWAY_REPLY_BIND_HOST?: string;

  /** Largest body of one POST of replies (one processor batch's replies for this instance). */
  @IntegerSetting({ min: 1_024 })
  GATEWAY_REPLY_MAX_BODY_BYTES = 64 * 1024 * 1024;

  /**
   * How long a request for a URL (or with a key) this instance does not know waits for its view of
   * the integrations topic to catch up before it is refused: a URL is accepted as soon as its
   * create or activation has been answered.
   */
  @IntegerSetting({ min: 0, max: 10_000 })
  GATEWAY_INTEGRATION_WAIT_MS = 1_000;

  /**
   * With LOG_FORMAT=json, every line written while a request is handled names its request_id, the
   * receive route's included (an AsyncLocalStorage context per request). `false` leaves the
   * context out, for measuring what it costs: the receive route then names its request on its own
   * lines only, and other lines written meanwhile carry no request id.
   */
  @BooleanSetting()
  GATEWAY_REQUEST_CONTEXT = true;
}
