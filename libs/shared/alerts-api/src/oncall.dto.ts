import {
  ActivePeriodView,
  OncallCalendarUrlView,
  OncallGapView,
  OncallOverrideView,
  OncallRotationRef,
  OncallRotationView,
  OncallScheduleRef,
  OncallScheduleView,
  OncallShiftView,
  OncallUser,
  OnCallMemberView,
  OnCallReasonView,
  OnCallView,
  OVERRIDE_STATES,
  OverrideState,
  RemovedParticipantView,
  RotationPreviewShiftView,
  SHIFT_LENGTH_UNITS,
  SHIFT_SOURCES,
  ShiftLengthUnit,
  ShiftSource,
} from '@alert-ingestion/contracts';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';

// The on-call schedules API's HTTP shapes (docs/api-guide.md "On-call schedules"). Time zones, local
// times, shift lengths, participants and override windows are checked by the processor's domain
// (oncall-domain planOncallEdit), which names the field of a refusal; here only their types.

const NAME_MAX = 200;
const DESCRIPTION_MAX = 2000;
const MAX_ID = 2 ** 53 - 1;
const LOCAL_DATE_TIME = { example: '2026-03-30T09:00', description: "A local date and time in the schedule's time zone, without an offset." };
const WHEN = {
  example: '2026-03-30T07:00:00Z',
  description: "An instant with an offset (`2026-03-30T07:00:00Z`), or a local date and time in the schedule's time zone (`2026-03-30T09:00`).",
};

/** Body of `POST /projects/:id/oncall_schedules`. */
export class CreateOncallScheduleDto {
  @ApiProperty({ maxLength: NAME_MAX, description: 'Unique in the project.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiProperty({ example: 'Europe/Berlin', description: 'An IANA time zone name; abbreviations such as PST and UTC offsets are refused.' })
  @IsString()
  @MaxLength(64)
  time_zone!: string;
}

/** Body of `PUT /projects/:id/oncall_schedules/:schedule_id`: any of these. A new zone applies from now on. */
export class UpdateOncallScheduleDto extends PartialType(CreateOncallScheduleDto) {}

export class ActivePeriodDto implements ActivePeriodView {
  @ApiProperty({ example: '09:00', description: 'Local time of day the shift becomes active.' })
  @IsString()
  @MaxLength(5)
  start_time!: string;

  @ApiProperty({ example: '17:00', description: 'Local time of day it stops; before start_time, it runs past midnight.' })
  @IsString()
  @MaxLength(5)
  end_time!: string;
}

/** Body of `POST /projects/:id/oncall_schedules/:schedule_id/rotations`. */
export class CreateRotationDto {
  @ApiProperty({ maxLength: NAME_MAX, description: "Unique among the schedule's rotations." })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name!: string;

  @ApiProperty({ ...LOCAL_DATE_TIME, description: `The first handoff: ${LOCAL_DATE_TIME.description} Shifts of days and weeks hand over at its clock time.` })
  @IsString()
  @MaxLength(32)
  starts_at!: string;

  @ApiPropertyOptional({ ...LOCAL_DATE_TIME, type: 'string', nullable: true, description: `No shift after it: ${LOCAL_DATE_TIME.description} Null: the rotation goes on.` })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  ends_at?: string | null;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Shift length in shift_length_unit: up to 8760 hours, 365 days or 52 weeks.' })
  @IsInt()
  shift_length!: number;

  @ApiProperty({ enum: SHIFT_LENGTH_UNITS, description: 'Hours count elapsed time; days and weeks hand over at the same local time across daylight-saving changes.' })
  @IsIn(SHIFT_LENGTH_UNITS)
  shift_length_unit!: ShiftLengthUnit;

  @ApiPropertyOptional({ type: ActivePeriodDto, nullable: true, description: 'Only this daily window of each shift is on call (not on hourly rotations). Null: around the clock.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ActivePeriodDto)
  active_period?: ActivePeriodDto | null;

  @ApiProperty({ type: [Number], minItems: 1, maxItems: 100, description: 'User ids of project members, in turn, each once.', example: [4, 7] })
  @IsArray()
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  participant_ids!: number[];
}

/** Body of `PUT .../rotations/:rotation_id`: any of these; new rules take effect from now (the shifts before stay). */
export class UpdateRotationDto extends PartialType(CreateRotationDto) {}

/** Body of `POST .../rotations/preview`: a rotation's rules, and how many of its next shifts to show. */
export class PreviewRotationDto extends OmitType(CreateRotationDto, ['name'] as const) {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 50, default: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  count?: number;
}

/** Body of `POST .../overrides`. */
export class CreateOverrideDto {
  @ApiProperty({ type: 'integer', description: 'The member who takes over (a developer may name only themselves).' })
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  user_id!: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'The rotation whose on-call they take over; null or absent: the whole schedule.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  rotation_id?: number | null;

  @ApiPropertyOptional({ ...WHEN, description: `${WHEN.description} Now when absent or in the past.` })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  starts_at?: string;

  @ApiProperty({ ...WHEN, description: `${WHEN.description} In the future, after starts_at, at most 366 days later.` })
  @IsString()
  @MaxLength(40)
  ends_at!: string;
}

/** Query of `GET .../oncall_schedules/:schedule_id/on_call`. */
export class OnCallQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Any instant, past or future (ISO 8601 with an offset); now when absent.' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  at?: string;
}

/** Query of `GET .../oncall_schedules/:schedule_id/shifts`. */
export class ShiftsQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Now when absent.' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  starts_at?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Two weeks after starts_at when absent; at most five weeks after it.' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  ends_at?: string;

  @ApiPropertyOptional({ type: 'integer', description: "Only this member's shifts." })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  user_id?: number;
}

/** Query of `GET .../oncall_schedules/:schedule_id/overrides`. */
export class ListOverridesQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: OVERRIDE_STATES })
  @IsOptional()
  @IsIn(OVERRIDE_STATES)
  state?: OverrideState;
}

/** Query of the calendar feed: its secret, and optionally one member. */
export class CalendarFeedQueryDto {
  @ApiProperty({ description: 'The secret of the calendar URL (reset_calendar_url gives it).' })
  @IsString()
  @MaxLength(100)
  token!: string;

  @ApiPropertyOptional({ type: 'integer', description: "Only this member's shifts." })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  user_id?: number;
}

export class OncallUserDto implements OncallUser {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  username!: string;
}

export class OncallRotationRefDto implements OncallRotationRef {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  name!: string;
}

export class RemovedParticipantDto implements RemovedParticipantView {
  @ApiProperty({ type: OncallUserDto })
  user!: OncallUserDto;

  @ApiProperty({ format: 'date-time' })
  removed_at!: string;
}

export class OncallRotationDto implements OncallRotationView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  name!: string;

  @ApiProperty(LOCAL_DATE_TIME)
  starts_at!: string;

  @ApiProperty({ ...LOCAL_DATE_TIME, type: 'string', nullable: true })
  ends_at!: string | null;

  @ApiProperty({ type: 'integer' })
  shift_length!: number;

  @ApiProperty({ enum: SHIFT_LENGTH_UNITS })
  shift_length_unit!: ShiftLengthUnit;

  @ApiProperty({ type: ActivePeriodDto, nullable: true })
  active_period!: ActivePeriodDto | null;

  @ApiProperty({ type: [OncallUserDto] })
  participants!: OncallUserDto[];

  @ApiProperty({ type: [RemovedParticipantDto], description: 'Members removed from the project, who left the rotation then.' })
  removed_participants!: RemovedParticipantDto[];

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class OnCallReasonDto implements OnCallReasonView {
  @ApiProperty({ enum: SHIFT_SOURCES })
  source!: ShiftSource;

  @ApiProperty({ type: OncallRotationRefDto, nullable: true, description: 'Null: an override of the whole schedule.' })
  rotation!: OncallRotationRefDto | null;

  @ApiProperty({ type: 'integer', nullable: true })
  override_id!: number | null;

  @ApiProperty({ format: 'date-time' })
  shift_starts_at!: string;

  @ApiProperty({ format: 'date-time' })
  shift_ends_at!: string;
}

export class OnCallMemberDto implements OnCallMemberView {
  @ApiProperty({ type: OncallUserDto })
  user!: OncallUserDto;

  @ApiProperty({ type: [OnCallReasonDto] })
  reasons!: OnCallReasonDto[];
}

export class OncallScheduleRefDto implements OncallScheduleRef {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  name!: string;

  @ApiProperty({ example: 'Europe/Berlin' })
  time_zone!: string;
}

export class OncallScheduleDto extends OncallScheduleRefDto implements OncallScheduleView {
  @ApiProperty({ type: 'string', nullable: true })
  description!: string | null;

  @ApiProperty({ type: [OncallRotationDto] })
  rotations!: OncallRotationDto[];

  @ApiProperty({ type: [OnCallMemberDto], description: 'Who is on call now, and why.' })
  on_call_now!: OnCallMemberDto[];

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the calendar URL was made; null: none yet.' })
  calendar_url_created_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class OnCallDto implements OnCallView {
  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: OncallScheduleRefDto })
  schedule!: OncallScheduleRefDto;

  @ApiProperty({ type: [OnCallMemberDto], description: 'Empty: nobody is on call then.' })
  on_call!: OnCallMemberDto[];
}

/** From `starts_at` to `ends_at` (UTC instants): a shift, a gap, an override, a previewed shift. */
class OncallWindowDto {
  @ApiProperty({ format: 'date-time' })
  starts_at!: string;

  @ApiProperty({ format: 'date-time' })
  ends_at!: string;
}

export class OncallShiftDto extends OncallWindowDto implements OncallShiftView {

  @ApiProperty({ type: OncallUserDto })
  user!: OncallUserDto;

  @ApiProperty({ enum: SHIFT_SOURCES })
  source!: ShiftSource;

  @ApiProperty({ type: OncallRotationRefDto, nullable: true, description: 'Null: an override of the whole schedule.' })
  rotation!: OncallRotationRefDto | null;

  @ApiProperty({ type: 'integer', nullable: true })
  override_id!: number | null;
}

export class OncallGapDto extends OncallWindowDto implements OncallGapView {}

export class OncallOverrideDto extends OncallWindowDto implements OncallOverrideView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty({ type: OncallUserDto })
  user!: OncallUserDto;

  @ApiProperty({ type: OncallRotationRefDto, nullable: true, description: 'Null: the whole schedule.' })
  rotation!: OncallRotationRefDto | null;

  @ApiProperty({ type: OncallUserDto, nullable: true, description: 'Null: created with the administrator token.' })
  created_by!: OncallUserDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ enum: OVERRIDE_STATES })
  state!: OverrideState;
}

export class RotationPreviewShiftDto extends OncallWindowDto implements RotationPreviewShiftView {

  @ApiProperty(LOCAL_DATE_TIME)
  local_starts_at!: string;

  @ApiProperty(LOCAL_DATE_TIME)
  local_ends_at!: string;

  @ApiProperty({ example: '+01:00' })
  utc_offset_at_start!: string;

  @ApiProperty({ example: '+02:00' })
  utc_offset_at_end!: string;

  @ApiProperty({ type: OncallUserDto })
  user!: OncallUserDto;
}

export class OncallCalendarUrlDto implements OncallCalendarUrlView {
  @ApiProperty({ example: '/api/v4/projects/1/oncall_schedules/2/calendar.ics?token=...' })
  calendar_path!: string;

  @ApiProperty({ type: 'string', nullable: true, description: "On the console's address (CONSOLE_URL); null when it is not configured." })
  calendar_url!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
