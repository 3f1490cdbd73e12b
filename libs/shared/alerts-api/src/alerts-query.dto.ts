import { ALERT_STATUSES, AlertStatus } from '@alert-ingestion/contracts';
import { MAX_PER_PAGE, PaginationQueryDto } from '@alert-ingestion/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Transform } from 'class-transformer';

/** A status filter: one status, or `open` (triggered and acknowledged, as the status counts name it). */
export const ALERT_STATUS_FILTERS = [...ALERT_STATUSES, 'open'] as const;
export type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];

/** Query of `GET /projects/:id/alerts`. */
export class ListAlertsQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: ALERT_STATUS_FILTERS, description: '`open`: triggered and acknowledged.' })
  @IsOptional()
  @IsIn(ALERT_STATUS_FILTERS)
  status?: AlertStatusFilter;

  @ApiPropertyOptional({ description: 'Text searched (case-insensitive) in the title, description, service, monitoring tool and hosts.', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;

  @ApiPropertyOptional({ type: 'boolean', description: 'true: only alerts an active silence covers; false: only the others.' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  silenced?: boolean;

  @ApiPropertyOptional({ type: 'string', description: 'Only alerts assigned to this user id, to the caller (`me`), or to nobody (`none`).', example: 'me' })
  @IsOptional()
  @Matches(/^(me|none|[1-9][0-9]{0,15})$/, { message: 'assignee_id must be a user id, me or none' })
  assignee_id?: string;
}

/** Body of `PUT /projects/:id/alerts/:iid`. */
export class UpdateAlertStatusDto {
  @ApiProperty({ enum: ALERT_STATUSES })
  @IsIn(ALERT_STATUSES)
  status!: AlertStatus;
}

/** `GET .../deliveries` answers the latest 100 unless asked for fewer (CONTRACT.md: "at least the last 100"). */
export const DELIVERIES_PER_PAGE = MAX_PER_PAGE;

/** Query of `GET /projects/:id/alert_integrations/:iid/deliveries`: a page, of DELIVERIES_PER_PAGE by default. */
export class DeliveriesQueryDto extends PaginationQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DELIVERIES_PER_PAGE })
  declare per_page?: number;
}
