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

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with its content type (the pipeline checker's YAML). */
  text?: { content: string; contentType: string };
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

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

export const API_PREFIX = '/api/v4';

function urlOf(path: string, query: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return `${API_PREFIX}${path}${text ? `?${text}` : ''}`;
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
 * The public API (CONTRACT.md) with the signed-in token. A 401 on a request that carried a token
 * means the session is over: `onUnauthorized` hears it (with the API's reason) before the error is thrown.
 */
export class ApiClient {
  constructor(
    readonly token: string | null,
    private readonly onUnauthorized: (reason: string) => void = () => undefined,
  ) {}

  async request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers['Authorization'] = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.text) {
      headers['Content-Type'] = options.text.contentType;
      body = options.text.content;
    }
    let response: Response;
    try {
      response = await fetch(urlOf(path, options.query), { method: options.method ?? 'GET', headers, body });
    } catch {
      throw new ApiError(0, 'network_error', 'The service cannot be reached. Check that it is running, then try again.');
    }
    if (!response.ok) {
      const error = await errorOf(response);
      if (response.status === 401 && this.token) this.onUnauthorized(error.message);
      throw error;
    }
    const text = await response.text();
    const data = (text === '' ? undefined : JSON.parse(text)) as T;
    return { status: response.status, data, headers: response.headers };
  }

  async get<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return (await this.request<T>(path, { query })).data;
  }

  /** One page of a list endpoint, with its paging headers. */
  async list<T>(path: string, query: Record<string, QueryValue>): Promise<ListPage<T>> {
    const response = await this.request<T[]>(path, { query });
    return { items: response.data, ...pagingOf(response.headers) };
  }

  async post<T>(path: string, json?: unknown): Promise<T> {
    return (await this.request<T>(path, { method: 'POST', json: json ?? {} })).data;
  }

  async put<T>(path: string, json: unknown): Promise<T> {
    return (await this.request<T>(path, { method: 'PUT', json })).data;
  }

  async delete(path: string): Promise<void> {
    await this.request<void>(path, { method: 'DELETE' });
  }
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
