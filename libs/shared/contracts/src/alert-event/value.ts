import { IsDefined, IsIn, IsInt, IsISO8601, IsObject, Min } from 'class-validator';
import { AlertView } from '../alert';
import { MAX_RECORD_BATCH_VALUE_BYTES } from '../topics/message-size';

export const ALERT_EVENT_TYPES = ['alert.created', 'alert.grouped', 'alert.resolved', 'alert.status_changed'] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/**
 * The alert an event carries: exactly the query API's alert, or, when its payload would make the
 * event too large for the topic, the same without `payload` and with `payload_truncated: true`
 * (CONTRACT.md "Events for other services"). The full payload stays readable through the query API.
 */
export type AlertEventAlert = AlertView | (Omit<AlertView, 'payload'> & { payload_truncated: true });

/** A change to an alert, published once per change (CONTRACT.md "Events for other services"). */
export class AlertEventValue {
  @IsIn(ALERT_EVENT_TYPES)
  type!: AlertEventType;

  @IsISO8601()
  occurred_at!: string;

  /** A number, as in the HTTP API (`/projects/:id`). */
  @IsInt()
  @Min(1)
  project_id!: number;

  @IsDefined()
  @IsObject()
  alert!: AlertEventAlert;
}

/**
 * The event as the JSON text that is published (TOPIC_REGISTRY's encode of alerts.events.v1; not
 * exported from the library). An event always fits the topic: when the alert's
 * payload makes it larger than `maxBytes` (UTF-8), the payload is left out and
 * `alert.payload_truncated` is true instead.
 */
export function encodeAlertEvent(event: AlertEventValue, maxBytes = MAX_RECORD_BATCH_VALUE_BYTES): { text: string; payloadTruncated: boolean } {
  const text = JSON.stringify(event);
  // A UTF-8 byte is at least one UTF-16 unit, so a text this short needs no measuring.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return { text, payloadTruncated: false };
  const { payload: _payload, ...alert } = event.alert as AlertView;
  return { text: JSON.stringify({ ...event, alert: { ...alert, payload_truncated: true } }), payloadTruncated: true };
}
