import { AlertSilence, SILENCE_MATCHER_FIELDS, SILENCE_MATCHER_OPERATORS, SILENCE_STATES, SilenceMatcherField, SilenceMatcherOperator, SilenceState, SilenceView } from '@alert-ingestion/contracts';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

// The silences API's HTTP shapes (docs/api-guide.md "Silences"). The matchers are checked by the processor's
// domain (alerts-domain parseSilenceMatchers: fields, operators, RE2 syntax, limits), not here.

const COMMENT_MAX = 2000;

export class SilenceMatcherDto {
  @ApiPropertyOptional({ enum: SILENCE_MATCHER_FIELDS, description: 'An alert field (`hosts` matches when any host does). Either `field` or `path`.' })
  field?: SilenceMatcherField;

  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
    example: ['labels', 'team'],
    description: 'A custom payload field by its path (object keys and array indexes). Either `field` or `path`.',
  })
  path?: Array<string | number>;

  @ApiProperty({ enum: SILENCE_MATCHER_OPERATORS, description: "Alertmanager's: `=`, `!=`, `=~` and `!~` (RE2 regex matching the whole value)." })
  operator!: SilenceMatcherOperator;

  @ApiProperty({ maxLength: 1024, description: 'A missing alert value counts as the empty string.' })
  value!: string;
}

/** Body of `POST /projects/:id/silences`. */
export class CreateSilenceDto {
  @ApiProperty({ type: [SilenceMatcherDto], minItems: 1, maxItems: 32, description: 'All must hold.' })
  @IsArray()
  matchers!: unknown[];

  @ApiPropertyOptional({ format: 'date-time', description: 'Now when absent or in the past.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  starts_at?: string;

  @ApiProperty({ format: 'date-time', description: 'After starts_at, and in the future.' })
  @IsISO8601({ strict: true })
  ends_at!: string;

  @ApiProperty({ maxLength: COMMENT_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(COMMENT_MAX)
  comment!: string;
}

/** Body of `PUT /projects/:id/silences/:silence_id`: any of comment, ends_at and matchers. */
export class UpdateSilenceDto {
  @ApiPropertyOptional({ type: [SilenceMatcherDto], minItems: 1, maxItems: 32 })
  @IsOptional()
  @IsArray()
  matchers?: unknown[];

  @ApiPropertyOptional({ format: 'date-time', description: 'After starts_at, and in the future (to end a silence now, expire it).' })
  @IsOptional()
  @IsISO8601({ strict: true })
  ends_at?: string;

  @ApiPropertyOptional({ maxLength: COMMENT_MAX })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(COMMENT_MAX)
  comment?: string;
}

/** Query of `GET /projects/:id/silences`. */
export class ListSilencesQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: SILENCE_STATES })
  @IsOptional()
  @IsIn(SILENCE_STATES)
  state?: SilenceState;
}

export class SilenceCreatorDto {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  username!: string;
}

export class SilenceDto implements SilenceView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ type: [SilenceMatcherDto] })
  matchers!: SilenceView['matchers'];

  @ApiProperty({ format: 'date-time' })
  starts_at!: string;

  @ApiProperty({ format: 'date-time' })
  ends_at!: string;

  @ApiProperty()
  comment!: string;

  @ApiProperty({ type: SilenceCreatorDto, nullable: true, description: 'null: created with the administrator token.' })
  created_by!: SilenceCreatorDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;

  @ApiProperty({ enum: SILENCE_STATES })
  state!: SilenceState;
}

export class AlertSilenceDto implements AlertSilence {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  comment!: string;

  @ApiProperty({ format: 'date-time' })
  ends_at!: string;
}
