/**
 * The console's client of the HTTP API: openapi-fetch over the types tools/console-api generates
 * from integration-config's OpenAPI document (`@alert-ingestion/contracts/http`, committed; `npm run
 * console-api` writes it, and `npm run typecheck` before it checks). Each call names a path of that
 * document; its parameters, body and answer are typed from it, so a server that drifts from the
 * console fails the console's type-check.
 *   const alert = await dataOf(api.GET('/api/v4/projects/{id}/alerts/{iid}', { params: { path: { id, iid } } }));
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
// crypto.randomUUID exists only in secure contexts; the console may be served over plain HTTP.
import { v4 as uuidv4 } from 'uuid';
import type { HttpSchemas, paths } from '@alert-ingestion/contracts/http';

/** The schemas of the API's bodies, by name (`Schemas['AlertDto']`). */
export type Schemas = HttpSchemas;

/** Every error the console shows comes from here: the API's own `{error, message}`, or why there was none. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request field the refusal is about, as the API names it (`ends_at`, `matchers[0].value`). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The public API (CONTRACT.md), typed by its OpenAPI document; every answer that is not 2xx rejects with an ApiError. */
export type ApiClient = Client<paths>;

/** GitLab's paging headers, as the list endpoints send them. */
export interface Paging {
  total: number | null;
  nextPage: number | null;
}

/** One page of a list endpoint: its items, and the paging headers. */
export interface ListPage<T> extends Paging {
  items: T[];
}

export function pagingOf(headers: Headers): Paging {
  const number = (name: string): number | null => {
    const value = headers.get(name);
    return value === null || value.trim() === '' || Number.isNaN(Number(value)) ? null : Number(value);
  };
  return { total: number('X-Total'), nextPage: number('X-Next-Page') };
}

type QueryValue = string | number | boolean | null | undefined;

/** Query parameters as the API reads them: one `name=value` each; an empty, null or missing value is not sent. */
function querySerializer(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query as Record<string, QueryValue>)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  return search.toString();
}

async function errorOf(response: Response): Promise<ApiError> {
  // A body that is not JSON (a proxy's error page) counts as none: the status line says what happened.
  const body = (await response.json().catch(() => null)) as { error?: unknown; message?: unknown; field?: unknown } | null;
  if (typeof body?.message === 'string') {
    const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
    return new ApiError(response.status, code, body.message, typeof body.field === 'string' ? body.field : undefined);
  }
  return new ApiError(response.status, `http_${response.status}`, `The server answered ${response.status} ${response.statusText}`.trim() + '.');
}

/**
 * The API with the signed-in token (none before sign-in). Each request carries an `X-Request-Id` the
 * services log it under. A 401 on a request that carried a token means the session is over:
 * `onUnauthorized` hears it (with the API's reason) before the ApiError is thrown.
 */
export function createApiClient(token: string | null, onUnauthorized: (reason: string) => void = () => undefined): ApiClient {
  const client = createClient<paths>({
    // Looked up per request, so that a stand-in fetch (component tests) is used whenever it was put in.
    fetch: (request) => globalThis.fetch(request),
    querySerializer,
  });
  const session: Middleware = {
    onRequest({ request }) {
      request.headers.set('Accept', 'application/json');
      request.headers.set('X-Request-Id', uuidv4());
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
    onError() {
      return new ApiError(0, 'network_error', 'The service cannot be reached. Check that it is running, then try again.');
    },
    async onResponse({ response }) {
      if (response.ok) return undefined;
      const error = await errorOf(response);
      if (response.status === 401 && token) onUnauthorized(error.message);
      throw error;
    },
  };
  client.use(session);
  return client;
}

/** What an openapi-fetch call resolves to once its errors are thrown (createApiClient): the answer's body and the answer. */
type Answered<T> = Promise<{ data?: T; response: Response }>;

/** The body of a call's answer. */
export async function dataOf<T>(call: Answered<T>): Promise<T> {
  return (await call).data as T;
}

/** The body of a call's answer with its status (a test alert is 200 processed, 202 still processing). */
export async function answerOf<T>(call: Answered<T>): Promise<{ status: number; data: T }> {
  const { data, response } = await call;
  return { status: response.status, data: data as T };
}

/** One page of a list endpoint, with its paging headers (`X-Total`, `X-Next-Page`). */
export async function pageOf<T>(call: Answered<T[]>): Promise<ListPage<T>> {
  const { data, response } = await call;
  return { items: data ?? [], ...pagingOf(response.headers) };
}

/** A call whose answer has no body (DELETE's 204). */
export async function doneOf(call: Promise<unknown>): Promise<void> {
  await call;
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
