import { AlertReply, ContractViolationError, CreatedAlert, DeliveryRecord, IntegrationSnapshot, RawAlert, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { isJsonObject, JsonValue } from '@alert-ingestion/json';
import { AlertCandidate, alertCandidates } from './alert-candidates';
import { storableText } from './storable-text';

/** A consumed Kafka message of alerts.raw.v1. */
export interface RawAlertMessage {
  offset: string;
  value: Buffer | null;
}

/**
 * A delivery to the integration's URL with the processor's answer (CONTRACT.md "deliveries"): 200
 * with the alerts created or grouped into, or 422 with the error code.
 */
export type AnsweredDelivery = Omit<DeliveryRecord.DeliveryRecordValue, 'status'> & { status: 200 | 422; alerts: CreatedAlert[] };

/** A delivery as received, before it is answered. */
export type ReceivedDelivery = Omit<AnsweredDelivery, 'status' | 'error' | 'alerts'>;

/** What names a raw alert message and where its answer goes, as far as they can be read. */
export interface MessageAddress {
  request_id: string;
  delivery_id?: string | null;
  x_request_id?: string | null;
  reply_to?: string | null;
  reply_endpoint?: AlertReply.ReplyEndpointValue | null;
}

/** A raw alert message that is processed: its integration admitted it, its payloads are alert candidates. */
export interface AdmittedRawAlert {
  admitted: true;
  message: RawAlertMessage;
  raw: RawAlert.RawAlertValue;
  candidates: AlertCandidate[];
  /** Recorded with its answer; null when deliveries are not recorded. */
  delivery: ReceivedDelivery | null;
  /**
   * `heartbeat`: raised by the heartbeat checker, not a request to the integration's URL (it neither
   * counts as one nor resolves a heartbeat alert). Absent: a request the gateway accepted.
   */
  origin?: 'heartbeat';
}

/**
 * A raw alert message that can never be processed: dead-lettered with the reason, and the waiting
 * gateway (when its address can be read) gets a `rejected` reply.
 */
export interface RejectedRawAlert {
  admitted: false;
  message: RawAlertMessage;
  reason: string;
  address: MessageAddress | undefined;
  /** Recorded with the error; null when the delivery is not recorded (unreadable, or not the integration's). */
  delivery: AnsweredDelivery | null;
}

export type RawAlertIntake = AdmittedRawAlert | RejectedRawAlert;

export type DecodedRawAlert = { ok: true; message: RawAlertMessage; raw: RawAlert.RawAlertValue } | { ok: false; rejected: RejectedRawAlert };

/** Decodes a raw alert message through TOPIC_REGISTRY; a violation is rejected with the fields it names. */
export function decodeRawAlert(message: RawAlertMessage): DecodedRawAlert {
  try {
    return { ok: true, message, raw: TOPIC_REGISTRY[Topic.RawAlerts].decode(message.value) };
  } catch (error) {
    const violation = error instanceof ContractViolationError;
    const reason = violation ? error.message : String(error);
    return { ok: false, rejected: { admitted: false, message, reason, address: violation ? readableAddress(error.parsed) : undefined, delivery: null } };
  }
}

/**
 * Admits a decoded raw alert message against its integration (undefined: unknown): the integration
 * must belong to the message's project, and every payload of the body must become an alert
 * candidate under the integration's tier and payload field mapping (spec 2.1, 2.2, 3). `now` stands
 * for a start time when received_at cannot be read; deliveries are recorded when `recordDeliveries`.
 */
export function admitRawAlert(
  message: RawAlertMessage,
  raw: RawAlert.RawAlertValue,
  integration: IntegrationSnapshot.IntegrationSnapshotValue | undefined,
  options: { now: Date; recordDeliveries: boolean },
): RawAlertIntake {
  if (!integration) return { admitted: false, message, reason: `integration ${raw.integration_id} is unknown`, address: raw, delivery: null };
  if (integration.project_id !== raw.project_id) {
    // Not recorded as a delivery: it would land on another project's integration.
    return { admitted: false, message, reason: `integration ${raw.integration_id} does not belong to project ${raw.project_id}`, address: raw, delivery: null };
  }
  // received_at stands for "now" (spec 2.2 default start time), so a redelivery gives the same alert.
  const receivedAt = new Date(raw.received_at);
  const candidates = alertCandidates(
    raw.payload as JsonValue,
    { tier: integration.project_tier, payloadFieldMapping: integration.payload_field_mapping },
    Number.isNaN(receivedAt.getTime()) ? options.now : receivedAt,
  );
  const delivery = options.recordDeliveries ? deliveryOf(message, raw) : null;
  const admitted: AdmittedRawAlert = { admitted: true, message, raw, candidates: candidates.ok ? candidates.candidates : [], delivery };
  return candidates.ok ? admitted : rejectAdmitted(admitted, candidates.reason);
}

/** An admitted raw alert rejected after all (its payloads are not alerts, or the database refuses them). */
export function rejectAdmitted({ message, raw, delivery }: AdmittedRawAlert, reason: string): RejectedRawAlert {
  return { admitted: false, message, reason, address: raw, delivery: delivery && { ...delivery, status: 422, error: 'invalid_payload', alerts: [] } };
}

/**
 * The delivery of a raw alert message: one per HTTP request (its delivery_id, or its request_id),
 * named by its X-Request-Id, with the body as received (what the gateway spliced into the message).
 */
export function deliveryOf(message: RawAlertMessage, raw: RawAlert.RawAlertValue): ReceivedDelivery {
  const received = (message.value && RawAlert.rawAlertBody(message.value)) ?? Buffer.from(JSON.stringify(raw.payload));
  const { body, body_size, body_truncated } = DeliveryRecord.deliveryBody(received);
  return {
    delivery_id: raw.delivery_id ?? raw.request_id,
    request_id: RawAlert.rawAlertRequestId(raw),
    project_id: raw.project_id,
    integration_id: raw.integration_id,
    received_at: raw.received_at,
    body: storableText(body),
    body_size,
    body_truncated,
    authorization_key: raw.authorization_key ?? null,
    authorization_key_expires_at: raw.authorization_key_expires_at ?? null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The address of a message that failed its contract (what the registry parsed of it), when its request_id can still be read. */
function readableAddress(parsed: unknown): MessageAddress | undefined {
  if (!isJsonObject(parsed)) return undefined;
  const { request_id, delivery_id, x_request_id, reply_to, reply_endpoint } = parsed;
  if (typeof request_id !== 'string' || !UUID.test(request_id)) return undefined;
  const text = (field: unknown) => (typeof field === 'string' && field !== '' ? field : undefined);
  const endpoint = isJsonObject(reply_endpoint) ? { url: text(reply_endpoint['url']), token: text(reply_endpoint['token']) } : undefined;
  return {
    request_id,
    delivery_id: text(delivery_id),
    x_request_id: text(x_request_id),
    reply_to: text(reply_to),
    reply_endpoint: endpoint?.url && endpoint.token ? { url: endpoint.url, token: endpoint.token } : undefined,
  };
}
