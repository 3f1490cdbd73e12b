import { alertsApiForwarding } from './alerts-api-forwarding';
import { ALERTS_API, ALERTS_API_ROUTES, alertsApiPath, forwardedPrefixPaths } from './alerts-api.routes';

const forwarded = (method: string, url: string) => alertsApiForwarding(method, url)?.url ?? null;

describe('alertsApiForwarding', () => {
  it('forwards every route of the table, with its query, unchanged', () => {
    expect(alertsApiForwarding('GET', '/api/v4/projects/5/alerts?status=triggered&page=2')).toEqual({
      route: ALERTS_API.listAlerts,
      url: '/api/v4/projects/5/alerts?status=triggered&page=2',
    });
    expect(alertsApiForwarding('GET', '/api/v4/projects/5/alerts/status_counts')?.route).toBe(ALERTS_API.statusCounts);
    expect(alertsApiForwarding('GET', '/api/v4/projects/5/alerts/3')?.route).toBe(ALERTS_API.getAlert);
    expect(alertsApiForwarding('PUT', '/api/v4/projects/5/alerts/3')?.route).toBe(ALERTS_API.updateAlert);
    expect(alertsApiForwarding('POST', '/api/v4/projects/5/silences')?.route).toBe(ALERTS_API.createSilence);
    expect(alertsApiForwarding('GET', '/api/v4/projects/5/silences?state=active')?.route).toBe(ALERTS_API.listSilences);
    expect(alertsApiForwarding('GET', '/api/v4/projects/5/silences/4')?.route).toBe(ALERTS_API.getSilence);
    expect(alertsApiForwarding('PUT', '/api/v4/projects/5/silences/4')?.route).toBe(ALERTS_API.updateSilence);
    expect(alertsApiForwarding('POST', '/api/v4/projects/5/silences/4/expire')?.route).toBe(ALERTS_API.expireSilence);
    expect(alertsApiForwarding('GET', '/api/v4/projects/5/alert_integrations/7/deliveries?per_page=10')?.route).toBe(ALERTS_API.deliveries);
  });

  it('takes a trailing slash, and parameters the processor itself judges', () => {
    expect(forwarded('GET', '/api/v4/projects/5/alerts/')).toBe('/api/v4/projects/5/alerts/');
    expect(forwarded('GET', '/api/v4/projects/not-a-number/alerts/%252e%252e')).toBe('/api/v4/projects/not-a-number/alerts/%252e%252e');
  });

  it('forwards no other method of a path of the table', () => {
    expect(forwarded('POST', '/api/v4/projects/5/alerts')).toBeNull();
    expect(forwarded('DELETE', '/api/v4/projects/5/silences/4')).toBeNull();
    expect(forwarded('GET', '/api/v4/projects/5/silences/4/expire')).toBeNull();
  });

  it('forwards no path outside the table, under its prefixes or not', () => {
    for (const url of [
      '/api/v4/projects/5/silences/4/other',
      '/api/v4/projects/5/alerts/3/payload',
      '/api/v4/projects/5/alert_integrations/7',
      '/api/v4/projects/5/alert_integrations/7/deliveries/1',
      '/api/v4/projects/5',
      '/api/v4/users',
      '/api/v4/projects/5/alertsx',
      // Express routes ignore case; the processor's table does not name these.
      '/api/v4/projects/5/ALERTS',
      '/API/v4/projects/5/alerts',
    ]) {
      expect([url, forwarded('GET', url)]).toEqual([url, null]);
    }
  });

  it('refuses a path whose meaning depends on how it is read: dot segments, escaped slashes, empty segments', () => {
    for (const url of [
      '/api/v4/projects/5/alerts/../../../users',
      '/api/v4/projects/5/alerts/%2e%2e/%2e%2e/%2e%2e/users',
      '/api/v4/projects/5/alerts/%2e%2e',
      '/api/v4/projects/5/alerts/..',
      '/api/v4/projects/5/alerts/.',
      '/api/v4/projects/5/alerts/%2E',
      '/api/v4/projects/%2e%2e/alerts',
      '/api/v4/projects/5/silences/%2E%2e/expire',
      '/api/v4/projects/5/alerts/3%2f..%2f..%2fusers',
      '/api/v4/projects/5/alerts/3%2F',
      '/api/v4/projects/5/alerts/3%5c..',
      '/api/v4/projects/5/alerts/3\\..\\..',
      '/api/v4/projects/5//alerts',
      '//api/v4/projects/5/alerts',
      '/api/v4/projects/5/alerts//',
      '/api/v4/projects/5/alerts/%zz',
      'http://elsewhere.invalid/api/v4/projects/5/alerts',
      'api/v4/projects/5/alerts',
    ]) {
      expect([url, forwarded('GET', url)]).toEqual([url, null]);
    }
  });

  it('refuses an escape in the query as little as the processor would: the query is not a path', () => {
    expect(forwarded('GET', '/api/v4/projects/5/alerts?search=a%2F..%2Fb')).toBe('/api/v4/projects/5/alerts?search=a%2F..%2Fb');
  });
});

describe('the forwarded prefixes', () => {
  it('hold every route of the table, a project\'s and the caller\'s own', () => {
    const prefixes = forwardedPrefixPaths();
    expect(ALERTS_API_ROUTES.filter((route) => !prefixes.some((prefix) => `${alertsApiPath(route)}/`.startsWith(`${prefix}/`)))).toEqual([]);
  });

  it('forward the caller\'s own routes under /api/v4/user, and nothing else there', () => {
    expect(forwarded('GET', '/api/v4/user/contact_methods')).toBe('/api/v4/user/contact_methods');
    expect(forwarded('POST', '/api/v4/user/contact_methods/4/test')).toBe('/api/v4/user/contact_methods/4/test');
    expect(forwarded('PUT', '/api/v4/user/paging_settings')).toBe('/api/v4/user/paging_settings');
    expect(forwarded('GET', '/api/v4/user')).toBeNull();
    expect(forwarded('GET', '/api/v4/user/contact_methods/4')).toBeNull();
    expect(forwarded('GET', '/api/v4/projects/5/contact_methods')).toBeNull();
    expect(forwarded('DELETE', '/api/v4/user/contact_methods/..%2f..%2fprojects')).toBeNull();
  });
});
