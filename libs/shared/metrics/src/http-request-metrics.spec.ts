import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { HttpRequestMetrics, routeLabel, UNMATCHED_ROUTE } from './http-request-metrics';

function request(method: string, route?: unknown): IncomingMessage {
  return Object.assign(new EventEmitter(), { method, url: '/api/v4/projects/42/alerts?token=secret', ...(route === undefined ? {} : { route }) }) as unknown as IncomingMessage;
}

describe('routeLabel', () => {
  it('is the pattern of the route Express matched, never the URL', () => {
    expect(routeLabel(request('GET', { path: '/api/v4/projects/:id/alerts' }))).toBe('/api/v4/projects/:id/alerts');
  });

  it('is "unmatched" when no route (or no path pattern) handled the request', () => {
    expect(routeLabel(request('GET'))).toBe(UNMATCHED_ROUTE);
    expect(routeLabel(request('GET', { path: /regexp/ }))).toBe(UNMATCHED_ROUTE);
  });
});

describe('HttpRequestMetrics.middleware', () => {
  it('observes each request once its answer is finished, with the route known by then', async () => {
    const registry = new Registry();
    const metrics = new HttpRequestMetrics(registry);
    const incoming = request('POST');
    const response = Object.assign(new EventEmitter(), { statusCode: 201 }) as unknown as ServerResponse;
    const next = jest.fn();
    metrics.middleware()(incoming, response, next);
    expect(next).toHaveBeenCalledTimes(1);
    // Express routes the request after the middleware: the route is read when the answer ends.
    Object.assign(incoming, { route: { path: '/api/v4/projects/:id/alert_integrations' } });
    response.emit('finish');
    const values = (await registry.getSingleMetric('http_request_duration_seconds')!.get()).values as Array<{ metricName?: string }>;
    const count = values.find((value) => value.metricName === 'http_request_duration_seconds_count');
    expect(count).toEqual(expect.objectContaining({ value: 1, labels: { method: 'POST', route: '/api/v4/projects/:id/alert_integrations', status_code: 201 } }));
  });
});
