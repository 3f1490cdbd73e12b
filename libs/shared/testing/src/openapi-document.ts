import type { ApiOperationsMiddleware } from '@alert-ingestion/http';
import type { INestApplication } from '@nestjs/common';
import { chromium } from 'playwright-core';

/** A route as the OpenAPI document names it: upper-case method and `{param}` path. */
export type Operation = `${string} ${string}`;

interface ExpressLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: Partial<ApiOperationsMiddleware>;
}

/** Where the services serve their OpenAPI document and Swagger UI (see serveOpenApi), and their AsyncAPI document (serveAsyncApi). */
const DOCUMENTATION = /^\/api\/v4\/(openapi\.json|asyncapi\.json|docs)(\/|$)/;

/**
 * The API routes the app's Express router actually holds, whoever registered them (a controller or
 * a direct `app.get`), and the operations a middleware mounted on a path prefix answers (a proxy:
 * it names them, see ApiOperationsMiddleware): paths under /api/, without the documentation's own
 * routes. Paths outside /api/ (the web console at `/`, /healthz, /metrics) are not the API the
 * document describes.
 */
export function registeredApiOperations(app: INestApplication): Operation[] {
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: ExpressLayer[] } };
  const stack = express.router?.stack;
  if (!stack) throw new Error('the HTTP adapter is not Express 5 (no router stack)');
  const operations = new Set<Operation>();
  for (const layer of stack) {
    for (const operation of layer.handle?.apiOperations ?? []) operations.add(operation as Operation);
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      if (!path.startsWith('/api/') || DOCUMENTATION.test(path)) continue;
      const documentPath = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const [method, handled] of Object.entries(layer.route.methods)) {
        if (handled && method !== '_all') operations.add(`${method.toUpperCase()} ${documentPath}`);
      }
    }
  }
  return [...operations].sort();
}

interface SchemaRef {
  $ref?: string;
}

interface DocumentOperation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: SchemaRef & Record<string, unknown> }> }>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, DocumentOperation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
const ERROR_BODY = '#/components/schemas/ErrorBodyDto';
const TOKEN_SECURITY = JSON.stringify([{ bearer_token: [] }, { private_token: [] }]);

/** The API operations the document describes (paths under /api/). */
export function documentedApiOperations(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/'))
    .flatMap(([path, item]) => Object.keys(item).filter((method) => HTTP_METHODS.has(method)).map((method): Operation => `${method.toUpperCase()} ${path}`))
    .sort();
}

/**
 * What the OpenAPI document gets wrong about the app, as readable problems (none: `[]`):
 * - a route the app registers that the document lacks (decorate it: see the controllers), or one
 *   the document describes that the app does not serve;
 * - an operation without its path parameters, without a 2xx answer with a body schema (204 aside),
 *   with an error answer whose body is not `{error, message}`, with a request body but no 400;
 * - an operation that takes a token without both token headers and a 401, or one open to anyone
 *   that is not in `open`.
 */
export function openApiProblems(document: OpenApiDocument, registered: Operation[], open: Operation[]): string[] {
  const problems: string[] = [];
  const documented = documentedApiOperations(document);
  for (const operation of registered) if (!documented.includes(operation)) problems.push(`${operation}: served but missing from the document`);
  for (const operation of documented) if (!registered.includes(operation)) problems.push(`${operation}: in the document but not served`);

  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const responses = operation.responses ?? {};
      for (const [, parameter] of path.matchAll(/\{([^}]+)\}/g)) {
        if (!operation.parameters?.some((declared) => declared.in === 'path' && declared.name === parameter)) problems.push(`${name}: path parameter ${parameter} is not declared`);
      }
      const successes = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
      if (successes.length === 0) problems.push(`${name}: no 2xx answer`);
      for (const status of successes) {
        // JSON, or a document of its own type (an iCalendar feed's text/calendar).
        if (status !== '204' && !Object.values(responses[status].content ?? {}).some((body) => body.schema)) problems.push(`${name}: ${status} has no body schema`);
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        if (response.content?.['application/json']?.schema?.$ref !== ERROR_BODY) problems.push(`${name}: ${status} does not answer {error, message}`);
      }
      if (operation.requestBody && !responses['400']) problems.push(`${name}: takes a body but documents no 400`);
      if (operation.security && operation.security.length > 0) {
        if (JSON.stringify(operation.security) !== TOKEN_SECURITY) problems.push(`${name}: security is not "Authorization: Bearer or PRIVATE-TOKEN"`);
        if (!responses['401']) problems.push(`${name}: takes a token but documents no 401`);
      } else if (!open.includes(name as Operation)) {
        problems.push(`${name}: open to anyone (no security) but not expected to be`);
      }
    }
  }
  return problems;
}

export interface DocsPageVisit {
  title: string;
  /** Operations Swagger UI shows. */
  operations: number;
  /** Every URL the page asked for. */
  requests: string[];
  /** Status of each same-origin answer, by path. */
  statuses: Record<string, number>;
}

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Opens a Swagger UI page in Debian's Chromium with every other origin cut off, and reports what it
 * asked for and what it shows once the operations are rendered.
 */
export async function visitDocsPage(url: string): Promise<DocsPageVisit> {
  const origin = new URL(url).origin;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    const requests: string[] = [];
    const statuses: Record<string, number> = {};
    await page.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort('internetdisconnected')));
    page.on('request', (request) => void requests.push(request.url()));
    page.on('response', (response) => {
      const answered = new URL(response.url());
      if (answered.origin === origin) statuses[answered.pathname] = response.status();
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('.swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
    const title = (await page.locator('.swagger-ui .info .title').first().textContent())?.trim() ?? '';
    const operations = await page.locator('.swagger-ui .opblock').count();
    return { title, operations, requests, statuses };
  } finally {
    await browser.close();
  }
}
