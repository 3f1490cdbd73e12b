import { acceptableRequestId, REQUEST_ID_HEADER, ServiceLogging, setSecurityHeaders, StructuredLogMessage, toErrorResponse, wrapRequestListener } from '@alert-ingestion/http';
import { secondsSince } from '@alert-ingestion/metrics';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestListener, Server, ServerResponse } from 'node:http';
import { AlertReceiveService, GatewayMetrics, RequestAbortedError } from '@alert-ingestion/gateway-feature';

/** `/alerts/notify/<url_token>.json`, the path of INTEGRATION_URL_PATH, with an optional query. */
const RECEIVE_PATH = /^\/alerts\/notify\/([^/?#]+)\.json(?:\?.*)?$/;

export interface ReceiveRouteOptions {
  /** True once shutdown began: answers then ask the client to close the connection. */
  draining: () => boolean;
  metrics: GatewayMetrics;
  /**
   * Write a debug line per answered request (status, time, request id; never the URL, whose token
   * names the integration). Decided once at start-up, so that the hot path pays nothing without it.
   */
  logAnswers?: boolean;
  /**
   * The service's logging (useServiceLogging): each request is handled in its request context, so
   * that every line written meanwhile names it (with the context off, ServiceLogging runs it as is).
   */
  logging: Pick<ServiceLogging, 'requestContext' | 'inRequestContext'>;
}

/**
 * Serves `POST <integration url>` straight from Node's HTTP server, in front of Express and Nest.
 *
 * Why not a Nest controller: this is the one hot route, and on the 2-core benchmark machine
 * Express routing plus Nest's execution context took about 100 µs of the 230 µs of CPU the gateway
 * spent per request (measured with a gateway-only load test), while the route needs none of what
 * they offer:
 * it reads its own body stream (no body parser), has no DTO to validate and no guard. Everything
 * else (GET /healthz, unknown paths, other methods on this path) still goes to the Nest app, and
 * errors use the same `{error, message}` mapping as HttpErrorFilter (toErrorResponse). The request
 * id costs one header read and one header write, and the security headers a few header writes, as
 * for the Nest routes (configureHttpApp).
 */
export function receiveAlertRoute(receiving: AlertReceiveService, next: RequestListener, options: ReceiveRouteOptions): RequestListener {
  const logger = new Logger('ReceiveAlert');
  const { inRequestContext, requestContext } = options.logging;
  // The route's own lines name the request unless the context already does (a field written twice
  // would appear twice in a JSON line).
  const named = (requestId: string) => (requestContext ? {} : { request_id: requestId });
  return (request, response) => {
    const match = request.method === 'POST' && request.url ? RECEIVE_PATH.exec(request.url) : null;
    if (!match) {
      next(request, response);
      return;
    }
    let urlToken: string;
    try {
      urlToken = decodeURIComponent(match[1]);
    } catch {
      urlToken = match[1]; // not a valid escape: no integration has it, so it answers 404
    }
    const start = performance.now();
    const callerRequestId = acceptableRequestId(request.headers['x-request-id']);
    const requestId = callerRequestId ?? randomUUID();
    response.setHeader(REQUEST_ID_HEADER, requestId);
    setSecurityHeaders(response);
    if (options.draining()) response.setHeader('Connection', 'close');
    inRequestContext(requestId, () => {
      if (options.logAnswers) logAnswer(response, named(requestId), start, logger);
      receiving
        .receive({
          requestId,
          requestIdFromCaller: callerRequestId !== undefined,
          urlToken,
          authorization: request.headers.authorization,
          contentLength: request.headers['content-length'],
          idempotencyKey: request.headers['idempotency-key'],
          signatureHeaders: request.headers,
          body: request,
        })
        .then(
          (answer) => {
            // The rest of an oversized body is not read: close the connection instead of draining it.
            if (answer.closeConnection) response.setHeader('Connection', 'close');
            sendJson(response, answer.status, answer.body, answer.headers);
            options.metrics.received(answer.status, secondsSince(start));
          },
          (error: unknown) => {
            const status = sendError(response, error, named(requestId), logger);
            if (status !== undefined) options.metrics.received(status, secondsSince(start));
          },
        );
    });
  };
}

/** Puts the receive route in front of the request listener Nest installed on its HTTP server. */
export function installReceiveAlertRoute(server: Server, receiving: AlertReceiveService, options: ReceiveRouteOptions): void {
  wrapRequestListener(server, (next) => receiveAlertRoute(receiving, next, options));
}

function logAnswer(response: ServerResponse, requestName: { request_id?: string }, start: number, logger: Logger): void {
  response.once('finish', () => {
    const durationMs = Math.round(performance.now() - start);
    logger.debug({ message: `POST <integration url> ${response.statusCode}`, ...requestName, status: response.statusCode, duration_ms: durationMs } satisfies StructuredLogMessage);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

/**
 * What the receive service did not answer itself: an unexpected error (500), or a client that went
 * away. Returns the status answered, if any.
 */
function sendError(response: ServerResponse, error: unknown, requestName: { request_id?: string }, logger: Logger): number | undefined {
  // The client went away mid-body: there is nobody to answer, and nothing was published.
  if (error instanceof RequestAbortedError) return undefined;
  const { status, body } = toErrorResponse(error);
  logger.error({ message: error instanceof Error ? (error.stack ?? error.message) : String(error), ...requestName } satisfies StructuredLogMessage);
  sendJson(response, status, body);
  return status;
}
