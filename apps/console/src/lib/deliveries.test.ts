import { describe, expect, it } from 'vitest';
import { bodyKeptNote, deliveryBodyView, formatBytes, samplePayloadFrom, statusClass, statusLabel } from './deliveries';

describe('deliveries', () => {
  it('names and classes the statuses a receiving URL answers', () => {
    expect([200, 202, 400, 401, 413, 422, 429, 503, 302].map((status) => [statusLabel(status), statusClass(status)])).toEqual([
      ['200 OK', '2xx'],
      ['202 Accepted', '2xx'],
      ['400 Bad Request', '4xx'],
      ['401 Unauthorized', '4xx'],
      ['413 Content Too Large', '4xx'],
      ['422 Unprocessable Content', '4xx'],
      ['429 Too Many Requests', '4xx'],
      ['503 Service Unavailable', '5xx'],
      ['302', 'other'],
    ]);
  });

  it('gives sizes in binary units, as the gateway limits are', () => {
    expect([0, 1023, 1024, 1536, 65_536, 1_048_576, 2_000_000].map(formatBytes)).toEqual(['0 B', '1023 B', '1 KiB', '1.5 KiB', '64 KiB', '1 MiB', '1.9 MiB']);
  });

  it('pretty-prints JSON bodies and keeps others as received', () => {
    expect(deliveryBodyView('{"a":[1,2]}')).toEqual({ json: true, value: { a: [1, 2] }, text: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
    expect(deliveryBodyView('not json')).toEqual({ json: false, text: 'not json' });
    expect(deliveryBodyView('')).toEqual({ json: false, text: '' });
  });

  it('says how much of a body was kept', () => {
    expect(bodyKeptNote({ body: '{}', body_size: 2, body_truncated: false })).toBeNull();
    expect(bodyKeptNote({ body: '{"a": "xx', body_size: 70_000, body_truncated: true })).toBe('Truncated: first 64 KiB of 70,000 bytes.');
    expect(bodyKeptNote({ body: '', body_size: 12, body_truncated: true })).toMatch(/^Body not read/);
    expect(bodyKeptNote({ body: '', body_size: 0, body_truncated: false })).toBeNull();
  });

  it('offers a whole JSON object on Premium as the sample payload', () => {
    expect(samplePayloadFrom({ body: '{"title":"x"}', body_size: 13, body_truncated: false }, true)).toEqual({ ok: true, text: '{\n  "title": "x"\n}' });
    expect(samplePayloadFrom({ body: '{"title":"x"}', body_size: 13, body_truncated: false }, false)).toMatchObject({ ok: false });
    expect(samplePayloadFrom({ body: '"x"', body_size: 3, body_truncated: false }, true)).toMatchObject({ ok: false, reason: expect.stringContaining('not a JSON object') });
  });
});
