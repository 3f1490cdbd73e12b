import { createHmac } from 'node:crypto';

/**
 * Signing a webhook the way Grafana's webhook contact point does ("HMAC Signature" settings): the
 * hex HMAC-SHA256 of the body with the signing secret, or, with a timestamp header, of
 * `{timestamp}:{body}` with the Unix seconds in that header. The gateway verifies these; the
 * service's own test alert signs with them. One home for the signer, so both sides agree.
 */
export const GRAFANA_SIGNATURE_HEADER = 'x-grafana-alerting-signature';
export const HUB_SIGNATURE_HEADER = 'x-hub-signature-256';
/** The timestamp headers the gateway reads: Grafana's name to configure, and the generic one. */
export const SIGNATURE_TIMESTAMP_HEADERS = ['x-grafana-alerting-signature-timestamp', 'x-signature-timestamp'] as const;

/** The HMAC-SHA256 of `body` (with `timestamp`, of `{timestamp}:{body}`) as bytes. */
export function webhookSignatureDigest(secret: string, body: Buffer, timestamp?: string): Buffer {
  const hmac = createHmac('sha256', secret);
  if (timestamp !== undefined) hmac.update(`${timestamp}:`, 'utf8');
  return hmac.update(body).digest();
}

/** The HMAC-SHA256 hex digest a signer sends for `body` (with `timestamp`, over `{timestamp}:{body}`). */
export function webhookSignature(secret: string, body: Buffer, timestamp?: string): string {
  return webhookSignatureDigest(secret, body, timestamp).toString('hex');
}

/**
 * The headers of a request signed at `nowMs` in the timestamped form: `X-Signature-Timestamp`
 * (Unix seconds) and `X-Grafana-Alerting-Signature` over `{timestamp}:{body}`. Signed afresh for
 * each request, so the receiver's freshness and replay checks see the current time.
 */
export function signedWebhookHeaders(secret: string, body: Buffer, nowMs: number): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return { [SIGNATURE_TIMESTAMP_HEADERS[1]]: timestamp, [GRAFANA_SIGNATURE_HEADER]: webhookSignature(secret, body, timestamp) };
}
