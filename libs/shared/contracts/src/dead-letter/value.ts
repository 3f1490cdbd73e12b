import { IsInt, IsISO8601, IsOptional, IsString, Min } from 'class-validator';
import { Integer, Timestamp } from '../json-types';

/** A message that can never be processed, kept with the reason instead of being dropped. */
export class DeadLetterValue {
  @IsString()
  reason!: string;

  @IsString()
  source_topic!: string;

  @IsInt()
  @Min(0)
  source_partition!: Integer;

  @IsString()
  source_offset!: string;

  /** The original message value as text (it may not even be JSON). */
  @IsOptional()
  @IsString()
  original_value?: string | null;

  @IsISO8601()
  failed_at!: Timestamp;
}
