import { REPLY_REFUSALS, ReplyRefusal } from '@alert-ingestion/alert-replies';
import { counter, histogram, HttpRequestMetrics } from '@alert-ingestion/metrics';
import { Counter, Histogram, Registry } from 'prom-client';

/** The route label of `POST <integration url>` (INTEGRATION_URL_PATH as a pattern: the URL token stays out). */
export const RECEIVE_ROUTE = '/alerts/notify/:url_token.json';

/** The answers of the receive route (CONTRACT.md "Receiving alerts"): their series exist from the start, at 0. */
const RECEIVE_STATUSES = [200, 202, 400, 401, 404, 413, 422, 429, 503] as const;

/** The gateway's own metrics (docs/operating.md "Metrics"). */
export class GatewayMetrics {
  private readonly receiveRequests: Counter<'status'>;
  private readonly replyWait: Histogram;
  private readonly publishErrors: Counter;
  private readonly replies: Counter<'outcome'>;
  private readonly replyRefusals: Counter<'reason'>;

  constructor(
    registry: Registry,
    private readonly http: HttpRequestMetrics,
  ) {
    this.receiveRequests = counter(registry, 'gateway_receive_requests_total');
    for (const status of RECEIVE_STATUSES) this.receiveRequests.inc({ status }, 0);
    this.replyWait = histogram(registry, 'gateway_reply_wait_seconds');
    this.publishErrors = counter(registry, 'gateway_publish_errors_total');
    this.replies = counter(registry, 'gateway_replies_total');
    for (const outcome of ['delivered', 'late']) this.replies.inc({ outcome }, 0);
    this.replyRefusals = counter(registry, 'gateway_reply_requests_refused_total');
    for (const reason of REPLY_REFUSALS) this.replyRefusals.inc({ reason }, 0);
  }

  /**
   * A receive request answered with `status` after `seconds`. The receive route bypasses Express,
   * so it reports its own http_request_duration_seconds too: two observations per request.
   */
  received(status: number, seconds: number): void {
    this.receiveRequests.inc({ status });
    this.http.observe('POST', RECEIVE_ROUTE, status, seconds);
  }

  /** The processor's reply came `seconds` after the raw alert was in Kafka. */
  replied(seconds: number): void {
    this.replyWait.observe(seconds);
  }

  /** The reply listener took `delivered` replies a request waited for and `late` ones nobody waited for any more. */
  repliesTaken(delivered: number, late: number): void {
    if (delivered > 0) this.replies.inc({ outcome: 'delivered' }, delivered);
    if (late > 0) this.replies.inc({ outcome: 'late' }, late);
  }

  /** The reply listener refused a POST. */
  replyRefused(reason: ReplyRefusal): void {
    this.replyRefusals.inc({ reason });
  }

  /** A produce request to alerts.raw.v1 failed. */
  publishFailed(): void {
    this.publishErrors.inc();
  }
}
