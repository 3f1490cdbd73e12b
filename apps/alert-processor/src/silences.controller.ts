import { CurrentPrincipal, CurrentProject, PathId, Principal, ProjectAccess, ProjectRoute } from '@alert-ingestion/access';
import { ApiCreateSilence, ApiExpireSilence, ApiGetSilence, ApiListSilences, ApiUpdateSilence, CreateSilenceDto, ListSilencesQueryDto, SilenceDto, UpdateSilenceDto } from '@alert-ingestion/alerts-api';
import { silenceNotFound, SilencesService } from '@alert-ingestion/alerts-feature';
import { REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { paginationHeaders } from '@alert-ingestion/http';
import { Body, Controller, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/** `:silence_id`; anything that is not an id names no silence (404). */
const SilenceId = () => PathId('silence_id', silenceNotFound);

/**
 * Silences (maintenance windows) of a project, as Alertmanager users know them (docs/api-guide.md
 * "Silences"): developer+ reads them, maintainer+ creates, edits and expires them.
 */
@ApiTags('silences')
@Controller('api/v4/projects/:id/silences')
export class SilencesController {
  constructor(private readonly silences: SilencesService) {}

  @Post()
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiCreateSilence()
  create(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Body() body: CreateSilenceDto): Promise<SilenceDto> {
    return this.silences.create(project.projectId.toString(), body, principal);
  }

  /** Newest first, expired ones included unless `state` says otherwise, with GitLab's pagination headers. */
  @Get()
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readSilences)
  @ApiListSilences()
  async list(@CurrentProject() project: ProjectAccess, @Query() query: ListSilencesQueryDto, @Res({ passthrough: true }) response: Response): Promise<SilenceDto[]> {
    const result = await this.silences.list(project.projectId.toString(), query);
    response.set(paginationHeaders(result.page));
    return result.silences;
  }

  @Get(':silence_id')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readSilences)
  @ApiGetSilence()
  find(@CurrentProject() project: ProjectAccess, @SilenceId() id: bigint): Promise<SilenceDto> {
    return this.silences.find(project.projectId.toString(), id.toString());
  }

  @Put(':silence_id')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiUpdateSilence()
  update(@CurrentProject() project: ProjectAccess, @SilenceId() id: bigint, @Body() body: UpdateSilenceDto): Promise<SilenceDto> {
    return this.silences.update(project.projectId.toString(), id.toString(), body);
  }

  @Post(':silence_id/expire')
  @HttpCode(200)
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiExpireSilence()
  expire(@CurrentProject() project: ProjectAccess, @SilenceId() id: bigint): Promise<SilenceDto> {
    return this.silences.expire(project.projectId.toString(), id.toString());
  }
}
