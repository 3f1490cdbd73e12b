import { IsDefined, IsIn, IsObject, IsOptional } from 'class-validator';
import { AlertView } from '../alert';
import { Integer } from '../json-types';
import { ProjectEventFields } from '../project-event';
import { MAX_RECORD_BATCH_VALUE_BYTES } from '../topics/message-size';

/** `alert.assigned`: its assignees changed (set, cleared, or the acknowledger of an unassigned alert). */
export const ALERT_EVENT_TYPES = ['alert.created', 'alert.grouped', 'alert.resolved', 'alert.status_changed', 'alert.assigned'] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/**
 * The alert an event carries: exactly the query API's alert, or, when its payload would make the
 * event too large for the topic, the same without `payload` and with `payload_truncated: true`
 * (CONTRACT.md "Events for other services"). The full payload stays readable through the query API.
 */
export type AlertEventAlert = AlertView | (Omit<AlertView, 'payload'> & { payload_truncated: true });

/** What caused a change: a payload (of an integration), a missed or resumed heartbeat, a user, an incident being closed. */
export const ALERT_EVENT_CAUSES = ['payload', 'heartbeat', 'user', 'incident'] as const;
export type AlertEventCauseType = (typeof ALERT_EVENT_CAUSES)[number];

/**
 * Who or what made the change an event reports: `{type: "payload", integration_id}` for a payload
 * (a recovery payload resolving its alert among them), `{type: "heartbeat"}`, `{type: "user", user_id}`
 * (null for the administrator token), `{type: "incident", incident_iid}`.
 */
export interface AlertEventCause {
  type: AlertEventCauseType;
  integration_id?: Integer;
  user_id?: Integer | null;
  incident_iid?: Integer;
}

/** A change to an alert, published once per change (CONTRACT.md "Events for other services"). */
export class AlertEventValue extends ProjectEventFields {
  @IsIn(ALERT_EVENT_TYPES)
  type!: AlertEventType;

  @IsDefined()
  @IsObject()
  alert!: AlertEventAlert;

  /** Who or what made the change (absent from events published before causes were recorded). */
  @IsOptional()
  @IsObject()
  cause?: AlertEventCause;
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
