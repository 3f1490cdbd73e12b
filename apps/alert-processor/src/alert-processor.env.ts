import { BaseEnv, LOCAL_ADMIN_TOKEN } from '@alert-ingestion/config';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';

const toNumber = ({ value }: { value: unknown }) => Number(value);

/** The alert processor's environment (CONTRACT.md "Processes and defaults"), validated once at start-up. */
export class AlertProcessorEnv extends BaseEnv {
  override PORT = 8082;

  /** Bootstrap administrator token; may read every project's alerts. */
  @IsString()
  ADMIN_TOKEN = LOCAL_ADMIN_TOKEN;

  /** Most raw alert messages stored in one database transaction. */
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(10_000)
  PROCESSOR_MAX_BATCH_MESSAGES = 1000;

  /** How long a fetch waits for more raw alerts: short, it adds directly to the receive latency. */
  @Transform(toNumber)
  @IsInt()
  @Min(0)
  @Max(10_000)
  PROCESSOR_MAX_WAIT_MS = 5;

  /** Partitions of alerts.raw.v1 processed at the same time by one instance (one transaction each). */
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(64)
  PROCESSOR_PARTITIONS_CONCURRENTLY = 4;

  @Transform(toNumber)
  @IsInt()
  @Min(1024)
  PROCESSOR_MAX_BYTES_PER_PARTITION = 1_048_576;

  @Transform(toNumber)
  @IsInt()
  @Min(1024)
  PROCESSOR_MAX_BYTES = 10_485_760;

  @Transform(toNumber)
  @IsInt()
  @Min(1000)
  PROCESSOR_SESSION_TIMEOUT_MS = 10_000;

  @Transform(toNumber)
  @IsInt()
  @Min(100)
  PROCESSOR_HEARTBEAT_INTERVAL_MS = 1_000;

  /** How long a raw alert waits for its integration to appear in the integrations view before it is dead-lettered. */
  @Transform(toNumber)
  @IsInt()
  @Min(0)
  INTEGRATION_LOOKUP_TIMEOUT_MS = 5_000;

  @Transform(toNumber)
  @IsInt()
  @Min(2)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /** Outbox rows published per Kafka transaction. */
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(10_000)
  EVENT_RELAY_BATCH_SIZE = 1000;

  /** Fallback poll of the outbox when no notification arrives. */
  @Transform(toNumber)
  @IsInt()
  @Min(10)
  EVENT_RELAY_POLL_MS = 500;

  /** Pause before another attempt to become the relay (another instance leads) or after a failure. */
  @Transform(toNumber)
  @IsInt()
  @Min(10)
  EVENT_RELAY_RETRY_MS = 1_000;
}
