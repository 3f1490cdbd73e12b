import { DELIVERY_BODY_MAX_BYTES, deliveryBody } from './value';

describe('deliveryBody', () => {
  it('keeps a body up to 64 KiB whole', () => {
    expect(deliveryBody(Buffer.from('{"title":"x"}'))).toEqual({ body: '{"title":"x"}', body_size: 13, body_truncated: false });
  });

  it('keeps the first 64 KiB of a larger body, never splitting a character', () => {
    const body = Buffer.from(`${'a'.repeat(DELIVERY_BODY_MAX_BYTES - 1)}é and more`);
    const kept = deliveryBody(body);
    expect(kept.body_truncated).toBe(true);
    expect(kept.body_size).toBe(body.length);
    expect(kept.body).toBe('a'.repeat(DELIVERY_BODY_MAX_BYTES - 1));
    expect(Buffer.byteLength(kept.body)).toBeLessThanOrEqual(DELIVERY_BODY_MAX_BYTES);
  });

  it('says a body was cut when only part of it was read', () => {
    expect(deliveryBody(Buffer.from('{"a":'), 2_000_000)).toEqual({ body: '{"a":', body_size: 2_000_000, body_truncated: true });
    expect(deliveryBody(Buffer.alloc(0), 0)).toEqual({ body: '', body_size: 0, body_truncated: false });
  });
});
