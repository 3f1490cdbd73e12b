import { GRAFANA_SIGNATURE_HEADER, HUB_SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADERS, webhookSignatureDigest } from '@alert-ingestion/crypto';
import { timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (HMAC-SHA256 of the body with the integration's signing secret), in the two
 * forms monitoring tools send:
 * - Grafana's webhook contact point ("HMAC Signature" settings): the hex digest in
 *   `X-Grafana-Alerting-Signature` (Grafana's default header name); when a "Timestamp Header" is
 *   configured, Grafana puts Unix seconds in it and signs `{timestamp}:{body}`;
 * - GitHub's style: `X-Hub-Signature-256: sha256=<hex>` over the body.
 * A timestamp header (`X-Grafana-Alerting-Signature-Timestamp`, the name to configure in Grafana,
 * or `X-Signature-Timestamp`) makes either form sign `{timestamp}:{body}`, and must be within
 * SIGNATURE_MAX_SKEW_SECONDS of now, either way (replays of old requests are refused).
 * A Grafana-form signature needs its timestamp, unless the integration allows the timestamp-less
 * form (`allow_signature_without_timestamp`): without one nothing would ever make it old. The GitHub
 * form has no timestamp in its design; the gateway's replay cache (signature-replay.ts) is what
 * refuses its repeats.
 * The signer and the header names live in the shared crypto library (webhook-signer), which senders use too.
 */

/** How old (or how far in the future) a signed timestamp may be: 5 minutes. */
export const SIGNATURE_MAX_SKEW_SECONDS = 300;

export type SignatureRefusal = 'missing_signature' | 'missing_signature_timestamp' | 'invalid_signature' | 'stale_signature';

/**
 * A valid signature: its digest (lower-case hex, the same whichever header carried it) and the end
 * of the window it is fresh in (signatureFreshUntil), which is how long the replay cache keeps it.
 */
export type SignatureVerdict = { ok: true; digest: string; freshUntilMs: number } | { ok: false; error: SignatureRefusal; message: string };

/** The integration's signature settings the check depends on. */
export interface SignaturePolicy {
  /** The integration's `allow_signature_without_timestamp`: a Grafana-form signature may come without its timestamp. */
  allowGrafanaWithoutTimestamp: boolean;
}

/** A request's headers as Node gives them (lower-case names); only the signature headers are read. */
export type SignatureHeaders = Readonly<Record<string, string | string[] | undefined>>;

const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

/**
 * Verifies a request's signature over the raw body bytes as received, at `nowMs`. Digests are
 * compared with crypto.timingSafeEqual. The signature is checked before the timestamp's age, so
 * `stale_signature` is only ever said of a timestamp the signer really signed.
 */
export function verifyWebhookSignature(
  secret: string,
  body: Buffer,
  headers: SignatureHeaders,
  nowMs: number,
  policy: SignaturePolicy = { allowGrafanaWithoutTimestamp: false },
): SignatureVerdict {
  const grafana = single(headers[GRAFANA_SIGNATURE_HEADER]);
  const hub = single(headers[HUB_SIGNATURE_HEADER]);
  if (grafana === undefined && hub === undefined) {
    return refuse(
      'missing_signature',
      'This integration requires signed requests: send the HMAC-SHA256 of the body as "X-Grafana-Alerting-Signature: <hex>" or "X-Hub-Signature-256: sha256=<hex>".',
    );
  }
  const hex = grafana !== undefined ? grafana.trim() : /^sha256=(.*)$/.exec((hub ?? '').trim())?.[1];
  if (hex === undefined || !HEX_DIGEST.test(hex)) {
    return refuse(
      'invalid_signature',
      grafana !== undefined ? 'X-Grafana-Alerting-Signature must be the hex HMAC-SHA256 (64 hex digits).' : 'X-Hub-Signature-256 must be "sha256=" followed by the hex HMAC-SHA256 (64 hex digits).',
    );
  }
  const timestampHeader = SIGNATURE_TIMESTAMP_HEADERS.find((name) => headers[name] !== undefined);
  const timestamp = timestampHeader === undefined ? undefined : single(headers[timestampHeader])?.trim();
  if (timestampHeader !== undefined && (timestamp === undefined || !UNIX_SECONDS.test(timestamp))) {
    return refuse('invalid_signature', `${timestampHeader} must be one Unix time in seconds.`);
  }
  if (grafana !== undefined && timestamp === undefined && !policy.allowGrafanaWithoutTimestamp) {
    return refuse(
      'missing_signature_timestamp',
      'X-Grafana-Alerting-Signature needs a signed timestamp: set the contact point\'s Timestamp Header to X-Grafana-Alerting-Signature-Timestamp (a signature without one could be replayed at any time), or allow signatures without a timestamp in the integration\'s settings.',
    );
  }
  if (!timingSafeEqual(Buffer.from(hex, 'hex'), webhookSignatureDigest(secret, body, timestamp))) {
    return refuse(
      'invalid_signature',
      timestamp === undefined
        ? 'The signature does not match the HMAC-SHA256 of the body with the integration\'s signing secret.'
        : 'The signature does not match the HMAC-SHA256 of "{timestamp}:{body}" with the integration\'s signing secret.',
    );
  }
  if (timestamp !== undefined && Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_MAX_SKEW_SECONDS) {
    return refuse('stale_signature', `The signed timestamp is more than ${SIGNATURE_MAX_SKEW_SECONDS / 60} minutes away from the receiver's clock; sign each request when it is sent.`);
  }
  return { ok: true, digest: hex.toLowerCase(), freshUntilMs: signatureFreshUntil(timestamp, nowMs) };
}

/**
 * Until when a valid signature received at `nowMs` is fresh: a signed timestamp is accepted until
 * SIGNATURE_MAX_SKEW_SECONDS after it; a signature without one (the GitHub form, or Grafana's where
 * the integration allows it) is given the same window from its arrival, within which the replay
 * cache refuses it again.
 */
export function signatureFreshUntil(timestamp: string | undefined, nowMs: number): number {
  return timestamp === undefined ? nowMs + SIGNATURE_MAX_SKEW_SECONDS * 1000 : (Number(timestamp) + SIGNATURE_MAX_SKEW_SECONDS) * 1000;
}

function refuse(error: SignatureRefusal, message: string): SignatureVerdict {
  return { ok: false, error, message };
}

/** A header sent once; a repeated one reads as empty, which no check accepts (never guess which one counts). */
function single(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.length === 1 ? value[0] : '';
}
