import { AlertSilence, SILENCE_MATCHER_FIELDS, SILENCE_MATCHER_OPERATORS, SILENCE_STATES, SilenceMatcherField, SilenceMatcherOperator, SilenceState, SilenceView } from '@alert-ingestion/contracts';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiPropertyOptions, getSchemaPath, OmitType } from '@nestjs/swagger';
import { IsArray, IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

// The silences API's HTTP shapes (docs/api-guide.md "Silences"). The matchers are checked by the processor's
// domain (alerts-domain parseSilenceMatchers: fields, operators, RE2 syntax, limits), not here.

const COMMENT_MAX = 2000;

/** A matcher on an alert field (`hosts` matches when any host does). */
export class FieldSilenceMatcherDto {
  @ApiProperty({ enum: SILENCE_MATCHER_FIELDS, description: 'An alert field (`hosts` matches when any host does). Either `field` or `path`.' })
  field!: SilenceMatcherField;

  @ApiProperty({ enum: SILENCE_MATCHER_OPERATORS, description: "Alertmanager's: `=`, `!=`, `=~` and `!~` (RE2 regex matching the whole value)." })
  operator!: SilenceMatcherOperator;

  @ApiProperty({ maxLength: 1024, description: 'A missing alert value counts as the empty string.' })
  value!: string;
}

/** A matcher on a custom payload field. */
export class PathSilenceMatcherDto extends OmitType(FieldSilenceMatcherDto, ['field'] as const) {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
    example: ['labels', 'team'],
    description: 'A custom payload field by its path (object keys and array indexes). Either `field` or `path`.',
  })
  path!: Array<string | number>;
}

/** A silence's matchers: each names either an alert field or a payload path, never both. */
const MATCHERS_SCHEMA = {
  type: 'array',
  items: { oneOf: [{ $ref: getSchemaPath(FieldSilenceMatcherDto) }, { $ref: getSchemaPath(PathSilenceMatcherDto) }] },
} satisfies ApiPropertyOptions;

/** Body of `POST /projects/:id/silences`. */
@ApiExtraModels(FieldSilenceMatcherDto, PathSilenceMatcherDto)
export class CreateSilenceDto {
  @ApiProperty({ ...MATCHERS_SCHEMA, minItems: 1, maxItems: 32, description: 'All must hold.' })
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
@ApiExtraModels(FieldSilenceMatcherDto, PathSilenceMatcherDto)
export class UpdateSilenceDto {
  @ApiPropertyOptional({ ...MATCHERS_SCHEMA, minItems: 1, maxItems: 32 })
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

@ApiExtraModels(FieldSilenceMatcherDto, PathSilenceMatcherDto)
export class SilenceDto implements SilenceView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty(MATCHERS_SCHEMA)
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
