import { createHmac } from 'node:crypto';
import { SIGNATURE_MAX_SKEW_SECONDS, verifyWebhookSignature } from './webhook-signature';

describe('verifyWebhookSignature', () => {
  const secret = 'a-signing-secret-of-the-integration';
  const body = Buffer.from('{"title":"Disk full","émoji":"🔥"}');
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const nowSeconds = String(now / 1000);
  // What a signer computes, written independently of the code under test.
  const hmac = (text: Buffer | string) => createHmac('sha256', secret).update(text).digest('hex');

  it("accepts Grafana's signature over the body, in either case of hex", () => {
    expect(verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature': hmac(body) }, now)).toEqual({ ok: true });
    expect(verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature': hmac(body).toUpperCase() }, now)).toEqual({ ok: true });
  });

  it("accepts Grafana's signature over {timestamp}:{body} with a fresh timestamp", () => {
    const signed = hmac(`${nowSeconds}:${body.toString()}`);
    expect(verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature': signed, 'x-grafana-alerting-signature-timestamp': nowSeconds }, now)).toEqual({ ok: true });
  });

  it('accepts the GitHub form sha256=<hex>, with or without a timestamp', () => {
    expect(verifyWebhookSignature(secret, body, { 'x-hub-signature-256': `sha256=${hmac(body)}` }, now)).toEqual({ ok: true });
    const signed = hmac(`${nowSeconds}:${body.toString()}`);
    expect(verifyWebhookSignature(secret, body, { 'x-hub-signature-256': `sha256=${signed}`, 'x-signature-timestamp': nowSeconds }, now)).toEqual({ ok: true });
  });

  it('refuses a request without a signature as missing_signature', () => {
    expect(verifyWebhookSignature(secret, body, {}, now)).toMatchObject({ ok: false, error: 'missing_signature' });
    expect(verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature-timestamp': nowSeconds }, now)).toMatchObject({ ok: false, error: 'missing_signature' });
  });

  it('refuses a wrong, malformed or repeated signature as invalid_signature', () => {
    const wrongSecret = createHmac('sha256', 'another-secret').update(body).digest('hex');
    for (const headers of [
      { 'x-grafana-alerting-signature': wrongSecret },
      { 'x-grafana-alerting-signature': hmac(Buffer.from(`${body.toString()} `)) },
      { 'x-grafana-alerting-signature': 'not-hex' },
      { 'x-grafana-alerting-signature': hmac(body).slice(0, 62) },
      { 'x-grafana-alerting-signature': [hmac(body), hmac(body)] },
      { 'x-hub-signature-256': hmac(body) },
      { 'x-hub-signature-256': `sha1=${hmac(body)}` },
      // Signed without the timestamp that came with it: the timestamp could be swapped freely.
      { 'x-grafana-alerting-signature': hmac(body), 'x-grafana-alerting-signature-timestamp': nowSeconds },
      { 'x-grafana-alerting-signature': hmac(`abc:${body.toString()}`), 'x-grafana-alerting-signature-timestamp': 'abc' },
    ]) {
      expect(verifyWebhookSignature(secret, body, headers, now)).toMatchObject({ ok: false, error: 'invalid_signature' });
    }
  });

  it('refuses a correctly signed timestamp more than 5 minutes old or ahead as stale_signature, and accepts one at the edge', () => {
    const at = (offsetSeconds: number) => {
      const timestamp = String(now / 1000 + offsetSeconds);
      return verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature': hmac(`${timestamp}:${body.toString()}`), 'x-grafana-alerting-signature-timestamp': timestamp }, now);
    };
    expect(at(-SIGNATURE_MAX_SKEW_SECONDS)).toEqual({ ok: true });
    expect(at(SIGNATURE_MAX_SKEW_SECONDS)).toEqual({ ok: true });
    expect(at(-SIGNATURE_MAX_SKEW_SECONDS - 1)).toMatchObject({ ok: false, error: 'stale_signature' });
    expect(at(SIGNATURE_MAX_SKEW_SECONDS + 1)).toMatchObject({ ok: false, error: 'stale_signature' });
  });
});
