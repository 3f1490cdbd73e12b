import { ALERT_STATUSES, AlertStatus } from '@alert-ingestion/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** Query of `GET /projects/:id/alerts`. */
export class ListAlertsQueryDto {
  @IsOptional()
  @IsIn(ALERT_STATUSES)
  status?: AlertStatus;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PER_PAGE)
  per_page?: number;
}

/** Body of `PUT /projects/:id/alerts/:iid`. */
export class UpdateAlertStatusDto {
  @IsIn(ALERT_STATUSES)
  status!: AlertStatus;
}
