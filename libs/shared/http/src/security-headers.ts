import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Response headers as name and value. */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * Content-Security-Policy of each kind of answer. No policy allows inline scripts or any origin
 * but the service's own, and none lets another site frame the page (clickjacking).
 */
export const CONTENT_SECURITY_POLICIES = {
  /** JSON answers, errors and probes: nothing to render, nothing to load. */
  api: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
  /**
   * The web console as Vite builds it: one module script and one stylesheet from the same origin,
   * the API on the same origin (fetch), its favicon. React sets styles through the DOM, which
   * style-src does not govern.
   */
  webConsole: {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'"],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  },
  /**
   * Swagger UI at /api/v4/docs (swagger-ui-dist, served from our origin): its own scripts only, but
   * its page has inline <style> blocks and style attributes and its stylesheet draws icons from data:
   * URLs, so styles may be inline and images data:.
   */
  swaggerUi: {
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type ContentSecurityPolicyName = keyof typeof CONTENT_SECURITY_POLICIES;

/** What a helmet middleware sets, recorded once: the headers are the same for every answer. */
function headersSetBy(middleware: (request: IncomingMessage, response: ServerResponse, next: () => void) => void): HeaderList {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * helmet's headers: X-Content-Type-Options: nosniff, X-Frame-Options: DENY, Referrer-Policy:
 * no-referrer (links to an external tool do not tell it the console's URLs), Cross-Origin-Opener- and
 * -Resource-Policy same-origin, and the rest of its defaults. Strict-Transport-Security is left to
 * whatever terminates TLS in front of the services: they speak plain HTTP themselves.
 */
const STANDARD_HEADERS = headersSetBy(
  helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  }),
);

function policyHeader(name: ContentSecurityPolicyName): HeaderList {
  return headersSetBy(helmet.contentSecurityPolicy({ useDefaults: false, directives: CONTENT_SECURITY_POLICIES[name] }));
}

/** Every security header of an answer of each kind. */
export const SECURITY_HEADERS: Readonly<Record<ContentSecurityPolicyName, HeaderList>> = {
  api: [...STANDARD_HEADERS, ...policyHeader('api')],
  webConsole: [...STANDARD_HEADERS, ...policyHeader('webConsole')],
  swaggerUi: [...STANDARD_HEADERS, ...policyHeader('swaggerUi')],
};

/**
 * Sets the security headers of an answer (docs/operating.md "Security headers"). Every answer of every service
 * gets the API's set first; the console's files and Swagger UI's page set their own policy over it.
 */
export function setSecurityHeaders(response: Pick<ServerResponse, 'setHeader'>, kind: ContentSecurityPolicyName = 'api'): void {
  for (const [name, value] of SECURITY_HEADERS[kind]) response.setHeader(name, value);
}
