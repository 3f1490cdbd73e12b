import type { HttpServerSettings } from '@alert-ingestion/config';
import { randomUUID } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from './http-error.filter';
import { REQUEST_ID_HEADER } from './request-id';
import { SECURITY_HEADERS } from './security-headers';

/**
 * How often Node looks for requests past their headers or request timeout. Node's default, 30 s,
 * lets a 5 s timeout run to 35 s; a check every second (or every quarter of a shorter headers
 * timeout) cuts within a second of the bound. One check walks the connections that are receiving
 * a request, which costs nothing next to serving them.
 */
export function connectionsCheckingInterval(settings: HttpServerSettings): number {
  return Math.max(10, Math.min(1_000, Math.ceil(settings.HTTP_HEADERS_TIMEOUT_MS / 4)));
}

/** The answer Node's HTTP parser errors get, by error code; others are 400. */
const CLIENT_ERRORS: Readonly<Record<string, { status: number; reason: string; body: ErrorBody }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', body: { error: 'request_timeout', message: 'The request was not received in time.' } },
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', body: { error: 'request_headers_too_large', message: 'The request headers are too large.' } },
};
const BAD_REQUEST = { status: 400, reason: 'Bad Request', body: { error: 'bad_request', message: 'The request is not valid HTTP.' } };

/**
 * The raw answer to a request the HTTP server refused before any handler saw it: written straight to
 * the socket (there is no response object), in the `{error, message}` format of every other error,
 * with a request id and the security headers, and the connection closed.
 */
export function clientErrorAnswer(code: string | undefined): string {
  const { status, reason, body } = (code !== undefined && CLIENT_ERRORS[code]) || BAD_REQUEST;
  const text = JSON.stringify(body);
  const headers: Array<readonly [string, string]> = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Content-Length', String(Buffer.byteLength(text))],
    ['Connection', 'close'],
    [REQUEST_ID_HEADER, randomUUID()],
    ...SECURITY_HEADERS.api,
  ];
  return `HTTP/1.1 ${status} ${reason}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${text}`;
}

/**
 * The response in flight on each connection, so that a request cut while its answer is already being
 * written gets no second answer (recorded by the request wrapper of configureHttpApp).
 */
const responsesInFlight = new WeakMap<object, ServerResponse>();

export function recordResponseInFlight(socket: object, response: ServerResponse): void {
  responsesInFlight.set(socket, response);
}

/**
 * Answers what Node's HTTP parser refused, or a request past its timeout (see applyServerTimeouts).
 *
 * Node counts a new connection's headers timeout from the moment it accepts the connection, not
 * from the first byte it reads. On a starved process (the CPU taken for seconds), a client's
 * request can wait unread in the socket past the headers timeout and then be cut as if it were a
 * slow sender: under a loaded test machine the scale-out spec lost hundreds of alerts that way.
 * So a connection from which nothing has been read yet is not judged by the headers timeout: it is
 * left to be read, and closed only if still nothing has been read by the request timeout.
 */
function clientErrorHandler(settings: HttpServerSettings): (error: Error & { code?: string }, socket: Duplex) => void {
  const silentGrace = Math.max(0, settings.HTTP_REQUEST_TIMEOUT_MS - settings.HTTP_HEADERS_TIMEOUT_MS);
  return (error, socket) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket as Socket).bytesRead === 0 && silentGrace > 0) {
      const timer = setTimeout(() => {
        if ((socket as Socket).bytesRead === 0) socket.destroy();
      }, silentGrace);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
      return;
    }
    const response = responsesInFlight.get(socket);
    const answering = response !== undefined && response.headersSent && !response.writableFinished;
    // As Node's own handler: a reset connection, or one whose answer has begun, is only closed.
    if (socket.writable && !answering && error.code !== 'ECONNRESET') socket.write(clientErrorAnswer(error.code));
    socket.destroy();
  };
}

/**
 * Node's `server.close()` ends the connections that are idle at that moment and then waits for the
 * others; a connection still answering then (a client downloading the console's bundle, the
 * OpenAPI document or a Swagger UI asset) is kept alive after its answer like any other: for the
 * keep-alive timeout and Node's second of margin, 66 s by default, unless its client closes it
 * first. A graceful shutdown would wait that long, longer than the pods' grace period. From
 * close() on, a connection is kept only until its answer is complete: Node arms a connection's
 * keep-alive timeout when an answer ends, reading the server's setting at that moment, so the
 * least it accepts (1 ms, no margin) closes each connection as soon as it is idle.
 */
function keepNoConnectionAliveOnceClosing(server: Server): void {
  const close = server.close;
  server.close = function closeKeepingNoConnectionAlive(this: Server, ...args: Parameters<Server['close']>): Server {
    this.keepAliveTimeout = 1;
    this.keepAliveTimeoutBuffer = 0;
    return close.apply(this, args);
  };
}

/**
 * The timeouts of a service's HTTP server (docs/operating.md "Timeouts"), so that a slow or stalled sender is
 * cut within seconds instead of holding a connection and its file descriptor: headers, whole request
 * and keep-alive idle, checked every connectionsCheckingInterval. Node answers a request past its
 * headers or request timeout with 408 and closes the connection (here with an `{error, message}`
 * body); the request timeout ends when the request has been received, so a long answer (the
 * gateway waiting for the processor's reply) is never cut by it. Once the server is closing, no
 * connection is kept alive after its answer (keepNoConnectionAliveOnceClosing). Call before the
 * server listens: Node reads the checking interval when it starts listening.
 */
export function applyServerTimeouts(server: Server, settings: HttpServerSettings): void {
  server.headersTimeout = settings.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = settings.HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = settings.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = connectionsCheckingInterval(settings);
  server.on('clientError', clientErrorHandler(settings));
  keepNoConnectionAliveOnceClosing(server);
}
