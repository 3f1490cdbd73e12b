import { BaseEnv, HttpServerSettings } from '@alert-ingestion/config';
import type { JsonBodyLimitOptions } from '@alert-ingestion/json';
import { INestApplication } from '@nestjs/common';
import type { RequestListener, Server } from 'node:http';
import { HttpErrorFilter } from './http-error.filter';
import { inputPolicy } from './input-policy';
import { API_JSON_BODY_LIMITS, jsonBodyParser } from './json-body';
import { IdentifiedRequest, REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { setSecurityHeaders } from './security-headers';
import { FieldNamingValidationPipe } from './validation';
import { applyServerTimeouts, recordResponseInFlight } from './server-timeouts';
import type { ServiceLogging } from './service-logging';

/** BaseEnv's HTTP server settings as they are by default, for apps built without an environment (tests). */
const DEFAULT_HTTP_SERVER_SETTINGS: HttpServerSettings = new BaseEnv();

export interface HttpAppOptions {
  /** useServiceLogging's access lines and request context; without it requests are only given their id. */
  logging?: Pick<ServiceLogging, 'handleRequest'>;
  /** The server's timeouts (the service's env); DEFAULT_HTTP_SERVER_SETTINGS otherwise. */
  server?: HttpServerSettings;
  /** The JSON body limits of the service's API; API_JSON_BODY_LIMITS otherwise. */
  jsonBodyLimits?: JsonBodyLimitOptions;
}

/**
 * What every service's HTTP side shares: a request id and the security headers on every answer,
 * the server's timeouts, one JSON body parser with its limits, one input policy, one error format,
 * strict DTO validation and graceful shutdown (SIGTERM/SIGINT run onModuleDestroy and
 * beforeApplicationShutdown hooks, so consumers stop and in-flight work finishes before connections
 * close). Create the app with `bodyParser: false`, and add any other body parser before calling
 * this, so that the input policy sees every parsed body.
 */
export function configureHttpApp(app: INestApplication, options: HttpAppOptions = {}): INestApplication {
  const server = app.getHttpServer() as Server;
  applyServerTimeouts(server, options.server ?? DEFAULT_HTTP_SERVER_SETTINGS);
  installRequestHandling(server, options.logging);
  app.use(jsonBodyParser(options.jsonBodyLimits ?? API_JSON_BODY_LIMITS));
  app.use(inputPolicy());
  app.useGlobalFilters(new HttpErrorFilter());
  app.useGlobalPipes(new FieldNamingValidationPipe());
  app.enableShutdownHooks();
  return app;
}

/** Puts `wrap(next)` in front of the request listener Nest installed on its HTTP server. */
export function wrapRequestListener(server: Server, wrap: (next: RequestListener) => RequestListener): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`expected one request listener on the HTTP server, found ${listeners.length}`);
  server.removeAllListeners('request');
  server.on('request', wrap(listeners[0]));
}

/**
 * Every request gets its id (CONTRACT.md "Across all services": the caller's X-Request-Id, else a
 * new one) and the security headers before anything else runs: at the HTTP server, in front of
 * Express, so that answers Express or Nest give before routing (a body that is not JSON, an
 * unknown path) carry them too.
 */
function installRequestHandling(server: Server, logging: Pick<ServiceLogging, 'handleRequest'> | undefined): void {
  wrapRequestListener(server, (next) => (request, response) => {
    const identified = request as IdentifiedRequest;
    identified.id = requestIdOf(request.headers['x-request-id']);
    response.setHeader(REQUEST_ID_HEADER, identified.id);
    setSecurityHeaders(response);
    recordResponseInFlight(request.socket, response);
    if (logging) logging.handleRequest(identified, response, () => next(request, response));
    else next(request, response);
  });
}
