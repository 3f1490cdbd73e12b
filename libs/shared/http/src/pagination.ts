import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** `page` and `per_page` of a list endpoint, as GitLab's API takes them (per_page 20 by default, at most 100). */
export class PaginationQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PER_PAGE)
  per_page?: number;
}

/** Where one page of a list sits among all pages. */
export interface PageInfo {
  total: number;
  page: number;
  perPage: number;
  totalPages: number;
  nextPage: number | null;
  previousPage: number | null;
}

/** The requested page (defaults applied) and the rows to skip to reach it. */
export function pageRequest(query: PaginationQueryDto): { page: number; perPage: number; offset: number } {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

export function pageInfo(total: number, page: number, perPage: number): PageInfo {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return {
    total,
    page,
    perPage,
    totalPages,
    nextPage: page < totalPages ? page + 1 : null,
    previousPage: page > 1 ? Math.min(page - 1, totalPages) : null,
  };
}

/** GitLab's pagination headers: X-Total, X-Total-Pages, X-Page, X-Per-Page, X-Next-Page and X-Prev-Page (empty when there is none). */
export function paginationHeaders(info: PageInfo): Record<string, string> {
  return {
    'X-Total': String(info.total),
    'X-Total-Pages': String(info.totalPages),
    'X-Page': String(info.page),
    'X-Per-Page': String(info.perPage),
    'X-Next-Page': info.nextPage === null ? '' : String(info.nextPage),
    'X-Prev-Page': info.previousPage === null ? '' : String(info.previousPage),
  };
}
