import {
  ACCESS_LEVELS,
  AccessLevel,
  ALERT_BULK_SKIP_REASONS,
  ALERT_STATUSES,
  AlertBulkSkipReason,
  AlertBulkUpdateResult,
  AlertStatus,
  AssigneeCandidate,
  MAX_ALERT_ASSIGNEES,
  MAX_BULK_UPDATE_IIDS,
} from '@alert-ingestion/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

// Assigning alerts and changing several at once (docs/api-guide.md "Alert workflow"): bodies and answers.

const MAX_ID = 2 ** 53 - 1;

/** Body of `PUT /projects/:id/alerts/:iid/assignees`. */
export class UpdateAlertAssigneesDto {
  @ApiProperty({ type: [Number], maxItems: MAX_ALERT_ASSIGNEES, description: 'User ids of developer+ members; the alert gets exactly these (empty: nobody).', example: [42] })
  @IsArray()
  @ArrayMaxSize(MAX_ALERT_ASSIGNEES)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  assignee_ids!: number[];
}

/** Body of `POST /projects/:id/alerts/bulk_update`: a status, assignees, or both, for each alert of `iids`. */
export class AlertBulkUpdateDto {
  @ApiProperty({ type: [Number], minItems: 1, maxItems: MAX_BULK_UPDATE_IIDS, description: 'Alert iids.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_UPDATE_IIDS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  iids!: number[];

  @ApiPropertyOptional({ enum: ALERT_STATUSES, description: 'Resolved alerts are skipped: a bulk update never reopens one.' })
  @IsOptional()
  @IsIn(ALERT_STATUSES)
  status?: AlertStatus;

  @ApiPropertyOptional({ type: [Number], maxItems: MAX_ALERT_ASSIGNEES, description: 'User ids of developer+ members; each alert gets exactly these.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ALERT_ASSIGNEES)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ID, { each: true })
  assignee_ids?: number[];
}

export class AlertBulkSkippedDto {
  @ApiProperty({ type: 'integer' })
  iid!: number;

  @ApiProperty({ enum: ALERT_BULK_SKIP_REASONS, description: '`not_found`, `resolved` (never reopened), `unchanged` (already as asked).' })
  reason!: AlertBulkSkipReason;
}

export class AlertBulkUpdateResultDto implements AlertBulkUpdateResult {
  @ApiProperty({ type: [Number], description: 'The iids changed, in the order asked.' })
  updated!: number[];

  @ApiProperty({ type: [AlertBulkSkippedDto] })
  skipped!: AlertBulkSkippedDto[];
}

export class AssigneeCandidateDto implements AssigneeCandidate {
  @ApiProperty({ type: 'integer', description: 'The user id.' })
  id!: number;

  @ApiProperty()
  username!: string;

  @ApiProperty({ enum: ACCESS_LEVELS })
  access_level!: AccessLevel;
}
