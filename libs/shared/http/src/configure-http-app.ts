import { INestApplication, ValidationPipe } from '@nestjs/common';
import type { RequestListener, Server } from 'node:http';
import { HttpErrorFilter } from './http-error.filter';
import { IdentifiedRequest, REQUEST_ID_HEADER, requestIdOf } from './request-id';
import type { ServiceLogging } from './service-logging';

/**
 * What every service's HTTP side shares: a request id on every request and response, one error
 * format, strict DTO validation and graceful shutdown (SIGTERM/SIGINT run
 * onModuleDestroy/beforeApplicationShutdown hooks, so consumers stop and in-flight work finishes
 * before connections close). `logging` (useServiceLogging) adds its access lines and request
 * context; without it requests are only given their id.
 */
export function configureHttpApp(app: INestApplication, logging?: Pick<ServiceLogging, 'handleRequest'>): INestApplication {
  installRequestIds(app.getHttpServer() as Server, logging);
  app.useGlobalFilters(new HttpErrorFilter());
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
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
 * new one) before anything else runs: at the HTTP server, in front of Express, so that answers
 * Express or Nest give before routing (a body that is not JSON, an unknown path) carry it too.
 */
function installRequestIds(server: Server, logging: Pick<ServiceLogging, 'handleRequest'> | undefined): void {
  wrapRequestListener(server, (next) => (request, response) => {
    const identified = request as IdentifiedRequest;
    identified.id = requestIdOf(request.headers['x-request-id']);
    response.setHeader(REQUEST_ID_HEADER, identified.id);
    if (logging) logging.handleRequest(identified, response, () => next(request, response));
    else next(request, response);
  });
}
