// Component-test helpers: the console's providers around a page, and a stand-in for the HTTP API
// that answers per "METHOD /path" and records what the component sent.
import { QueryClientProvider } from '@tanstack/react-query';
import { render, RenderResult } from '@testing-library/react';
import { ReactElement } from 'react';
import { createMemoryRouter, Route, RouterProvider, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '@console/app';
import { AppRoutes } from '@console/routes';
import { CurrentUser } from '@console/api/types';
import { SESSION_STORAGE_KEY, SessionProvider } from '@console/session/session';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

/** Stubs fetch with `routes` ("GET /projects/1"; paths without /api/v4 and the query); unknown routes answer 404. */
export function stubApi(routes: Record<string, Handler | Reply>) {
  const requests: RecordedRequest[] = [];
  const fetch = vi.fn(async (input: string | Request, init: RequestInit = {}) => {
    // The console's client (openapi-fetch) sends a Request; its URL is absolute, its body a stream.
    const sent = typeof input === 'string' ? null : input;
    const url = new URL(sent?.url ?? String(input), 'http://console.test');
    const path = url.pathname.replace(/^\/api\/v4/, '');
    const headers = new Headers(sent?.headers ?? init.headers);
    const text = sent ? (sent.body === null ? undefined : await sent.text()) : typeof init.body === 'string' ? init.body : undefined;
    const body = text !== undefined && headers.get('content-type') === 'application/json' ? JSON.parse(text) : text;
    const method = sent?.method ?? init.method ?? 'GET';
    const request: RecordedRequest = { method, path, query: url.searchParams, headers, body };
    requests.push(request);
    const route = routes[`${request.method} ${path}`];
    const reply: Reply = route === undefined ? { status: 404, body: { error: 'not_found', message: `No route ${request.method} ${path}` } } : typeof route === 'function' ? await route(request) : route;
    const status = reply.status ?? 200;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return {
    requests,
    /** The requests sent to "METHOD /path". */
    sent: (key: string) => requests.filter((request) => `${request.method} ${request.path}` === key),
  };
}

export const ADMIN: CurrentUser = { id: null, username: 'administrator', is_admin: true };

/** Shows where the router is, so tests can assert navigation. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/**
 * Renders `element` at `url` under the route `path`, inside the console's providers; signed in as
 * `user` unless `user` is null.
 */
export function renderPage(
  element: ReactElement,
  { url, path = url, user = ADMIN, token = 'test-token' }: { url: string; path?: string; user?: CurrentUser | null; token?: string },
): RenderResult {
  return renderRouted(
    <Routes>
      <Route path={path} element={element} />
      <Route path="*" element={<p>Elsewhere</p>} />
    </Routes>,
    url,
    user,
    token,
  );
}

/** The whole console (every route) at `url`, signed in as `user` unless `user` is null. */
export function renderApp(url: string, { user = ADMIN, token = 'test-token' }: { user?: CurrentUser | null; token?: string } = {}): RenderResult {
  return renderRouted(<AppRoutes />, url, user, token);
}

/**
 * `routes` in a memory data router at `url` (as the console's own router, so navigation blockers
 * work), in the console's providers, with the LocationProbe.
 */
function renderRouted(routes: ReactElement, url: string, user: CurrentUser | null, token: string): RenderResult {
  if (user) localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ token, user }));
  const element = (
    <>
      {routes}
      <LocationProbe />
    </>
  );
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [url] });
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>,
  );
}
