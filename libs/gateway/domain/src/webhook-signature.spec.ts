import { createHmac } from 'node:crypto';
import { SIGNATURE_MAX_SKEW_SECONDS, signatureFreshUntil, verifyWebhookSignature } from './webhook-signature';

describe('verifyWebhookSignature', () => {
  const secret = 'a-signing-secret-of-the-integration';
  const body = Buffer.from('{"title":"Disk full","émoji":"🔥"}');
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const nowSeconds = String(now / 1000);
  // What a signer computes, written independently of the code under test.
  const hmac = (text: Buffer | string) => createHmac('sha256', secret).update(text).digest('hex');
  const allowWithoutTimestamp = { allowGrafanaWithoutTimestamp: true };
  /** Accepted, with its digest in lower case, fresh for 5 minutes from now. */
  const acceptedUntil = (digest: string, freshUntilMs = now + SIGNATURE_MAX_SKEW_SECONDS * 1000) => ({ ok: true, digest, freshUntilMs });

  it("refuses Grafana's signature without a timestamp as missing_signature_timestamp, unless the integration allows it", () => {
    const headers = { 'x-grafana-alerting-signature': hmac(body) };
    expect(verifyWebhookSignature(secret, body, headers, now)).toMatchObject({ ok: false, error: 'missing_signature_timestamp' });
    expect(verifyWebhookSignature(secret, body, headers, now, { allowGrafanaWithoutTimestamp: false })).toMatchObject({
      ok: false,
      error: 'missing_signature_timestamp',
      message: expect.stringContaining('X-Grafana-Alerting-Signature-Timestamp'),
    });
    expect(verifyWebhookSignature(secret, body, headers, now, allowWithoutTimestamp)).toEqual(acceptedUntil(hmac(body)));
  });

  it("accepts Grafana's timestamp-less signature in either case of hex, with one digest", () => {
    const upper = { 'x-grafana-alerting-signature': hmac(body).toUpperCase() };
    expect(verifyWebhookSignature(secret, body, upper, now, allowWithoutTimestamp)).toEqual(acceptedUntil(hmac(body)));
  });

  it("accepts Grafana's signature over {timestamp}:{body} with a fresh timestamp, fresh until 5 minutes after it", () => {
    const signed = hmac(`${nowSeconds}:${body.toString()}`);
    expect(verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature': signed, 'x-grafana-alerting-signature-timestamp': nowSeconds }, now)).toEqual(
      acceptedUntil(signed),
    );
    const earlier = String(now / 1000 - 100);
    const signedEarlier = hmac(`${earlier}:${body.toString()}`);
    expect(verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature': signedEarlier, 'x-signature-timestamp': earlier }, now)).toEqual(
      acceptedUntil(signedEarlier, now + (SIGNATURE_MAX_SKEW_SECONDS - 100) * 1000),
    );
  });

  it('accepts the GitHub form sha256=<hex>, with or without a timestamp, whatever the timestamp switch says', () => {
    expect(verifyWebhookSignature(secret, body, { 'x-hub-signature-256': `sha256=${hmac(body)}` }, now)).toEqual(acceptedUntil(hmac(body)));
    const signed = hmac(`${nowSeconds}:${body.toString()}`);
    expect(verifyWebhookSignature(secret, body, { 'x-hub-signature-256': `sha256=${signed}`, 'x-signature-timestamp': nowSeconds }, now)).toEqual(acceptedUntil(signed));
  });

  it('gives a signature without a timestamp 5 minutes from its arrival, and a signed one 5 minutes from its timestamp', () => {
    expect(signatureFreshUntil(undefined, now)).toBe(now + 300_000);
    expect(signatureFreshUntil(String(now / 1000 + 60), now)).toBe(now + 360_000);
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
      expect(verifyWebhookSignature(secret, body, headers, now, allowWithoutTimestamp)).toMatchObject({ ok: false, error: 'invalid_signature' });
    }
  });

  it('refuses a correctly signed timestamp more than 5 minutes old or ahead as stale_signature, and accepts one at the edge', () => {
    const at = (offsetSeconds: number) => {
      const timestamp = String(now / 1000 + offsetSeconds);
      return verifyWebhookSignature(secret, body, { 'x-grafana-alerting-signature': hmac(`${timestamp}:${body.toString()}`), 'x-grafana-alerting-signature-timestamp': timestamp }, now);
    };
    expect(at(-SIGNATURE_MAX_SKEW_SECONDS)).toMatchObject({ ok: true, freshUntilMs: now });
    expect(at(SIGNATURE_MAX_SKEW_SECONDS)).toMatchObject({ ok: true, freshUntilMs: now + 2 * SIGNATURE_MAX_SKEW_SECONDS * 1000 });
    expect(at(-SIGNATURE_MAX_SKEW_SECONDS - 1)).toMatchObject({ ok: false, error: 'stale_signature' });
    expect(at(SIGNATURE_MAX_SKEW_SECONDS + 1)).toMatchObject({ ok: false, error: 'stale_signature' });
  });
});
