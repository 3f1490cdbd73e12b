import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

export const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

/**
 * Variables every service reads (CONTRACT.md "Processes and defaults"). Defaults point at the local
 * stack that `npm start` brings up.
 */
export class BaseEnv {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgresql:// URL' })
  DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/alert_ingestion';

  /** Comma-separated host:port list. */
  @Matches(/^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, { message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS = '127.0.0.1:9092';

  /** Prefix for every topic name; empty in production, per-run in tests. */
  @IsString()
  @Matches(/^[a-zA-Z0-9._-]*$/, { message: 'may only hold letters, digits, ".", "_" and "-"' })
  KAFKA_TOPIC_PREFIX = '';

  @IsString()
  @Matches(/^[a-zA-Z0-9._-]+$/, { message: 'may only hold letters, digits, ".", "_" and "-"' })
  KAFKA_CLIENT_ID = 'alert-ingestion';

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 0;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'log';

  @IsOptional()
  @IsString()
  NODE_ENV?: string = 'development';
}
