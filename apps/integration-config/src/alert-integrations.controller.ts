import { NotFoundError } from '@alert-ingestion/http';
import {
  CreateIntegrationDto,
  CurrentProject,
  IntegrationJson,
  IntegrationListItemJson,
  IntegrationsService,
  ParseSamplePayloadDto,
  parseId,
  ProjectAccess,
  ProjectRoute,
  TestAlertDto,
  TestAlertResult,
  UpdateIntegrationDto,
} from '@alert-ingestion/integrations-feature';
import { PayloadAlertField } from '@alert-ingestion/integrations-domain';
import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, PipeTransform, Post, Put, Res } from '@nestjs/common';
import type { Response } from 'express';

/** `:iid` is an integration id; anything that is not one names no integration (404). */
class IntegrationIdPipe implements PipeTransform<string, bigint> {
  transform(value: string): bigint {
    const id = parseId(value);
    if (id === undefined) throw new NotFoundError('Integration not found.', 'integration_not_found');
    return id;
  }
}

/**
 * Alert integrations of a project (CONTRACT.md "Management API"; spec 1.7 and 5.2 for roles:
 * maintainer+ lists, creates, edits and configures; developer+ sends a test alert).
 */
@Controller('api/v4/projects/:id/alert_integrations')
export class AlertIntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get()
  @ProjectRoute('maintainer')
  list(@CurrentProject() project: ProjectAccess): Promise<IntegrationListItemJson[]> {
    return this.integrations.list(project.projectId);
  }

  @Post()
  @ProjectRoute('maintainer')
  create(@CurrentProject() project: ProjectAccess, @Body() body: CreateIntegrationDto): Promise<IntegrationJson> {
    return this.integrations.create(project.projectId, { ...body, type: body.type ?? 'http' });
  }

  @Post('parse_sample_payload')
  @HttpCode(HttpStatus.OK)
  @ProjectRoute('maintainer')
  parseSamplePayload(@CurrentProject() project: ProjectAccess, @Body() body: ParseSamplePayloadDto): { payload_alert_fields: PayloadAlertField[] } {
    return this.integrations.parseSamplePayload(project.tier, body.sample_payload);
  }

  @Get(':iid')
  @ProjectRoute('maintainer')
  get(@CurrentProject() project: ProjectAccess, @Param('iid', IntegrationIdPipe) iid: bigint): Promise<IntegrationJson> {
    return this.integrations.get(project.projectId, iid);
  }

  @Put(':iid')
  @ProjectRoute('maintainer')
  update(@CurrentProject() project: ProjectAccess, @Param('iid', IntegrationIdPipe) iid: bigint, @Body() body: UpdateIntegrationDto): Promise<IntegrationJson> {
    return this.integrations.update(project.projectId, iid, body);
  }

  @Delete(':iid')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ProjectRoute('maintainer')
  async remove(@CurrentProject() project: ProjectAccess, @Param('iid', IntegrationIdPipe) iid: bigint): Promise<void> {
    await this.integrations.delete(project.projectId, iid);
  }

  @Post(':iid/reset_authorization_key')
  @HttpCode(HttpStatus.OK)
  @ProjectRoute('maintainer')
  resetAuthorizationKey(@CurrentProject() project: ProjectAccess, @Param('iid', IntegrationIdPipe) iid: bigint): Promise<IntegrationJson> {
    return this.integrations.resetAuthorizationKey(project.projectId, iid);
  }

  /** 200 with the alerts created or grouped into; 202 when the gateway accepted it but processing is still under way. */
  @Post(':iid/test_alert')
  @ProjectRoute('developer')
  async testAlert(
    @CurrentProject() project: ProjectAccess,
    @Param('iid', IntegrationIdPipe) iid: bigint,
    @Body() body: TestAlertDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TestAlertResult['body']> {
    const payload = typeof body.payload === 'string' ? body.payload : JSON.stringify(body.payload);
    const result = await this.integrations.sendTestAlert(project.projectId, iid, payload);
    response.status(result.status);
    return result.body;
  }
}
