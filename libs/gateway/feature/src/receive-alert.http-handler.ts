import { PayloadTooLargeError, toErrorResponse } from '@alert-ingestion/http';
import { Logger } from '@nestjs/common';
import type { RequestListener, Server, ServerResponse } from 'node:http';
import { AlertReceiveService } from './alert-receive.service';
import { RequestAbortedError } from './read-alert-body';

/** `/alerts/notify/<url_token>.json`, the path of INTEGRATION_URL_PATH, with an optional query. */
const RECEIVE_PATH = /^\/alerts\/notify\/([^/?#]+)\.json(?:\?.*)?$/;

export interface ReceiveRouteOptions {
  /** True once shutdown began: answers then ask the client to close the connection. */
  draining: () => boolean;
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
 * errors use the same `{error, message}` mapping as HttpErrorFilter (toErrorResponse).
 */
export function receiveAlertRoute(receiving: AlertReceiveService, next: RequestListener, options: ReceiveRouteOptions): RequestListener {
  const logger = new Logger('ReceiveAlert');
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
    if (options.draining()) response.setHeader('Connection', 'close');
    receiving
      .receive({ urlToken, authorization: request.headers.authorization, contentLength: request.headers['content-length'], body: request })
      .then(
        (outcome) => sendJson(response, outcome.status, outcome.body),
        (error: unknown) => sendError(response, error, logger),
      );
  };
}

/** Puts the receive route in front of the request listener Nest installed on its HTTP server. */
export function installReceiveAlertRoute(server: Server, receiving: AlertReceiveService, options: ReceiveRouteOptions): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`expected one request listener on the HTTP server, found ${listeners.length}`);
  server.removeAllListeners('request');
  server.on('request', receiveAlertRoute(receiving, listeners[0], options));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function sendError(response: ServerResponse, error: unknown, logger: Logger): void {
  // The client went away mid-body: there is nobody to answer, and nothing was published.
  if (error instanceof RequestAbortedError) return;
  const { status, body, retryAfterSeconds } = toErrorResponse(error);
  if (status >= 500 && status !== 503) {
    logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  if (retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterSeconds))));
  // The rest of an oversized body is not read: close the connection instead of draining it.
  if (error instanceof PayloadTooLargeError) response.setHeader('Connection', 'close');
  sendJson(response, status, body);
}
