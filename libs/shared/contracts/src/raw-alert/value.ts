import { AUTHORIZATION_KEYS_USED, AuthorizationKeyUsed } from '../alert';
import { ReplyEndpointValue } from '../alert-reply/endpoint';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsISO8601, IsOptional, IsString, IsUUID, Length, MinLength, ValidateNested } from 'class-validator';
import { v5 as uuidv5 } from 'uuid';

/**
 * What the gateway publishes for every accepted receive request: the authenticated integration and
 * the body exactly as sent (an object, an array of objects, or an Alertmanager webhook body).
 * The processor does all interpretation; the gateway stays thin.
 */
export class RawAlertValue {
  /**
   * The processor's idempotency key (its exactly-once effect): unique per receive request, or, with
   * an Idempotency-Key, the same for every repeat of it (idempotentRequestId).
   */
  @IsUUID()
  request_id!: string;

  @IsString()
  @MinLength(1)
  integration_id!: string;

  @IsString()
  @MinLength(1)
  project_id!: string;

  @IsISO8601()
  received_at!: string;

  /** Gateway instance waiting for the result, or absent when nobody waits (for example a replay). */
  @IsOptional()
  @IsString()
  reply_to?: string;

  /**
   * Where that instance takes the reply (its reply listener and token); absent when nobody waits.
   * The processor replies only to a message that has both reply_to and reply_endpoint.
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => ReplyEndpointValue)
  reply_endpoint?: ReplyEndpointValue;

  /**
   * The HTTP request's own id (its delivery), when it differs from request_id: a request with an
   * Idempotency-Key gets a request_id derived from the key, so that its repeats share it.
   */
  @IsOptional()
  @IsUUID()
  delivery_id?: string;

  /**
   * The X-Request-Id of the HTTP request when the caller sent it (it may repeat); otherwise the
   * gateway's own id, delivery_id (or request_id), is the X-Request-Id. The processor's lines
   * about the message name the request by it (rawAlertRequestId).
   */
  @IsOptional()
  @IsString()
  @Length(1, 255)
  x_request_id?: string;

  /** The Idempotency-Key header the request came with (CONTRACT.md "Receiving alerts"). */
  @IsOptional()
  @IsString()
  @Length(1, 255)
  idempotency_key?: string;

  /** Which authorization key authenticated the request (its delivery says so); absent from older gateways. */
  @IsOptional()
  @IsIn(AUTHORIZATION_KEYS_USED)
  authorization_key?: AuthorizationKeyUsed;

  /** With a `previous` key: that key's expiry, which names it among the previous keys (its delivery says so). */
  @IsOptional()
  @IsISO8601()
  authorization_key_expires_at?: string;

  /** The parsed request body. */
  @IsDefined()
  payload!: unknown;
}

/** The X-Request-Id of the HTTP request a raw alert message came from (see x_request_id). */
export function rawAlertRequestId(value: { request_id: string; delivery_id?: string | null; x_request_id?: string | null }): string {
  return value.x_request_id ?? value.delivery_id ?? value.request_id;
}

/** Everything of a raw alert message but the body. */
export type RawAlertEnvelope = Omit<RawAlertValue, 'payload'>;

/**
 * What a producer gives for alerts.raw.v1: the gateway's envelope and the request body exactly as
 * received (spliced in verbatim by the registry's encode), or a whole value (its payload printed as JSON).
 */
export type RawAlertOutgoing = { envelope: RawAlertEnvelope; body: Buffer } | RawAlertValue;

/**
 * The raw alert message as published (TOPIC_REGISTRY's encode of alerts.raw.v1; not exported from
 * the library): the envelope with the request body spliced in verbatim as
 * `payload`. The body was checked to be JSON, so the message is too; it is never parsed and printed
 * again on its way, and it is no larger than the body plus the envelope (re-serialising can make
 * JSON longer: `1e9` prints as `1000000000`), so whatever the gateway accepts fits alerts.raw.v1.
 */
export function encodeRawAlert(envelope: RawAlertEnvelope, body: Buffer): Buffer {
  const head = JSON.stringify(envelope);
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"payload":`), body, Buffer.from('}')]);
}

const PAYLOAD_MARKER = Buffer.from(',"payload":');

/**
 * The request body as received, out of a raw alert message that encodeRawAlert wrote (the body
 * follows the envelope's last field, up to the closing brace); null for a message written otherwise,
 * whose body is then its payload printed as JSON.
 */
export function rawAlertBody(message: Buffer): Buffer | null {
  const marker = message.indexOf(PAYLOAD_MARKER);
  if (marker < 0 || message[message.length - 1] !== 0x7d) return null;
  try {
    // The envelope is an object of strings (and the reply endpoint's): what comes before the marker must close into one.
    JSON.parse(`${message.subarray(0, marker).toString('utf8')}}`);
  } catch {
    return null;
  }
  return message.subarray(marker + PAYLOAD_MARKER.length, message.length - 1);
}

/** How long a repeat of an Idempotency-Key gets the first answer again (CONTRACT.md: 24 hours). */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The namespace of request ids derived from an Idempotency-Key (a fixed, random UUID). */
const IDEMPOTENCY_NAMESPACE = '7d1c5f0e-3a52-4e8b-9c1f-2b6a4d8e0f31';

/**
 * The request_id of a request with an Idempotency-Key: the same for every repeat of the key on the
 * integration, on every gateway instance, so the processor's exactly-once effect answers a repeat
 * with the first answer and changes nothing (a UUID v5 of the integration and the key).
 */
export function idempotentRequestId(integrationId: string, idempotencyKey: string): string {
  return uuidv5(`${integrationId}\n${idempotencyKey}`, IDEMPOTENCY_NAMESPACE);
}
