import { DeliveryRecord, IntegrationSnapshot, RawAlert, Topic } from '@alert-ingestion/contracts';
import { AuthorizationKeyCipher, signingSecretCipher } from '@alert-ingestion/crypto';
import {
  alertBodyShapeViolation,
  AuthorizationKeyMatch,
  matchAuthorizationKey,
  presentedAuthorizationKey,
  RateLimitState,
  rateLimitHeaders,
  retryAfterSeconds,
  SignatureHeaders,
  verifyWebhookSignature,
  ReceiveMarks,
  serverTimingHeader,
} from '@alert-ingestion/gateway-domain';
import { secondsSince } from '@alert-ingestion/metrics';
import {
  BadRequestError,
  DomainError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableEntityError,
  retryAfterHeader,
  toErrorResponse,
} from '@alert-ingestion/http';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AlertReplyWaiter } from './alert-reply-waiter';
import { DeliveryRecorder } from './delivery-recorder';
import { GatewayMetrics } from './gateway-metrics';
import { IntegrationRateLimit } from './integration-rate-limit';
import { SignatureReplayCache, SignatureSpending } from './signature-replay-cache';
import { BatchedTopicProducer } from '@alert-ingestion/kafka';
import { BodySeen, readAlertBody } from './read-alert-body';

type IntegrationSnapshotValue = IntegrationSnapshot.IntegrationSnapshotValue;

/** Where the gateway finds integrations by the token in their URL (IntegrationRegistry fits). */
export interface IntegrationDirectory {
  findByUrlToken(urlToken: string): IntegrationSnapshotValue | undefined;
  /** The directory's freshness policy (TopicView.findFresh): a result that may be news waits for the directory to catch up. */
  findFresh<T>(find: () => T, isFinal: (found: T) => boolean, timeoutMs: number): Promise<T>;
}

export interface ReceiveRequest {
  /** The request's X-Request-Id: the caller's, or a new UUID v4. Answers (202), deliveries and raw alerts name the request by it. */
  requestId: string;
  /**
   * True when requestId is the caller's: it may repeat, so the request gets a delivery id of its
   * own. A requestId made by the gateway is unique and serves as the delivery id too.
   */
  requestIdFromCaller: boolean;
  urlToken: string;
  authorization: string | undefined;
  contentLength: string | undefined;
  /** The Idempotency-Key header(s), as Node gives them. */
  idempotencyKey: string | string[] | undefined;
  /** The request's headers (Node's object): read only for an integration that requires signed requests. */
  signatureHeaders: SignatureHeaders;
  body: Readable;
}

/** A receive request's answer: status, JSON body and headers (the rate-limit headers of a known integration). */
export interface ReceiveAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** The rest of the body was not read: the connection must close (413). */
  closeConnection?: boolean;
}

export interface AlertReceiveOptions {
  /** How long a receive request waits for the processor's answer before it gets 202 {request_id}. */
  replyTimeoutMs: number;
  /**
   * How long a request whose URL or key the gateway does not know waits for the integration view
   * to catch up with the integrations topic before it is refused (read-your-writes, see authenticate()).
   */
  integrationWaitMs: number;
  unavailableRetryAfterSeconds: number;
  /**
   * INTEGRATION_KEY_ENCRYPTION_KEY: the signing secrets of integrations travel encrypted in their
   * snapshots (signingSecretCipher), and the gateway decrypts them to verify signatures.
   */
  encryptionKey: Buffer;
  /** Current time in ms (injected so time-dependent rules are testable). */
  now?: () => number;
}

const EMPTY_BODY = Buffer.alloc(0);

/** The most characters of an Idempotency-Key (CONTRACT.md "Receiving alerts"). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** What one request has shown so far: what its delivery record and its headers are made of. */
interface Delivery {
  deliveryId: string;
  requestId: string;
  receivedAt: Date;
  integration?: IntegrationSnapshotValue;
  rateLimit?: RateLimitState;
  /** Which authorization key the request presented, once it matched one. */
  authorizationKey?: AuthorizationKeyMatch;
  /** The body as far as it was read, and its size (Content-Length's until it is read). */
  seen: BodySeen;
  /** Its raw alert is on alerts.raw.v1: the request was handed on (its signature stays spent). */
  published?: boolean;
  /** When each step ended, for the answer's Server-Timing header. */
  marks: Omit<ReceiveMarks, 'answeredMs'>;
}

/**
 * `POST <integration url>` (spec 4.1, CONTRACT.md "Receiving alerts"), in the order that does the
 * least work for a request that will be refused:
 * 1. the integration by its URL token: unknown, inactive or not an HTTP endpoint -> 404;
 * 2. the authorization key, compared in constant time -> 401 (before the body is read);
 * 3. the integration's rate limit -> 429 with Retry-After (a throttled caller's body is never read);
 * 4. the Idempotency-Key, when sent -> 400 when empty or longer than 255 characters;
 * 5. the body, limits checked while it streams -> 413 / 400; when the integration has a signing
 *    secret, its HMAC-SHA256 signature -> 401 missing_signature / missing_signature_timestamp /
 *    invalid_signature / stale_signature, and whether it was spent already -> 401 replayed_signature
 *    (see spendSignature); then JSON.parse and shape -> 400;
 * 6. publish to alerts.raw.v1 (acks all) -> 503 when Kafka does not take it;
 * 7. wait for the processor's reply: processed -> 200 [{iid, title}], rejected -> 422,
 *    none within the reply timeout -> 202 {request_id}, the X-Request-Id (the alert is still processed).
 * Every answer for a known integration carries its rate-limit headers. Refusals of a known URL
 * (400, 401, 413, 429) and 202s are reported as delivery records; the processor records the rest.
 */
export class AlertReceiveService {
  private inFlight = 0;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly now: () => number;
  private readonly signingSecrets: AuthorizationKeyCipher;
  /** Decrypted signing secrets by their ciphertext: decrypted once per snapshot, not per request. */
  private readonly decryptedSecrets = new Map<string, string>();

  constructor(
    private readonly integrations: IntegrationDirectory,
    private readonly rateLimit: IntegrationRateLimit,
    private readonly signatureReplays: SignatureReplayCache,
    private readonly publisher: Pick<BatchedTopicProducer<Topic.RawAlerts>, 'publish'>,
    private readonly deliveries: DeliveryRecorder,
    private readonly replies: AlertReplyWaiter,
    private readonly metrics: GatewayMetrics,
    private readonly options: AlertReceiveOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.signingSecrets = signingSecretCipher(options.encryptionKey);
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

  /**
   * Answers a receive request. Refusals the contract names come back as answers; anything else
   * (the client went away, an unexpected error) is thrown.
   */
  async receive(request: ReceiveRequest): Promise<ReceiveAnswer> {
    this.inFlight++;
    const deliveryId = request.requestIdFromCaller ? randomUUID() : request.requestId;
    const delivery: Delivery = {
      deliveryId,
      requestId: request.requestId,
      receivedAt: new Date(this.now()),
      seen: { received: EMPTY_BODY, bytes: Number(request.contentLength) || 0 },
      marks: { receivedMs: performance.now() },
    };
    try {
      const answer = await this.process(request, delivery);
      if (answer.status === 202) this.record(delivery, 202, null);
      return { ...answer, headers: this.headers(delivery) };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const { status, body, retryAfterSeconds } = toErrorResponse(error);
      this.record(delivery, status, body.error);
      // A 429's Retry-After comes with its rate-limit headers; a 503 names its own.
      const headers = this.headers(delivery);
      if (retryAfterSeconds !== undefined) headers['Retry-After'] ??= retryAfterHeader(retryAfterSeconds);
      return { status, body, headers, closeConnection: status === 413 };
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  private async process(request: ReceiveRequest, delivery: Delivery): Promise<{ status: number; body: unknown }> {
    const integration = await this.authenticate(request.urlToken, request.authorization, delivery);
    delivery.integration = integration;

    delivery.rateLimit = await this.rateLimit.consume(integration);
    if (!delivery.rateLimit.allowed) {
      throw new TooManyRequestsError(
        `Integration "${integration.name}" (id ${integration.id}) is over its rate limit of ${delivery.rateLimit.limit} requests per minute; retry after the time in Retry-After.`,
        retryAfterSeconds(delivery.rateLimit, this.now()),
        'rate_limit_exceeded',
      );
    }
    const idempotencyKey = idempotencyKeyOf(request.idempotencyKey);

    const body = await readAlertBody(request.body, request.contentLength, delivery.seen);
    // Integrations without a signing secret pay nothing here.
    const secret = integration.signing_secret_encrypted;
    const signature = secret === undefined ? undefined : await this.spendSignature(integration, secret, body, request.signatureHeaders, idempotencyKey);
    try {
      return await this.handOn(integration, body, idempotencyKey, delivery);
    } catch (error) {
      // Not handed on (refused as not JSON or not an alert, or Kafka did not take it): the signature
      // is not spent, so the sender's retry of the same signed request is judged afresh.
      if (signature && !delivery.published) await signature.release();
      throw error;
    }
  }

  /** Parses and publishes a received body, then waits for the processor's answer. */
  private async handOn(integration: IntegrationSnapshotValue, body: Buffer, idempotencyKey: string | undefined, delivery: Delivery): Promise<{ status: number; body: unknown }> {
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch (error) {
      throw new BadRequestError('invalid_json', `The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
    }
    const shapeViolation = alertBodyShapeViolation(payload);
    if (shapeViolation) throw new BadRequestError('invalid_payload', `The request body is not an alert: ${shapeViolation}.`);

    // Repeats of an Idempotency-Key share one request id: the processor answers them with the first answer.
    const requestId = idempotencyKey === undefined ? delivery.deliveryId : RawAlert.idempotentRequestId(integration.id, idempotencyKey);
    const envelope: RawAlert.RawAlertEnvelope = {
      request_id: requestId,
      integration_id: integration.id,
      project_id: integration.project_id,
      received_at: delivery.receivedAt.toISOString(),
      reply_to: this.replies.instanceId,
      reply_endpoint: this.replies.endpoint,
      ...(requestId === delivery.deliveryId ? {} : { delivery_id: delivery.deliveryId }),
      ...(delivery.requestId === delivery.deliveryId ? {} : { x_request_id: delivery.requestId }),
      ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
      ...(delivery.authorizationKey === undefined ? {} : authorizationKeyFields(delivery.authorizationKey)),
    };
    const pendingReply = this.replies.expect(requestId);
    delivery.marks.handedOnMs = performance.now();
    try {
      await this.publisher.publish(integration.id, { envelope, body });
    } catch {
      // The publisher logs the Kafka error once per failed batch; broker addresses stay internal.
      pendingReply.cancel();
      throw new ServiceUnavailableError('Kafka is unavailable; the alert was not accepted. Retry later.', this.options.unavailableRetryAfterSeconds, 'kafka_unavailable');
    }

    delivery.published = true;

    const published = (delivery.marks.publishedMs = performance.now());
    const reply = await pendingReply.wait(this.options.replyTimeoutMs);
    delivery.marks.repliedMs = performance.now();
    delivery.marks.replied = reply !== null;
    if (reply === null) return { status: 202, body: { request_id: delivery.requestId } };
    delivery.marks.storedMs = reply.stored_ms;
    this.metrics.replied(secondsSince(published));
    if (reply.status === 'rejected') {
      throw new UnprocessableEntityError(reply.error?.message ?? 'The payload cannot be processed.', reply.error?.error ?? 'unprocessable_payload');
    }
    return { status: 200, body: reply.alerts.map((alert) => ({ iid: alert.iid, title: alert.title })) };
  }

  /**
   * The integration a request may be received by, or the refusal. integration-config answers a
   * create, an activation or a key reset once its snapshot is on the integrations topic, but this
   * gateway's view reads it a moment later: a request that the view would refuse waits (bounded, one
   * wait shared by concurrent misses) until the view has caught up with the topic as it is now, and
   * is judged again. A URL or key is thus accepted as soon as its change has been answered.
   */
  private async authenticate(urlToken: string, authorization: string | undefined, delivery: Delivery): Promise<IntegrationSnapshotValue> {
    const key = presentedAuthorizationKey(authorization);
    const judge = () => {
      const integration = this.integrations.findByUrlToken(urlToken);
      const used = integration === undefined ? null : matchAuthorizationKey(key, integration, this.now());
      return { integration, used, refusal: this.refusal(integration, used) };
    };
    // A missing key stays missing whatever the view learns; an unknown URL or key may be news.
    const { integration, used, refusal } = await this.integrations.findFresh(
      judge,
      ({ refusal }) => !(refusal instanceof NotFoundError || (refusal !== undefined && key !== null)),
      this.options.integrationWaitMs,
    );
    if (refusal instanceof UnauthorizedError && integration) {
      // A known URL: the answer shows the integration's rate limit, without counting this request.
      delivery.integration = integration;
      delivery.rateLimit = await this.rateLimit.peek(integration);
    }
    if (refusal) throw refusal;
    if (used !== null) delivery.authorizationKey = used;
    return integration as IntegrationSnapshotValue;
  }

  /**
   * The request's signature over the raw body bytes, with the integration's signing secret. A
   * secret this gateway cannot decrypt means it was given another INTEGRATION_KEY_ENCRYPTION_KEY
   * than integration-config: a configuration error (500), not the sender's fault.
   */
  private verifySignature(integration: IntegrationSnapshotValue, encryptedSecret: string, body: Buffer, headers: SignatureHeaders) {
    let secret = this.decryptedSecrets.get(encryptedSecret);
    if (secret === undefined) {
      secret = this.signingSecrets.decrypt(encryptedSecret);
      if (this.decryptedSecrets.size >= 10_000) this.decryptedSecrets.clear();
      this.decryptedSecrets.set(encryptedSecret, secret);
    }
    const verdict = verifyWebhookSignature(secret, body, headers, this.now(), {
      allowGrafanaWithoutTimestamp: integration.allow_signature_without_timestamp === true,
    });
    if (!verdict.ok) throw new UnauthorizedError(verdict.message, verdict.error);
    return verdict;
  }

  /**
   * Verifies the request's signature and spends it: a valid signature is accepted once within its
   * freshness window (SignatureReplayCache, shared by the gateway instances through Redis). It is
   * reserved only once verified (an invalid one spends nothing), and only after the key, the rate
   * limit and the Idempotency-Key were checked, so a request those refuse never spends it either.
   * A request with the same Idempotency-Key as the one that spent it is a retry, not a replay: it
   * goes on and gets the first answer. The caller gives the signature back when the request is
   * then not handed on to Kafka.
   */
  private async spendSignature(
    integration: IntegrationSnapshotValue,
    encryptedSecret: string,
    body: Buffer,
    headers: SignatureHeaders,
    idempotencyKey: string | undefined,
  ): Promise<Extract<SignatureSpending, { replay: false }>> {
    const { digest, freshUntilMs } = this.verifySignature(integration, encryptedSecret, body, headers);
    const spending = await this.signatureReplays.spend(integration.id, digest, freshUntilMs, idempotencyKey);
    if (spending.replay) {
      throw new UnauthorizedError(
        'This signature was accepted already: a signed request is taken once while it is fresh (5 minutes). Sign each request anew (with a new timestamp, or a body that differs, e.g. by a delivery id); a retry that must get the first answer again needs the same Idempotency-Key.',
        'replayed_signature',
      );
    }
    return spending;
  }

  /** Which key matched decides the refusal: the integration's keys were compared by matchAuthorizationKey. */
  private refusal(integration: IntegrationSnapshotValue | undefined, used: AuthorizationKeyMatch | null): NotFoundError | UnauthorizedError | undefined {
    // One answer for unknown, disabled and external-link integrations: a URL token reveals nothing.
    if (!integration || !integration.active || integration.type !== 'http') {
      return new NotFoundError('No active alert integration has this URL.', 'integration_not_found');
    }
    if (used === null) {
      return new UnauthorizedError(
        'A valid authorization key is required: send "Authorization: Bearer <authorization_key>", or Basic credentials with a blank username and the key as password.',
        'unauthorized',
      );
    }
    return undefined;
  }

  private headers(delivery: Delivery): Record<string, string> {
    const timing = { 'Server-Timing': serverTimingHeader({ ...delivery.marks, answeredMs: performance.now() }) };
    return delivery.rateLimit ? { ...rateLimitHeaders(delivery.rateLimit, this.now()), ...timing } : timing;
  }

  /** Reports a delivery the processor does not record itself (never a credential: only the body). */
  private record(delivery: Delivery, status: DeliveryRecord.GatewayDeliveryStatus | number, error: string | null): void {
    const integration = delivery.integration;
    if (!integration || !(DeliveryRecord.GATEWAY_DELIVERY_STATUSES as readonly number[]).includes(status)) return;
    this.deliveries.record({
      delivery_id: delivery.deliveryId,
      request_id: delivery.requestId,
      integration_id: integration.id,
      project_id: integration.project_id,
      received_at: delivery.receivedAt.toISOString(),
      status: status as DeliveryRecord.GatewayDeliveryStatus,
      error,
      ...DeliveryRecord.deliveryBody(delivery.seen.received, delivery.seen.bytes),
      ...(delivery.authorizationKey === undefined ? { authorization_key: null } : authorizationKeyFields(delivery.authorizationKey)),
    });
  }
}

/** How a raw alert and a delivery record name the key a request used (a previous one by its expiry). */
function authorizationKeyFields(match: AuthorizationKeyMatch): { authorization_key: AuthorizationKeyMatch['used']; authorization_key_expires_at?: string } {
  return match.used === 'previous' ? { authorization_key: 'previous', authorization_key_expires_at: match.expires_at } : { authorization_key: 'current' };
}

/** The Idempotency-Key, when sent: 1 to 255 characters (CONTRACT.md), otherwise a 400. */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new BadRequestError('invalid_idempotency_key', `The Idempotency-Key header must be one value of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`);
  }
  return header;
}
