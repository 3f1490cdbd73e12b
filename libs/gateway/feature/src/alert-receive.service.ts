import { encodeMessage, IntegrationSnapshot, RawAlert } from '@alert-ingestion/contracts';
import {
  alertBodyShapeViolation,
  authorizationKeyMatches,
  IntegrationRateLimiter,
  presentedAuthorizationKey,
} from '@alert-ingestion/gateway-domain';
import {
  BadRequestError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableEntityError,
} from '@alert-ingestion/http';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AlertReplyWaiter } from './alert-reply-waiter';
import { RawAlertPublisher } from './raw-alert-publisher';
import { readAlertBody } from './read-alert-body';

type IntegrationSnapshotValue = IntegrationSnapshot.IntegrationSnapshotValue;

/** Where the gateway finds integrations by the token in their URL (IntegrationRegistry fits). */
export interface IntegrationDirectory {
  findByUrlToken(urlToken: string): IntegrationSnapshotValue | undefined;
}

export interface ReceiveRequest {
  urlToken: string;
  authorization: string | undefined;
  contentLength: string | undefined;
  body: Readable;
}

/** A receive request's answer (errors are thrown as DomainErrors and mapped once by the filter). */
export type ReceiveOutcome =
  | { status: 200; body: Array<{ iid: number; title: string }> }
  | { status: 202; body: { request_id: string } };

export interface AlertReceiveOptions {
  replyTimeoutMs: number;
  unavailableRetryAfterSeconds: number;
  /** Current time in ms (injected so rate limiting is testable). */
  now?: () => number;
}

/**
 * `POST <integration url>` (spec 4.1, CONTRACT.md "Receiving alerts"), in the order that does the
 * least work for a request that will be refused:
 * 1. the integration by its URL token: unknown, inactive or not an HTTP endpoint -> 404;
 * 2. the authorization key, compared in constant time -> 401 (before the body is read);
 * 3. the integration's rate limit -> 429 with Retry-After (a throttled caller's body is never read);
 * 4. the body, limits checked while it streams -> 413 / 400, then JSON.parse and shape -> 400;
 * 5. publish to alerts.raw.v1 (acks all) -> 503 when Kafka does not take it;
 * 6. wait for the processor's reply: processed -> 200 [{iid, title}], rejected -> 422,
 *    none within the reply timeout -> 202 {request_id} (the alert is still processed).
 */
export class AlertReceiveService {
  private inFlight = 0;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly now: () => number;

  constructor(
    private readonly integrations: IntegrationDirectory,
    private readonly rateLimiter: IntegrationRateLimiter,
    private readonly publisher: RawAlertPublisher,
    private readonly replies: AlertReplyWaiter,
    private readonly options: AlertReceiveOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Receive requests between their first byte and their answer. */
  get inFlightRequests(): number {
    return this.inFlight;
  }

  /** Resolves when no receive request is in flight (graceful shutdown). */
  async idle(): Promise<void> {
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  async receive(request: ReceiveRequest): Promise<ReceiveOutcome> {
    this.inFlight++;
    try {
      return await this.process(request);
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  private async process(request: ReceiveRequest): Promise<ReceiveOutcome> {
    const integration = this.integrations.findByUrlToken(request.urlToken);
    // One answer for unknown, disabled and external-link integrations: a URL token reveals nothing.
    if (!integration || !integration.active || integration.type !== 'http') {
      throw new NotFoundError('No active alert integration has this URL.', 'integration_not_found');
    }

    const key = presentedAuthorizationKey(request.authorization);
    if (key === null || !authorizationKeyMatches(key, integration.authorization_key_sha256)) {
      throw new UnauthorizedError(
        'A valid authorization key is required: send "Authorization: Bearer <authorization_key>", or Basic credentials with a blank username and the key as password.',
        'unauthorized',
      );
    }

    const decision = this.rateLimiter.consume(integration.id, integration.rate_limit_per_minute, this.now());
    if (!decision.allowed) {
      throw new TooManyRequestsError(
        `Integration "${integration.name}" (id ${integration.id}) is over its rate limit of ${decision.limitPerMinute} requests per minute; retry after ${decision.retryAfterSeconds} s.`,
        decision.retryAfterSeconds,
        'rate_limit_exceeded',
      );
    }

    const body = await readAlertBody(request.body, request.contentLength);
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch (error) {
      throw new BadRequestError('invalid_json', `The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
    }
    const shapeViolation = alertBodyShapeViolation(payload);
    if (shapeViolation) throw new BadRequestError('invalid_payload', `The request body is not an alert: ${shapeViolation}.`);

    const requestId = randomUUID();
    const message: RawAlert.RawAlertValue = {
      request_id: requestId,
      integration_id: integration.id,
      project_id: integration.project_id,
      received_at: new Date(this.now()).toISOString(),
      reply_to: this.replies.instanceId,
      payload,
    };
    const pendingReply = this.replies.expect(requestId);
    try {
      await this.publisher.publish(integration.id, encodeMessage(message));
    } catch {
      // The publisher logs the Kafka error once per failed batch; broker addresses stay internal.
      pendingReply.cancel();
      throw new ServiceUnavailableError(
        'Kafka is unavailable; the alert was not accepted. Retry later.',
        this.options.unavailableRetryAfterSeconds,
        'kafka_unavailable',
      );
    }

    const reply = await pendingReply.wait(this.options.replyTimeoutMs);
    if (reply === null) return { status: 202, body: { request_id: requestId } };
    if (reply.status === 'rejected') {
      throw new UnprocessableEntityError(
        reply.error?.message ?? 'The payload cannot be processed.',
        reply.error?.error ?? 'unprocessable_payload',
      );
    }
    return { status: 200, body: reply.alerts.map((alert) => ({ iid: alert.iid, title: alert.title })) };
  }
}
