import { CurrentPrincipal, CurrentProject, Principal, ProjectAccess, ProjectRoute } from '@alert-ingestion/access';
import { CreateSilenceDto, ListSilencesQueryDto, SilenceDto, UpdateSilenceDto } from '@alert-ingestion/alerts-api';
import { SilencesService } from '@alert-ingestion/alerts-feature';
import { REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { ApiErrorResponses, ApiPageResponse, paginationHeaders } from '@alert-ingestion/http';
import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

const ApiSilenceId = () => ApiParam({ name: 'silence_id', description: 'The silence id.', schema: { type: 'integer', minimum: 1 } });

/**
 * Silences (maintenance windows) of a project, as Alertmanager users know them (README.md
 * "Silences"): developer+ reads them, maintainer+ creates, edits and expires them.
 */
@ApiTags('silences')
@Controller('api/v4/projects/:id/silences')
export class SilencesController {
  constructor(private readonly silences: SilencesService) {}

  @Post()
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiOperation({ summary: 'Create a silence: alerts matching all its matchers while it is active carry silenced_by' })
  @ApiCreatedResponse({ type: SilenceDto })
  @ApiErrorResponses(400)
  create(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Body() body: CreateSilenceDto): Promise<SilenceDto> {
    return this.silences.create(project.projectId.toString(), body, principal);
  }

  /** Newest first, expired ones included unless `state` says otherwise, with GitLab's pagination headers. */
  @Get()
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readSilences)
  @ApiOperation({ summary: 'List the silences of a project, newest first' })
  @ApiPageResponse(SilenceDto, 'One page of silences.')
  @ApiErrorResponses(400)
  async list(@CurrentProject() project: ProjectAccess, @Query() query: ListSilencesQueryDto, @Res({ passthrough: true }) response: Response): Promise<SilenceDto[]> {
    const result = await this.silences.list(project.projectId.toString(), query);
    response.set(paginationHeaders(result.page));
    return result.silences;
  }

  @Get(':silence_id')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.readSilences)
  @ApiOperation({ summary: 'Get a silence' })
  @ApiSilenceId()
  @ApiOkResponse({ type: SilenceDto })
  find(@CurrentProject() project: ProjectAccess, @Param('silence_id') id: string): Promise<SilenceDto> {
    return this.silences.find(project.projectId.toString(), id);
  }

  @Put(':silence_id')
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiOperation({ summary: 'Change the comment, the end or the matchers of a silence that has not expired' })
  @ApiSilenceId()
  @ApiOkResponse({ type: SilenceDto })
  @ApiErrorResponses(400, [409, 'The silence has expired.'])
  update(@CurrentProject() project: ProjectAccess, @Param('silence_id') id: string, @Body() body: UpdateSilenceDto): Promise<SilenceDto> {
    return this.silences.update(project.projectId.toString(), id, body);
  }

  @Post(':silence_id/expire')
  @HttpCode(200)
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiOperation({ summary: 'Expire a silence: it ends now and stays listed' })
  @ApiSilenceId()
  @ApiOkResponse({ type: SilenceDto, description: 'The silence, expired (an expired one is answered as it is).' })
  expire(@CurrentProject() project: ProjectAccess, @Param('silence_id') id: string): Promise<SilenceDto> {
    return this.silences.expire(project.projectId.toString(), id);
  }
}
