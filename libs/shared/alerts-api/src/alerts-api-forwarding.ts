import { AlertsApiRouteDefinition, alertsApiPath, ALERTS_API_ROUTES } from './alerts-api.routes';

/** A request a service forwards to alert-processor: the table's route, and the URL as it is sent on. */
export interface AlertsApiForwarding {
  route: AlertsApiRouteDefinition;
  /** The request's path and query, unchanged: what was checked is exactly what the processor gets. */
  url: string;
}

/** `/api/v4/projects/:id/alerts/:iid` as a case-sensitive pattern of a path that has passed pathSegments. */
function routePattern(route: AlertsApiRouteDefinition): RegExp {
  const segments = alertsApiPath(route)
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`);
}

const ROUTE_PATTERNS = ALERTS_API_ROUTES.map((route) => ({ route, pattern: routePattern(route) }));

/** Escapes of `/` and `\`: a parameter that holds one could name another path once decoded. */
const ENCODED_SEPARATOR = /%(2f|5c)/i;

/**
 * The segments of a request path if no reading of it can name another path: an origin-form path
 * (not `http://host/...`), no backslash, no empty segment (`//`), no `.` or `..` segment however
 * written (`%2e%2e`), no escaped slash or backslash, no malformed escape. A trailing slash is allowed.
 * Routers and URL parsers differ on each of these (WHATWG URL resolves `%2e%2e` and `\`, Express does
 * not), so a path that depends on them is refused rather than resolved.
 */
function pathSegments(path: string): string[] | null {
  if (!path.startsWith('/') || path.includes('\\') || ENCODED_SEPARATOR.test(path)) return null;
  const segments = path.slice(1).replace(/\/$/, '').split('/');
  for (const segment of segments) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (decoded === '' || decoded === '.' || decoded === '..') return null;
  }
  return segments;
}

/**
 * Whether a request (its method and its URL as received, `request.originalUrl`) is one of the alerts
 * API's routes, and so may be forwarded to alert-processor; null for anything else, which must not
 * reach the processor (it would answer its other routes, or paths its router reads differently).
 * The one check of the forwarded paths: every route of ALERTS_API, nothing else.
 */
export function alertsApiForwarding(method: string, url: string): AlertsApiForwarding | null {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (pathSegments(path) === null) return null;
  const match = ROUTE_PATTERNS.find(({ route, pattern }) => route.method === method && pattern.test(path));
  return match ? { route: match.route, url } : null;
}
