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

  constructor(
    registry: Registry,
    private readonly http: HttpRequestMetrics,
  ) {
    this.receiveRequests = counter(registry, 'gateway_receive_requests_total');
    for (const status of RECEIVE_STATUSES) this.receiveRequests.inc({ status }, 0);
    this.replyWait = histogram(registry, 'gateway_reply_wait_seconds');
    this.publishErrors = counter(registry, 'gateway_publish_errors_total');
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

  /** A produce request to alerts.raw.v1 failed. */
  publishFailed(): void {
    this.publishErrors.inc();
  }
}
