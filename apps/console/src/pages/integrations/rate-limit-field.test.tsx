import { describe, expect, it } from 'vitest';
import { checkRateLimit } from './rate-limit-field';

describe('checkRateLimit', () => {
  it('takes empty as the gateway default and a whole number from 1 as the limit', () => {
    expect(checkRateLimit('')).toEqual({ ok: true, value: null });
    expect(checkRateLimit('   ')).toEqual({ ok: true, value: null });
    expect(checkRateLimit('1')).toEqual({ ok: true, value: 1 });
    expect(checkRateLimit(' 600 ')).toEqual({ ok: true, value: 600 });
  });

  it('refuses anything else, saying why', () => {
    for (const text of ['0', '00']) expect(checkRateLimit(text)).toEqual({ ok: false, message: expect.stringContaining('at least 1') });
    for (const text of ['-1', '1.5', '1e3', 'ten', '60/min', '0x10']) {
      expect(checkRateLimit(text)).toEqual({ ok: false, message: expect.stringContaining('whole number') });
    }
    expect(checkRateLimit('9'.repeat(20))).toEqual({ ok: false, message: expect.stringContaining('too large') });
  });
});
