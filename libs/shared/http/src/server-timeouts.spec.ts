import { BaseEnv, loadConfig } from '@alert-ingestion/config';
import { clientErrorAnswer, connectionsCheckingInterval } from './server-timeouts';

const settings = (headers: number) => ({ HTTP_HEADERS_TIMEOUT_MS: headers, HTTP_REQUEST_TIMEOUT_MS: 30_000, HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000 });

describe('server timeouts', () => {
  it('default to 5 s for headers, 30 s for the whole request and 65 s of keep-alive', () => {
    expect(loadConfig(BaseEnv, {})).toMatchObject({ ...settings(5_000), HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000 });
  });

  it('refuse a headers timeout above the request timeout, naming both', () => {
    expect(() => loadConfig(BaseEnv, { HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS=.*must not be above HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig(BaseEnv, { HTTP_KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
  });

  it('are checked every second, or every quarter of a shorter headers timeout', () => {
    expect(connectionsCheckingInterval(settings(5_000))).toBe(1_000);
    expect(connectionsCheckingInterval(settings(1_000))).toBe(250);
    expect(connectionsCheckingInterval(settings(100))).toBe(25);
  });

  it('answer a request cut by a timeout with 408 in JSON, a request id, the security headers and a close', () => {
    const answer = clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT');
    const [head, body] = answer.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 408 Request Timeout');
    const headers = new Map(lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]));
    expect(JSON.parse(body)).toEqual({ error: 'request_timeout', message: 'The request was not received in time.' });
    expect(headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(headers.get('connection')).toBe('close');
    expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('answer other parser errors with 431 or 400', () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(clientErrorAnswer('HPE_INVALID_METHOD')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*\{"error":"bad_request","message":"The request is not valid HTTP\."\}$/);
  });
});
