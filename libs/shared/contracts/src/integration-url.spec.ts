import { integrationUrl, INTEGRATION_URL_PATH } from './integration-url';

describe('integrationUrl', () => {
  it('puts the url token under the public base URL', () => {
    expect(integrationUrl('http://127.0.0.1:8080', 'a1B2c3')).toBe('http://127.0.0.1:8080/alerts/notify/a1B2c3.json');
  });

  it('tolerates a trailing slash and a base path', () => {
    expect(integrationUrl('https://alerts.example.com/ingest/', 'tok')).toBe('https://alerts.example.com/ingest/alerts/notify/tok.json');
  });

  it('escapes a token that is not URL-safe', () => {
    expect(integrationUrl('http://h', 'a/b c')).toBe('http://h/alerts/notify/a%2Fb%20c.json');
  });

  it('matches the path the gateway serves', () => {
    expect(new URL(integrationUrl('http://h', 'tok')).pathname).toBe(INTEGRATION_URL_PATH.replace(':url_token', 'tok'));
  });
});
