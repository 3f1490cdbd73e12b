import { CurrentPrincipal, CurrentProject, PathId, Principal, ProjectAccess } from '@alert-ingestion/access';
import { ALERTS_API, ALERTS_API_BASE, AlertsApiRoute, CreateSilenceDto, ListSilencesQueryDto, SilenceDto, UpdateSilenceDto } from '@alert-ingestion/alerts-api';
import { silenceNotFound, SilencesService } from '@alert-ingestion/alerts-feature';
import { paginationHeaders } from '@alert-ingestion/http';
import { Body, Controller, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/** `:silence_id`; anything that is not an id names no silence (404). */
const SilenceId = () => PathId('silence_id', silenceNotFound);

/**
 * Silences (maintenance windows) of a project, as Alertmanager users know them (docs/api-guide.md
 * "Silences"): developer+ reads them, maintainer+ creates, edits and expires them (ALERTS_API).
 */
@ApiTags('silences')
@Controller(ALERTS_API_BASE)
export class SilencesController {
  constructor(private readonly silences: SilencesService) {}

  @AlertsApiRoute(ALERTS_API.createSilence)
  create(@CurrentProject() project: ProjectAccess, @CurrentPrincipal() principal: Principal, @Body() body: CreateSilenceDto): Promise<SilenceDto> {
    return this.silences.create(project.projectId.toString(), body, principal);
  }

  /** Newest first, expired ones included unless `state` says otherwise, with GitLab's pagination headers. */
  @AlertsApiRoute(ALERTS_API.listSilences)
  async list(@CurrentProject() project: ProjectAccess, @Query() query: ListSilencesQueryDto, @Res({ passthrough: true }) response: Response): Promise<SilenceDto[]> {
    const result = await this.silences.list(project.projectId.toString(), query);
    response.set(paginationHeaders(result.page));
    return result.silences;
  }

  @AlertsApiRoute(ALERTS_API.getSilence)
  find(@CurrentProject() project: ProjectAccess, @SilenceId() id: bigint): Promise<SilenceDto> {
    return this.silences.find(project.projectId.toString(), id.toString());
  }

  @AlertsApiRoute(ALERTS_API.updateSilence)
  update(@CurrentProject() project: ProjectAccess, @SilenceId() id: bigint, @Body() body: UpdateSilenceDto): Promise<SilenceDto> {
    return this.silences.update(project.projectId.toString(), id.toString(), body);
  }

  @AlertsApiRoute(ALERTS_API.expireSilence)
  expire(@CurrentProject() project: ProjectAccess, @SilenceId() id: bigint): Promise<SilenceDto> {
    return this.silences.expire(project.projectId.toString(), id.toString());
  }
}
