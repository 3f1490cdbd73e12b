import { IsBoolean, IsInt, IsISO8601, IsOptional, IsString, Min } from 'class-validator';
import { Integer, Timestamp } from '../json-types';

/**
 * A record of a transactional outbox that could not be published to its topic after bounded
 * retries (for example larger than the topic accepts). It goes to the topic's dead-letter topic
 * (`<topic>.dlq`) so that the records after it are published: one record never holds back the others.
 */
export class OutboxDeadLetterValue {
  @IsString()
  reason!: string;

  /** Where the record should have gone. */
  @IsString()
  topic!: string;

  @IsString()
  key!: string;

  /** The record's id in its outbox table. */
  @IsString()
  outbox_id!: string;

  /** The record's value (JSON text) as far as it fits here; null for a tombstone. */
  @IsOptional()
  @IsString()
  value!: string | null;

  @IsInt()
  @Min(0)
  value_bytes!: Integer;

  @IsBoolean()
  value_truncated!: boolean;

  @IsISO8601()
  failed_at!: Timestamp;
}
