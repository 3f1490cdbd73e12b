import { AUTHORIZATION_KEYS_USED, AuthorizationKeyUsed } from '../alert';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Min } from 'class-validator';

/** The statuses the gateway reports as delivery records; the processor records what it answers itself. */
export const GATEWAY_DELIVERY_STATUSES = [202, 400, 401, 413, 429] as const;
export type GatewayDeliveryStatus = (typeof GATEWAY_DELIVERY_STATUSES)[number];

/** Most bytes of a body a delivery keeps (CONTRACT.md: "the body as received (first 64 KiB)"). */
export const DELIVERY_BODY_MAX_BYTES = 64 * 1024;

/**
 * What the gateway tells the processor about a delivery to a known integration's URL that the
 * processor does not answer itself: a refusal (400, 401, 413, 429) or a 202 (the processor did not
 * answer in time; it updates the delivery once it has processed the alert). Never a credential.
 */
export class DeliveryRecordValue {
  /** Unique per HTTP request: the delivery's identity, shared with the raw alert message when there is one. */
  @IsUUID()
  delivery_id!: string;

  /** The X-Request-Id of the request (the caller's, or one the gateway gave it). */
  @IsString()
  @Length(1, 255)
  request_id!: string;

  @IsString()
  integration_id!: string;

  @IsString()
  project_id!: string;

  @IsISO8601()
  received_at!: string;

  @IsIn(GATEWAY_DELIVERY_STATUSES)
  status!: GatewayDeliveryStatus;

  /** The error code answered, e.g. `unauthorized`; null for a 202. */
  @IsOptional()
  @IsString()
  error!: string | null;

  /** The body as received, its first DELIVERY_BODY_MAX_BYTES (empty when it was not read: 401, 429). */
  @IsString()
  body!: string;

  /** Bytes of the whole body as received (or as declared by Content-Length when it was not read). */
  @IsInt()
  @Min(0)
  body_size!: number;

  @IsBoolean()
  body_truncated!: boolean;

  /**
   * Which authorization key the request used (`current`, or `previous` during a rotation's grace
   * period); null or absent when none matched. Absent in records of gateways that predate it.
   */
  @IsOptional()
  @IsIn(AUTHORIZATION_KEYS_USED)
  authorization_key?: AuthorizationKeyUsed | null;

  /** With a `previous` key: that key's expiry, which names it among the previous keys; else null or absent. */
  @IsOptional()
  @IsISO8601()
  authorization_key_expires_at?: string | null;
}

/** A body as a delivery keeps it: its first DELIVERY_BODY_MAX_BYTES, cut on a character boundary. */
export function deliveryBody(body: Buffer, size = body.length): { body: string; body_size: number; body_truncated: boolean } {
  if (body.length <= DELIVERY_BODY_MAX_BYTES) return { body: body.toString('utf8'), body_size: size, body_truncated: size > body.length };
  // Back off to the start of a UTF-8 character (continuation bytes are 10xxxxxx).
  let end = DELIVERY_BODY_MAX_BYTES;
  while (end > 0 && (body[end] & 0xc0) === 0x80) end -= 1;
  return { body: body.subarray(0, end).toString('utf8'), body_size: size, body_truncated: true };
}
