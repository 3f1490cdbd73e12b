import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@console/testing/render';
import { ApiError, createApiClient, dataOf, doneOf, pageOf } from './client';

describe('createApiClient', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the token, a request id of its own per request, and only the query values that are set', async () => {
    const api = stubApi({ 'GET /projects': { body: [{ id: 1, path: 'acme/web', tier: 'free', access_level: 'owner' }], headers: { 'X-Total': '41', 'X-Next-Page': '2' } } });
    const client = createApiClient('secret-token');
    const page = await pageOf(client.GET('/api/v4/projects', { params: { query: { search: '', page: 1, per_page: 20 } } }));
    await pageOf(client.GET('/api/v4/projects', { params: { query: { search: 'acme' } } }));

    expect(page).toEqual({ items: [{ id: 1, path: 'acme/web', tier: 'free', access_level: 'owner' }], total: 41, nextPage: 2 });
    const [first, second] = api.sent('GET /projects');
    expect(first.headers.get('authorization')).toBe('Bearer secret-token');
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect([...first.query.entries()]).toEqual([
      ['page', '1'],
      ['per_page', '20'],
    ]);
    expect([...second.query.entries()]).toEqual([['search', 'acme']]);
  });

  it("turns the API's {error, message, field} into an ApiError, and a 401 with a token into the end of the session", async () => {
    stubApi({
      'POST /projects/3/silences': { status: 400, body: { error: 'validation_failed', message: 'ends_at must be in the future.', field: 'ends_at' } },
      'GET /user': { status: 401, body: { error: 'unauthorized', message: 'The token expired.' } },
    });
    const endedBecause: string[] = [];
    const client = createApiClient('old-token', (reason) => endedBecause.push(reason));

    const refused = dataOf(
      client.POST('/api/v4/projects/{id}/silences', {
        params: { path: { id: 3 } },
        body: { matchers: [{ field: 'service', operator: '=', value: 'db' }], ends_at: '2020-01-01T00:00:00Z', comment: 'old' },
      }),
    );
    await expect(refused).rejects.toEqual(new ApiError(400, 'validation_failed', 'ends_at must be in the future.', 'ends_at'));
    await expect(refused).rejects.toMatchObject({ field: 'ends_at' });
    expect(endedBecause).toEqual([]);

    await expect(dataOf(client.GET('/api/v4/user'))).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(endedBecause).toEqual(['The token expired.']);
  });

  it('says what happened when the answer has no JSON error body, or when there is no answer', async () => {
    stubApi({ 'DELETE /projects/3/members/4': () => ({ status: 502 }) });
    const client = createApiClient(null);
    await expect(doneOf(client.DELETE('/api/v4/projects/{id}/members/{user_id}', { params: { path: { id: 3, user_id: 4 } } }))).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
    });

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(dataOf(client.GET('/api/v4/user'))).rejects.toEqual(
      new ApiError(0, 'network_error', 'The service cannot be reached. Check that it is running, then try again.'),
    );
  });
});
