import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  PAYLOAD_FIELD_TYPES,
  PayloadFieldType,
  PayloadPath,
  PLATFORM_ALERT_FIELDS,
  PlatformAlertField,
  PROJECT_TIERS,
  ProjectTier,
} from '../alert';
import { HEARTBEAT_INTERVAL_MINUTES, INTEGRATION_TYPES, IntegrationType } from '../management';

export { INTEGRATION_TYPES, type IntegrationType } from '../management';

/** A previous authorization key during its grace period: its hex SHA-256 and when it stops working. */
export class PreviousAuthorizationKeyValue {
  @Matches(/^[0-9a-f]{64}$/)
  authorization_key_sha256!: string;

  @IsISO8601()
  expires_at!: string;
}

export class PayloadFieldMappingValue {
  @IsIn(PLATFORM_ALERT_FIELDS)
  field_name!: PlatformAlertField;

  @IsArray()
  @ArrayMaxSize(100)
  path!: PayloadPath;

  @IsIn(PAYLOAD_FIELD_TYPES)
  type!: PayloadFieldType;
}

/**
 * The state of one integration as the gateway and the processor need it, published by
 * integration-config on every change (and on project tier changes) to the compacted integrations topic.
 * The authorization key itself never leaves integration-config: only its SHA-256 travels (and the
 * previous key's, during a rotation's grace period).
 */
export class IntegrationSnapshotValue {
  @IsString()
  id!: string;

  @IsString()
  project_id!: string;

  @IsIn(PROJECT_TIERS)
  project_tier!: ProjectTier;

  @IsIn(INTEGRATION_TYPES)
  type!: IntegrationType;

  @IsString()
  name!: string;

  @IsBoolean()
  active!: boolean;

  /** The unguessable identifier in the integration's receiving URL. */
  @IsString()
  url_token!: string;

  /** Hex SHA-256 of the authorization key (a 128+ bit random secret, so a fast hash is sound). */
  @Matches(/^[0-9a-f]{64}$/)
  authorization_key_sha256!: string;

  /**
   * During a key rotation's grace period: the hex SHA-256 of the newest previous authorization key
   * and when it stops working, for gateways that predate previous_authorization_keys. The gateway
   * decides expiry at request time, so no snapshot is needed at the expiry instant. Both present or
   * both absent.
   */
  @IsOptional()
  @Matches(/^[0-9a-f]{64}$/)
  previous_authorization_key_sha256?: string;

  @IsOptional()
  @IsISO8601()
  previous_authorization_key_expires_at?: string;

  /**
   * Every previous authorization key that still works, newest first, each until its own expiry
   * (the first is the one above). Absent from snapshots of integration-config releases that kept one.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(16)
  @ValidateNested({ each: true })
  @Type(() => PreviousAuthorizationKeyValue)
  previous_authorization_keys?: PreviousAuthorizationKeyValue[];

  /**
   * The webhook signing secret, encrypted (signingSecretCipher: AES-256-GCM under a key derived from
   * INTEGRATION_KEY_ENCRYPTION_KEY, which the gateway is given too); absent when the integration
   * has none. Never plaintext on Kafka.
   */
  @IsOptional()
  @IsString()
  signing_secret_encrypted?: string;

  /**
   * True: a Grafana-form signature (X-Grafana-Alerting-Signature) may come without its timestamp
   * header; absent: it must carry one. Only read while the integration has a signing secret.
   */
  @IsOptional()
  @IsBoolean()
  allow_signature_without_timestamp?: boolean;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PayloadFieldMappingValue)
  payload_field_mapping!: PayloadFieldMappingValue[];

  /** Requests per minute this integration may send; absent means the gateway's default. */
  @IsOptional()
  @IsInt()
  @Min(1)
  rate_limit_per_minute?: number;

  /** A request is expected at least this often (minutes), else the processor raises a heartbeat alert; absent: off. */
  @IsOptional()
  @IsInt()
  @Min(HEARTBEAT_INTERVAL_MINUTES.min)
  @Max(HEARTBEAT_INTERVAL_MINUTES.max)
  heartbeat_interval_minutes?: number;

  /** Increases with every change, so a consumer can ignore a stale snapshot. */
  @IsInt()
  @Min(0)
  version!: number;

  @IsISO8601()
  updated_at!: string;
}
