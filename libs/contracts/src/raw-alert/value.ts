import { IsDefined, IsISO8601, IsOptional, IsString, IsUUID, MinLength } from 'class-validator';

/**
 * What the gateway publishes for every accepted receive request: the authenticated integration and
 * the body exactly as sent (an object, an array of objects, or an Alertmanager webhook body).
 * The processor does all interpretation; the gateway stays thin.
 */
export class RawAlertValue {
  /** Unique per receive request; the idempotency key of the processor's exactly-once effect. */
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

  /** The parsed request body. */
  @IsDefined()
  payload!: unknown;
}
