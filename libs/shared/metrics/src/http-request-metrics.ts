import type { IncomingMessage, ServerResponse } from 'node:http';
import { Histogram, Registry } from 'prom-client';
import { histogram, secondsSince } from './service-metrics';

/**
 * The `route` of a request no route handled: an unknown path (404), or a file the web console's
 * static middleware served. Never the URL itself: paths carry ids and URL tokens, and every distinct
 * label value is a series of its own.
 */
export const UNMATCHED_ROUTE = 'unmatched';

/** What Express leaves on a request it routed: the route's pattern, e.g. `/api/v4/projects/:id/alerts`. */
interface RoutedRequest extends IncomingMessage {
  route?: { path?: unknown };
}

/** The `route` label of a request: the pattern of the route that handled it, or UNMATCHED_ROUTE. */
export function routeLabel(request: IncomingMessage): string {
  const path = (request as RoutedRequest).route?.path;
  return typeof path === 'string' && path !== '' ? path : UNMATCHED_ROUTE;
}

/** `http_request_duration_seconds{method, route, status_code}` of one service. */
export class HttpRequestMetrics {
  private readonly duration: Histogram<'method' | 'route' | 'status_code'>;

  constructor(registry: Registry) {
    this.duration = histogram(registry, 'http_request_duration_seconds');
  }

  /** One answered request; `route` is a route pattern, never a URL. */
  observe(method: string, route: string, statusCode: number, seconds: number): void {
    this.duration.observe({ method, route, status_code: statusCode }, seconds);
  }

  /**
   * Express middleware timing every request from its arrival to the end of its answer, labelled with
   * the route Express matched (known only once it has been routed, hence read when the answer ends).
   */
  middleware(): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
    return (request, response, next) => {
      const start = performance.now();
      response.once('finish', () => this.observe(request.method ?? 'GET', routeLabel(request), response.statusCode, secondsSince(start)));
      next();
    };
  }
}
