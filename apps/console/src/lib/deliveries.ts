import { Delivery } from '@console/api/types';
import { isJsonObject, JsonValue } from './json-text';

/** The reason phrases of the answers a receiving URL gives (CONTRACT.md "Receiving alerts"). */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  202: 'Accepted',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** "401 Unauthorized"; a status without a known phrase is shown as its number. */
export function statusLabel(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? `${status} ${text}` : String(status);
}

/** The status class the table colours by: `2xx`, `4xx`, `5xx` (anything else is `other`). */
export function statusClass(status: number): '2xx' | '4xx' | '5xx' | 'other' {
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500 && status < 600) return '5xx';
  return 'other';
}

const SIZE = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const COUNT = new Intl.NumberFormat('en');

/** "812 B", "1.5 KiB", "2 MiB" (the gateway's limits are in binary units: 64 KiB kept, 1 MiB accepted). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${SIZE.format(bytes / 1024)} KiB`;
  return `${SIZE.format(bytes / (1024 * 1024))} MiB`;
}

/** "70,000 bytes". */
export function formatByteCount(bytes: number): string {
  return `${COUNT.format(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** A delivery's body as the viewer shows it: pretty-printed when it is JSON, else the text as received. */
export type DeliveryBodyView = { json: true; value: JsonValue; text: string } | { json: false; text: string };

export function deliveryBodyView(body: string): DeliveryBodyView {
  if (body.trim() !== '') {
    try {
      const value = JSON.parse(body) as JsonValue;
      return { json: true, value, text: JSON.stringify(value, null, 2) };
    } catch {
      // Not JSON (a refused body, or one cut at 64 KiB): shown as received.
    }
  }
  return { json: false, text: body };
}

/**
 * The gateway answers 401 and 429 before it reads a body: such a delivery keeps none, and its size
 * is the one the request declared (Content-Length).
 */
export function bodyNotRead(delivery: Pick<Delivery, 'body' | 'body_size'>): boolean {
  return delivery.body === '' && delivery.body_size > 0;
}

/** How much of the body the delivery kept, when not all of it; null when the body is whole. */
export function bodyKeptNote(delivery: Pick<Delivery, 'body' | 'body_size' | 'body_truncated'>): string | null {
  if (bodyNotRead(delivery)) return `Body not read: the request was refused before its body (${formatByteCount(delivery.body_size)} declared).`;
  if (delivery.body_truncated) return `Truncated: first 64 KiB of ${formatByteCount(delivery.body_size)}.`;
  return null;
}

export type SamplePayloadCandidate = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Whether a delivery's body can become the sample payload (spec 2.1: one alert as the monitoring
 * tool sends it, a JSON object, on a Premium HTTP Endpoint), and as what text, or why not.
 */
export function samplePayloadFrom(delivery: Pick<Delivery, 'body' | 'body_size' | 'body_truncated'>, premium: boolean): SamplePayloadCandidate {
  if (!premium) return { ok: false, reason: 'A sample payload is part of custom mapping, which needs the Premium tier.' };
  if (bodyNotRead(delivery)) return { ok: false, reason: 'The body was not read: the request was refused before it.' };
  if (delivery.body_truncated) return { ok: false, reason: 'Only the first 64 KiB of this body were kept, so it is not the whole payload.' };
  const view = deliveryBodyView(delivery.body);
  if (!view.json) return { ok: false, reason: 'The body is not valid JSON.' };
  if (!isJsonObject(view.value)) {
    return { ok: false, reason: 'The body is not a JSON object: a sample payload is one alert ({ ... }) as the monitoring tool sends it.' };
  }
  return { ok: true, text: view.text };
}
