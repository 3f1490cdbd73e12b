import { ALERT_STATUSES, AlertStatus, SEVERITIES, Severity } from '@alert-ingestion/contracts';
import { MAX_PER_PAGE, PaginationQueryDto } from '@alert-ingestion/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Transform } from 'class-transformer';

/** A status filter: one status, or `open` (triggered and acknowledged, as the status counts name it). */
export const ALERT_STATUS_FILTERS = [...ALERT_STATUSES, 'open'] as const;
export type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];

/** What `GET /projects/:id/alerts` sorts by (`sort`); without it, newest first (highest iid first). */
export const ALERT_SORTS = ['severity', 'started_at', 'events', 'updated_at'] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];

/** The direction of `sort` (`order`): `desc` is the default, and for severity puts the most severe first. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** A multi-value query parameter (`severity=critical&severity=high`, or `severity=critical,high`) as a list. */
function listOf(value: unknown): unknown {
  const values = Array.isArray(value) ? value : [value];
  return values.flatMap((item) => (typeof item === 'string' ? item.split(',').filter((part) => part !== '') : [item]));
}

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

  @ApiPropertyOptional({ type: 'string', description: 'Only alerts assigned to the member of this username (among others, maybe).', example: 'mara' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_.-]{1,255}$/, { message: 'assignee_username must be a username: letters, digits, _ . or -' })
  assignee_username?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...SEVERITIES] },
    description: 'Only alerts of these severities: repeat the parameter (`severity=critical&severity=high`) or separate them by commas.',
  })
  @IsOptional()
  @Transform(({ value }) => listOf(value))
  @IsArray()
  @ArrayMaxSize(SEVERITIES.length * 2)
  @IsIn(SEVERITIES, { each: true, message: `severity must be one or more of ${SEVERITIES.join(', ')}` })
  severity?: Severity[];

  @ApiPropertyOptional({
    enum: ALERT_SORTS,
    description: 'What the list is sorted by, in `order`; ties (same severity, time or count) by iid in the same order. Without it: newest first.',
  })
  @IsOptional()
  @IsIn(ALERT_SORTS, { message: `sort must be one of ${ALERT_SORTS.join(', ')}` })
  sort?: AlertSort;

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'desc', description: '`desc`: most severe, latest or most events first (without `sort`: newest first); `asc`: the other way round.' })
  @IsOptional()
  @IsIn(SORT_ORDERS, { message: 'order must be asc or desc' })
  order?: SortOrder;
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
