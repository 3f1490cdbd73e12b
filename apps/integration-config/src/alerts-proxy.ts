import { ALERTS_API_ROUTES, alertsApiForwarding, alertsApiOperation, alertsApiPath, forwardedPrefixPaths } from '@alert-ingestion/alerts-api';
import { ApiOperationsMiddleware, DomainError, IdentifiedRequest, NotFoundError, retryAfterHeader, ServiceUnavailableError, toErrorResponse } from '@alert-ingestion/http';
import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, fixRequestBody } from 'http-proxy-middleware';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Request headers the alerts API reads: the token (either form), the request id, the body's type and length, what it answers in, and the version a write expects (If-Match). */
const FORWARDED_REQUEST_HEADERS = new Set(['host', 'authorization', 'private-token', 'x-request-id', 'content-type', 'content-length', 'accept', 'if-match']);
/** Response headers passed back: the body's type and length, the request id, GitLab's paging headers, Retry-After, a version (ETag). */
const FORWARDED_RESPONSE_HEADERS = new Set([
  'content-type',
  'content-length',
  'x-request-id',
  'x-total',
  'x-total-pages',
  'x-page',
  'x-per-page',
  'x-next-page',
  'x-prev-page',
  'link',
  'retry-after',
  'etag',
]);
const TIMEOUT_MS = 15_000;
/** Failures to reach the processor at all: 503, worth a retry. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

class ProcessorTimeout extends Error {}

/** What an unanswered forwarded request tells the caller: `{error, message}`, as every error answer. */
function processorError(error: Error & { code?: unknown }): DomainError {
  if (error instanceof ProcessorTimeout) {
    return new DomainError(502, 'alert_processor_timeout', `The alerts API (alert-processor) did not answer within ${TIMEOUT_MS / 1000} s.`);
  }
  if (typeof error.code === 'string' && UNREACHABLE.has(error.code)) {
    return new ServiceUnavailableError(`The alerts API (alert-processor) cannot be reached (${error.code}).`, 5, 'alert_processor_unavailable');
  }
  return new DomainError(502, 'bad_gateway', 'The alerts API (alert-processor) gave no usable answer.');
}

function answerError(error: Error, response: ServerResponse | Socket): void {
  // Once the processor's answer has begun, the caller can only see it cut short.
  if (!('writeHead' in response) || response.headersSent) {
    response.destroy();
    return;
  }
  const { status, body, retryAfterSeconds } = toErrorResponse(processorError(error));
  if (retryAfterSeconds !== undefined) response.setHeader('Retry-After', retryAfterHeader(retryAfterSeconds));
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/**
 * The alerts API, forwarded to alert-processor (apps/integration-config/README.md "Console and alerts proxy"): one proxy
 * (http-proxy-middleware) for every path under ALERTS_API_PREFIXES. alertsApiForwarding decides
 * what goes (the table's routes, as sent; anything else under the prefixes is a 404 here); the
 * processor checks the token and the role. The caller's token, request id and body (re-sent as
 * JSON: the JSON body parser and the input policy have read it) go on; the status, the body and
 * the headers a client reads come back unchanged; a processor out of reach is a 503, one out of
 * time or giving no answer a 502.
 */
export function alertsApiProxy(processorUrl: string): RequestHandler & ApiOperationsMiddleware {
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: processorUrl,
    changeOrigin: true,
    on: {
      proxyReq(proxyRequest: ClientRequest, request: IncomingMessage) {
        for (const name of proxyRequest.getHeaderNames()) if (!FORWARDED_REQUEST_HEADERS.has(name)) proxyRequest.removeHeader(name);
        // The id this request is known by here (the caller's when usable, else the one made for it).
        proxyRequest.setHeader('x-request-id', (request as IdentifiedRequest).id);
        proxyRequest.setTimeout(TIMEOUT_MS, () => proxyRequest.destroy(new ProcessorTimeout()));
        // A text body (the on-call setup as YAML, which the text parser read) goes on as it came; a JSON one re-sent as JSON.
        const body = (request as IncomingMessage & { body?: unknown }).body;
        if (typeof body === 'string' && request.readableEnded) {
          proxyRequest.setHeader('content-length', Buffer.byteLength(body));
          proxyRequest.write(body);
        } else fixRequestBody(proxyRequest, request);
      },
      proxyRes(proxyResponse: IncomingMessage) {
        for (const name of Object.keys(proxyResponse.headers)) if (!FORWARDED_RESPONSE_HEADERS.has(name)) delete proxyResponse.headers[name];
      },
      error: (error, _request, response) => answerError(error, response),
    },
  });
  const forward = (request: Request, response: Response, next: NextFunction): void => {
    const forwarding = alertsApiForwarding(request.method, request.originalUrl);
    if (!forwarding) return next(new NotFoundError(`Cannot ${request.method} ${request.originalUrl.split('?')[0]}`));
    request.url = forwarding.url;
    // The route's pattern, as Express leaves it on a request it routed: the request metrics' label.
    (request as { route?: unknown }).route = { path: alertsApiPath(forwarding.route) };
    void proxy(request, response, next);
  };
  return Object.assign(forward, { apiOperations: ALERTS_API_ROUTES.map(alertsApiOperation) });
}

/** Mounts the proxy on the alerts API's prefixes (a project's, and the caller's own); call before the app's routes are registered (app.init). */
export function forwardAlertsApi(app: INestApplication, processorUrl: string): void {
  app.use(forwardedPrefixPaths(), alertsApiProxy(processorUrl.replace(/\/+$/, '')));
}
