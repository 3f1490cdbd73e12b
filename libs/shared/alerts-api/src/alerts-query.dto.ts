import { ALERT_STATUSES, AlertStatus } from '@alert-ingestion/contracts';
import { PaginationQueryDto } from '@alert-ingestion/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
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
}

/** Body of `PUT /projects/:id/alerts/:iid`. */
export class UpdateAlertStatusDto {
  @ApiProperty({ enum: ALERT_STATUSES })
  @IsIn(ALERT_STATUSES)
  status!: AlertStatus;
}
