import { ACTIVITY_KINDS, ACTIVITY_SOURCES, ActivityActor, ActivityEntryView, ActivityKind, ActivitySource } from '@alert-ingestion/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

// The timelines' HTTP shapes (docs/api-guide.md "Alert workflow"), shared by every subject that has
// one (an alert, an incident): the entry as answered and the body of a note.

/** The longest note a member may write, in characters. */
export const NOTE_BODY_MAX = 10_000;

export class ActivityActorDto {
  @ApiProperty({ enum: ['user', 'service'], description: '`service`: the service itself (a payload, a heartbeat, a setting) or the administrator token.' })
  type!: ActivityActor['type'];

  @ApiPropertyOptional({ type: 'integer', description: 'The user (type `user` only).' })
  id?: number;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'The user (type `user` only); null when the user no longer exists.' })
  username?: string | null;
}

export class ActivityEntryDto implements ActivityEntryView {
  @ApiProperty({ type: 'integer', description: 'Entries derived from the alert itself (alert_created, events_grouped) have id 0.' })
  id!: number;

  @ApiProperty({ enum: ACTIVITY_KINDS })
  kind!: ActivityKind;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  // The services' actor (ActivityActor, a union) is one of these.
  @ApiProperty({ type: ActivityActorDto })
  actor!: ActivityActorDto;

  @ApiProperty({ enum: ACTIVITY_SOURCES, description: 'Where the change came from: `api` (a person), `payload`, `heartbeat`, `incident`, `notification`, `settings`.' })
  source!: ActivitySource;

  @ApiProperty({ type: 'string', nullable: true })
  reason!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What the kind says more: `from`/`to` of a status change, `body` of a note, ...' })
  details!: Record<string, unknown>;
}

/** Body of `POST .../notes`: a note on a timeline, in Markdown (rendered without raw HTML). */
export class CreateNoteDto {
  @ApiProperty({ minLength: 1, maxLength: NOTE_BODY_MAX, description: 'Markdown.' })
  @IsString()
  @MinLength(1)
  @MaxLength(NOTE_BODY_MAX)
  @Matches(/\S/, { message: 'body must not be blank' })
  body!: string;
}
