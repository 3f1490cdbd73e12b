import { createHmac } from 'node:crypto';
import { signedWebhookHeaders, webhookSignature } from './webhook-signer';

describe('webhook signer', () => {
  const secret = 'grafana-signing-secret';
  const body = Buffer.from('{"title":"Disk full"}');
  const hmac = (text: Buffer | string) => createHmac('sha256', secret).update(text).digest('hex');

  it('signs the body, or "{timestamp}:{body}" with a timestamp, as Grafana does', () => {
    expect(webhookSignature(secret, body)).toBe(hmac(body));
    expect(webhookSignature(secret, body, '1764072000')).toBe(hmac(Buffer.concat([Buffer.from('1764072000:'), body])));
  });

  it('signs a request at the given time in the timestamped form', () => {
    const headers = signedWebhookHeaders(secret, body, 1_764_072_000_999);
    expect(headers).toEqual({ 'x-signature-timestamp': '1764072000', 'x-grafana-alerting-signature': hmac(`1764072000:${body.toString()}`) });
    expect(signedWebhookHeaders(secret, body, 1_764_072_060_000)['x-signature-timestamp']).toBe('1764072060');
  });
});
